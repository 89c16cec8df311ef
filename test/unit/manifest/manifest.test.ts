import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fakeExtensionContext, useFakeVscode } from '../fakes/vscode';
import type * as ExtensionModule from '../../../src/extension';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const commands: Array<{ command: string; title: string; category?: string; icon?: string }> = pkg.contributes.commands;
const declared = new Set(commands.map((c) => c.command));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|mts|cts|js)$/.test(name) ? [path] : [];
  });
}

describe('manifest', () => {
  it('declares every command with the Cloudbench category, a title and a codicon', () => {
    for (const c of commands) {
      assert.match(c.command, /^cloudbench\./, c.command);
      assert.equal(c.category, 'Cloudbench', c.command);
      assert.ok(c.title && c.title.length > 2, c.command);
      assert.match(c.icon ?? '', /^\$\([a-z0-9-]+\)$/, c.command);
    }
    assert.equal(declared.size, commands.length, 'duplicate command ids');
  });

  it('refers only to declared commands in menus and keybindings', () => {
    const menus: Record<string, Array<{ command: string }>> = pkg.contributes.menus;
    for (const [menu, items] of Object.entries(menus)) {
      for (const item of items) assert.ok(declared.has(item.command), `${menu} names undeclared ${item.command}`);
    }
    // VS Code's own commands a keybinding may point at (Ctrl+Enter runs a UDM notebook cell).
    const builtIn = new Set(['notebook.cell.execute']);
    for (const kb of pkg.contributes.keybindings)
      assert.ok(declared.has(kb.command) || builtIn.has(kb.command), kb.command);
  });

  it('hides every command that needs a tree node from the palette', () => {
    const hidden = new Set(
      pkg.contributes.menus.commandPalette
        .filter((m: { when: string }) => m.when === 'false')
        .map((m: { command: string }) => m.command),
    );
    const nodeMenus = pkg.contributes.menus['view/item/context'].map((m: { command: string }) => m.command);
    for (const command of nodeMenus)
      assert.ok(hidden.has(command), `${command} appears in the palette but needs a node`);
  });

  it('gives every setting a title or description and a cloudbench. prefix', () => {
    for (const [key, value] of Object.entries<Record<string, unknown>>(pkg.contributes.configuration.properties)) {
      assert.match(key, /^cloudbench\./);
      assert.ok(value.description || value.title, key);
      assert.ok('default' in value, `${key} has no default`);
    }
  });

  it('activates lazily and never on startup', () => {
    assert.ok(!pkg.activationEvents.includes('*'));
    assert.ok(!pkg.activationEvents.includes('onStartupFinished'));
    assert.ok(pkg.activationEvents.includes('onLanguage:udm'));
  });

  it('keeps src/core, src/udm, src/server and src/emulator free of the vscode module', () => {
    const offenders: string[] = [];
    for (const dir of ['core', 'udm', 'server', 'emulator']) {
      let files: string[];
      try {
        files = filesUnder(join(root, 'src', dir));
      } catch {
        continue;
      }
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        if (/from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\)/.test(text))
          offenders.push(file.slice(root.length + 1));
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('keeps src/core and src/udm from importing the editor features (src/features)', () => {
    const offenders: string[] = [];
    for (const dir of ['core', 'udm']) {
      for (const file of filesUnder(join(root, 'src', dir))) {
        if (/from\s+['"](\.\.\/)+features\//.test(readFileSync(file, 'utf8')))
          offenders.push(file.slice(root.length + 1));
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('registers every declared command at activation, and nothing undeclared', function () {
    this.timeout(60_000);
    const record = useFakeVscode();

    const extension = require('../../../src/extension') as typeof ExtensionModule;
    const context = fakeExtensionContext(pkg, root);
    const api = extension.activate(context);
    try {
      assert.deepEqual(api.failures, []);
      const registered = new Set(record.commands.keys());
      const missing = [...declared].filter((c) => !registered.has(c));
      const undeclared = [...registered].filter((c) => c.startsWith('cloudbench.') && !declared.has(c));
      assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
      assert.deepEqual(undeclared, [], `registered but not declared: ${undeclared.join(', ')}`);
    } finally {
      for (const d of context.subscriptions) d.dispose();
    }
  });
});
