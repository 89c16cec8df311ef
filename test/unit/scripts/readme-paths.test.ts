// src/README.md describes the tree as it is: every path it names (in backticks) exists.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** The paths src/README.md names: `src/…`, `test/…`, `syntaxes/…`, and `core/…`, `udm/…` … under src. */
function namedPaths(text: string): string[] {
  const out = new Set<string>();
  for (const [, raw] of text.matchAll(/`([^`\s]+)`/g)) {
    if (raw.includes('<') || raw.includes('*')) continue;
    const path = raw.replace(/\/$/, '');
    if (/^(src|test|syntaxes)\//.test(path)) out.add(path);
    else if (/^(core|udm|platform|features|webview|server|emulator|cli)\/[\w./-]+$/.test(path)) out.add(`src/${path}`);
  }
  return [...out];
}

describe('src/README.md', () => {
  it('names only paths that exist', () => {
    const paths = namedPaths(readFileSync(join(ROOT, 'src/README.md'), 'utf8'));
    assert.ok(paths.length > 20, `only ${paths.length} paths found`);
    const missing = paths.filter((p) => !existsSync(join(ROOT, p)));
    assert.deepEqual(missing, []);
  });

  it('a path that does not exist is caught', () => {
    assert.deepEqual(namedPaths('see `src/features/nowhere.ts` and `udm/none.ts`'), [
      'src/features/nowhere.ts',
      'src/udm/none.ts',
    ]);
  });
});
