// The size limits of eslint.config.mjs, run through ESLint itself on generated sources: one line or
// one function line over the limit fails the lint, the limit itself passes.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = join(__dirname, '..', '..', '..');
const LIMIT_RULES = new Set(['max-lines', 'max-lines-per-function', 'no-restricted-imports']);

async function limitErrors(file: string, source: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: ROOT,
    ruleFilter: ({ ruleId }) => LIMIT_RULES.has(ruleId),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
  // An ignored file (generated code) gives no result at all.
  const [result] = await eslint.lintText(source, { filePath: join(ROOT, file), warnIgnored: false });
  if (!result) return [];
  return result.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

/** A module of exactly `lines` lines: one export per line. */
function fileOf(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
}

/** A module whose one function spans exactly `lines` lines, signature and closing brace included. */
function functionOf(lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`);
  return ['export function long(): void {', ...body, '}'].join('\n') + '\n';
}

describe('lint: size limits and the platform layer', function () {
  this.timeout(60_000);

  it('refuses a 601-line file and accepts a 600-line one', async () => {
    const over = await limitErrors('src/core/limits-probe.ts', fileOf(601));
    assert.equal(over.length, 1, over.join('\n'));
    assert.match(over[0], /^max-lines: /);
    assert.deepEqual(await limitErrors('src/core/limits-probe.ts', fileOf(600)), []);
  });

  it('refuses a 121-line function and accepts a 120-line one', async () => {
    const over = await limitErrors('src/features/search/limits-probe.ts', functionOf(121));
    assert.equal(over.length, 1, over.join('\n'));
    assert.match(over[0], /^max-lines-per-function: /);
    assert.deepEqual(await limitErrors('src/features/search/limits-probe.ts', functionOf(120)), []);
  });

  it('leaves generated code to its generator', async () => {
    assert.deepEqual(await limitErrors('src/udm/generated/limits-probe.ts', fileOf(700)), []);
  });

  it('refuses platform importing a feature, and lets it import core', async () => {
    const bad = await limitErrors(
      'src/platform/probe.ts',
      "import { x } from '../features/search/controller';\nexport const y = x;\n",
    );
    assert.equal(bad.length, 1, bad.join('\n'));
    assert.match(bad[0], /platform sits below the features/);
    assert.deepEqual(
      await limitErrors('src/platform/probe.ts', "import { x } from '../core/names';\nexport const y = x;\n"),
      [],
    );
  });
});
