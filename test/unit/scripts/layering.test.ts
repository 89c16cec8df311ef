// The layering rules of eslint.config.mjs, run through ESLint itself on sources placed in each layer:
// a VS Code import or an upward import fails the lint, the allowed imports pass.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = join(__dirname, '..', '..', '..');

async function layeringErrors(file: string, source: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: ROOT,
    // Only the layering rule runs, so no type information (and no file on disk) is needed.
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
  const [result] = await eslint.lintText(source, { filePath: join(ROOT, file) });
  assert.ok(result, 'ESLint returned no result');
  return result.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('lint: layering', function () {
  this.timeout(60_000);

  for (const layer of [
    'src/core/google',
    'src/udm',
    'src/server',
    'src/emulator/http',
    'src/webview/results',
    'src/cli',
  ]) {
    it(`refuses a vscode import in ${layer}`, async () => {
      const errors = await layeringErrors(
        `${layer}/layering-probe.ts`,
        "import * as vscode from 'vscode';\nexport const x = vscode;\n",
      );
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.match(errors[0], /^no-restricted-imports: .*without VS Code/);
    });
  }

  it('refuses core and udm importing the editor glue', async () => {
    const fromCore = await layeringErrors(
      'src/core/secops/probe.ts',
      "import { x } from '../../features/search/controller';\nexport const y = x;\n",
    );
    const fromUdm = await layeringErrors(
      'src/udm/probe.ts',
      "import { x } from '../platform/log';\nexport const y = x;\n",
    );
    assert.equal(fromCore.length, 1, fromCore.join('\n'));
    assert.equal(fromUdm.length, 1, fromUdm.join('\n'));
    assert.match(fromCore[0], /bottom layers/);
  });

  it('refuses pages importing features, and lets them import core, udm and webview code', async () => {
    const bad = await layeringErrors(
      'src/webview/stats/probe.ts',
      "import { x } from '../../features/statistics/panel';\nexport const y = x;\n",
    );
    assert.equal(bad.length, 1, bad.join('\n'));
    assert.match(bad[0], /pages run in the browser/);
    const good = await layeringErrors(
      'src/webview/stats/probe.ts',
      "import { a } from '../../core/secops/statistics/protocol';\nimport { b } from '../../udm/stats/format';\nimport { c } from '../shared/dom';\nexport const y = [a, b, c];\n",
    );
    assert.deepEqual(good, []);
  });

  it('keeps the command line off the editor glue and core and udm off the command line', async () => {
    const bad = await layeringErrors(
      'src/cli/probe.ts',
      "import { x } from '../features/search/controller';\nexport const y = x;\n",
    );
    assert.equal(bad.length, 1, bad.join('\n'));
    assert.match(bad[0], /command line runs outside VS Code/);
    const up = await layeringErrors('src/udm/probe.ts', "import { x } from '../cli/languages';\nexport const y = x;\n");
    assert.equal(up.length, 1, up.join('\n'));
    const good = await layeringErrors(
      'src/cli/probe.ts',
      "import { a } from '../udm/service';\nimport { b } from '../core/notebook/format';\nexport const y = [a, b];\n",
    );
    assert.deepEqual(good, []);
  });

  it('lets the editor glue import vscode', async () => {
    assert.deepEqual(
      await layeringErrors(
        'src/features/search/probe.ts',
        "import * as vscode from 'vscode';\nexport const x = vscode;\n",
      ),
      [],
    );
  });

  it('refuses a feature importing another feature, at any depth of its folder', async () => {
    const cases: Array<[string, string]> = [
      ['src/features/rules/probe.ts', '../search/controller'],
      ['src/features/notebooks/probe.ts', '../statistics'],
      ['src/features/keys/commands/probe.ts', '../../operations/registry'],
      ['src/features/search/commands/deeper/probe.ts', '../../../statistics/panel'],
      ['src/features/shared/probe.ts', '../search/controller'],
    ];
    for (const [file, target] of cases) {
      const errors = await layeringErrors(file, `import { x } from '${target}';\nexport const y = x;\n`);
      assert.equal(errors.length, 1, `${file} → ${target}: ${errors.join('\n')}`);
      assert.match(errors[0], /^no-restricted-imports: .*through Services/);
    }
  });

  it('lets a feature import its own modules, shared code, Services and other features’ types', async () => {
    const good = await layeringErrors(
      'src/features/rules/commands/probe.ts',
      [
        "import { a } from '../deps';",
        "import { b } from '../../shared/time-range';",
        "import type { Services } from '../../services';",
        "import type { SearchController } from '../../search/controller';",
        "import { c } from '../../../platform/log';",
        'export const y = [a, b, c] as unknown as [Services, SearchController];',
      ].join('\n'),
    );
    assert.deepEqual(good, []);
  });
});
