// Makes every test file start from the same state, whatever ran before it (mocha root hook plugin,
// registered in .mocharc.json). Before a file's first suite runs:
// - the shared `vscode` fake (test/unit/fakes/vscode.ts) is put back as built, so members a file
//   replaced and commands it registered do not reach the next file;
// - the product modules under src/ are the instances loaded with the test files: a file that
//   reloads them (freshProductModules) gets fresh copies for itself, and the next file again sees
//   the modules its own imports hold, so `instanceof` checks across modules keep working.
import { join, sep } from 'node:path';
import type { Context } from 'mocha';
import { resetFakeVscode } from '../unit/fakes/vscode';

const SRC = join(__dirname, '..', '..', 'src') + sep;

function productModules(): Map<string, NodeJS.Module> {
  const modules = new Map<string, NodeJS.Module>();
  for (const [id, mod] of Object.entries(require.cache)) if (id.startsWith(SRC) && mod) modules.set(id, mod);
  return modules;
}

function restoreProductModules(loaded: Map<string, NodeJS.Module>): void {
  for (const id of Object.keys(require.cache)) if (id.startsWith(SRC) && !loaded.has(id)) delete require.cache[id];
  for (const [id, mod] of loaded) require.cache[id] = mod;
}

export const mochaHooks = {
  beforeAll(this: Context): void {
    const root = this.test?.parent;
    if (!root) return;
    const loaded = productModules();
    const seen = new Set<string>();
    for (const suite of root.suites) {
      if (!suite.file || seen.has(suite.file)) continue;
      seen.add(suite.file);
      suite.beforeAll('start the file from a clean vscode fake and the loaded product modules', () => {
        resetFakeVscode();
        restoreProductModules(loaded);
      });
      // Hooks run in the order they were added: this one must come before the file's own.
      const hooks = (suite as unknown as { _beforeAll: unknown[] })._beforeAll;
      hooks.unshift(hooks.pop());
    }
  },
};
