// One name per snippet: VS Code lists a snippet once per prefix, so a snippet with two prefixes
// appears twice in the completion list under two names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

for (const file of ['syntaxes/udm.snippets.json', 'syntaxes/yaral.snippets.json']) {
  describe(`snippets: ${file}`, () => {
    const snippets = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, { prefix: unknown }>;

    it('gives each snippet exactly one prefix, and no two snippets the same one', () => {
      const twice = Object.entries(snippets).filter(([, s]) => typeof s.prefix !== 'string');
      assert.deepEqual(
        twice.map(([name]) => name),
        [],
        'snippets listed under more than one name',
      );
      const prefixes = Object.values(snippets).map((s) => s.prefix as string);
      assert.equal(new Set(prefixes).size, prefixes.length, prefixes.join(', '));
      for (const p of prefixes) assert.match(p, /^[a-z][a-z-]*$/);
    });
  });
}
