import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeExtensionContext, useFakeVscode } from '../fakes/vscode';
import type * as ExtensionModule from '../../../src/extension';
import type * as TableModule from '../../../src/platform/command-table';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const declared: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);

describe('command tables', () => {
  let record: ReturnType<typeof useFakeVscode>;
  let extension: typeof ExtensionModule;
  let table: typeof TableModule;
  let context: ReturnType<typeof fakeExtensionContext>;

  beforeEach(() => {
    record = useFakeVscode();
    extension = require('../../../src/extension') as typeof ExtensionModule;
    table = require('../../../src/platform/command-table') as typeof TableModule;
    context = fakeExtensionContext(pkg, root);
  });
  afterEach(() => {
    for (const d of context.subscriptions) d.dispose();
  });

  it('gives every declared command to exactly one feature table', () => {
    const owners = new Map<string, string[]>();
    for (const feature of extension.FEATURES)
      for (const id of Object.keys(feature.commands)) owners.set(id, [...(owners.get(id) ?? []), feature.name]);
    const shared = [...owners].filter(([, names]) => names.length > 1).map(([id]) => id);
    assert.deepEqual(shared, []);
    const inTables = new Set(owners.keys());
    const undeclared = [...inTables].filter((id) => !declared.includes(id));
    assert.deepEqual(undeclared, [], 'commands in a table but not in package.json');
    // …and every command of package.json is in a table, so it answers even when its feature failed.
    assert.deepEqual(
      declared.filter((id) => !inTables.has(id)),
      [],
      'commands in package.json but in no table',
    );
  });

  it('answers the commands of a feature that failed to start with its failure, and keeps the others', async () => {
    const victim = extension.FEATURES.find((f) => Object.keys(f.commands).length > 0)!;
    const victimCommand = Object.keys(victim.commands)[0];
    const features = extension.FEATURES.map((f) =>
      f === victim
        ? {
            ...f,
            activate: () => {
              throw new Error('the disk is on fire');
            },
          }
        : f,
    );
    const api = extension.startFeatures(context, features);
    assert.deepEqual(
      api.failures.map((f) => f.feature),
      [victim.name],
    );
    // Every command of package.json is registered, the failed feature's included.
    const missing = declared.filter((id) => !record.commands.has(id));
    assert.deepEqual(missing, []);
    record.messages.length = 0;
    await record.commands.get(victimCommand)!();
    const said = record.messages.map((m) => m.text).join('\n');
    assert.match(said, new RegExp(`${victim.name} could not start \\(the disk is on fire\\)`));
    assert.doesNotMatch(said, /not found/);
  });

  it('routes a call to the handler with the context the feature started with', async () => {
    const calls: unknown[][] = [];
    const registry = new table.CommandRegistry(context);
    const commands = registry.declare<{ name: string }>('Test feature', {
      'cloudbench.test.one': (ctx, ...args) => {
        calls.push([ctx.name, ...args]);
        return 'done';
      },
    });
    record.messages.length = 0;
    // Before the feature is ready the command says so instead of running.
    await record.commands.get('cloudbench.test.one')!('early');
    assert.deepEqual(calls, []);
    assert.match(record.messages[0]?.text ?? '', /Test feature is still starting/);
    commands.ready({ name: 'ctx' });
    assert.equal(await record.commands.get('cloudbench.test.one')!('a', 2), 'done');
    assert.deepEqual(calls, [['ctx', 'a', 2]]);
  });

  it('reports a handler that throws instead of letting it reach VS Code', async () => {
    const registry = new table.CommandRegistry(context);
    registry
      .declare('Test feature', {
        'cloudbench.test.throws': () => {
          throw new Error('quota exhausted');
        },
      })
      .ready(undefined);
    record.messages.length = 0;
    assert.equal(await record.commands.get('cloudbench.test.throws')!(), undefined);
    assert.match(record.messages.map((m) => m.text).join('\n'), /quota exhausted/);
  });

  it('refuses one command id in two tables', () => {
    const registry = new table.CommandRegistry(context);
    registry.declare('First', { 'cloudbench.test.twice': () => undefined });
    assert.throws(
      () => registry.declare('Second', { 'cloudbench.test.twice': () => undefined }),
      /both First and Second/,
    );
  });
});
