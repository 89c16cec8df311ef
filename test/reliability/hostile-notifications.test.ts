// Names with link syntax, through the real keys feature against the sandbox: every notification,
// modal question, progress title and quick-pick item the commands show is checked against VS Code's
// own grammar for links in such text (src/vs/base/common/linkedText.ts) and for `$(icon)`. The key
// names are what a colleague or an attacker with write access to the project can set.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExtensionContext } from 'vscode';
import { fakeExtensionContext } from '../unit/fakes/vscode';
import { freshProductModules, scriptConfiguration } from './scripted-config';
import { startSandbox, type Sandbox } from '../../src/emulator/sandbox';
import { ApiKeysClient } from '../../src/core/apikeys/client';
import { sandboxTokenSource } from '../../src/core/google/credentials';
import { admin } from './helpers';
import type * as PlatformLogModule from '../../src/platform/log';
import type * as FeaturesServicesModule from '../../src/features/services';
import type * as FeaturesKeysModule from '../../src/features/keys';
import type * as FakesVscodeModule from '../unit/fakes/vscode';
import { startFeature } from '../support/start-feature';

const vscode = require('vscode') as Record<string, any>;
const PROJECT = 'cloudbench-hostile';
const LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const ICON = /(?<!\\)\$\([a-z.\d-]+(?:~[a-z\d-]*)?\)/gi;

// Each fits the 63-character display name limit.
const NAMES = [
  '[Show key](command:workbench.action.terminal.new)',
  '[Reset your password](https://evil.example/login "Google")',
  '$(warning) [passwd](file:///etc/passwd)',
  'rtl \u202e[x](command:workbench.action.quit)\u202c\nsecond line',
];

describe('reliability: key names with link syntax reach notifications as text', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let home: string;
  let context: any;
  let undoConfig: () => void;
  const saved = new Map<string, unknown>();
  /** Every piece of text the commands put on screen, with where it went. */
  const surfaces: Array<{ where: string; text: string }> = [];
  let answers: string[] = [];
  let direct: ApiKeysClient;

  before(async () => {
    sb = await startSandbox({ seed: 'empty' });
    await admin(sb, 'ratelimits', { enabled: false });
    home = mkdtempSync(join(tmpdir(), 'cloudbench-hostile-'));
    undoConfig = scriptConfiguration({ project: PROJECT, 'endpoints.apiKeys': sb.http });
    const window = vscode.window;
    for (const key of [
      'showInputBox',
      'showQuickPick',
      'showInformationMessage',
      'showWarningMessage',
      'showErrorMessage',
      'withProgress',
      'createTreeView',
    ])
      saved.set(key, window[key]);
    window.showInputBox = async (o: { title?: string; prompt?: string }) => {
      surfaces.push({ where: 'input title', text: o.title ?? '' }, { where: 'input prompt', text: o.prompt ?? '' });
      return answers.shift();
    };
    window.showQuickPick = async (items: any, o: { title?: string }) => {
      const list = (await items) as Array<{ label: string; description?: string; detail?: string }>;
      surfaces.push({ where: 'pick title', text: o?.title ?? '' });
      for (const i of list)
        surfaces.push(
          { where: 'pick label', text: i.label },
          { where: 'pick description', text: i.description ?? '' },
          { where: 'pick detail', text: i.detail ?? '' },
        );
      return list[0];
    };
    const message =
      (level: string) =>
      async (text: string, ...rest: unknown[]) => {
        surfaces.push({ where: `${level} message`, text });
        const options = rest.find((r): r is { detail?: string } => typeof r === 'object' && r !== null);
        if (options?.detail) surfaces.push({ where: `${level} detail`, text: options.detail });
        const choices = rest.filter((r): r is string => typeof r === 'string');
        return choices.find((c) => ['Delete'].includes(c));
      };
    window.showInformationMessage = message('info');
    window.showWarningMessage = message('warning');
    window.showErrorMessage = message('error');
    window.withProgress = async (o: { title?: string }, task: (p: unknown, t: unknown) => Promise<unknown>) => {
      surfaces.push({ where: 'progress title', text: o.title ?? '' });
      return task(
        { report: (r: { message?: string }) => surfaces.push({ where: 'progress', text: r.message ?? '' }) },
        { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) },
      );
    };
    window.createTreeView = () => ({
      dispose() {},
      reveal: async () => undefined,
      onDidChangeVisibility: () => ({ dispose() {} }),
    });
    context = fakeExtensionContext({ contributes: {} }, home);
    freshProductModules();
    const { initLogging } = require('../../src/platform/log') as typeof PlatformLogModule;
    const { createServices } = require('../../src/features/services') as typeof FeaturesServicesModule;
    const { keysFeature } = require('../../src/features/keys') as typeof FeaturesKeysModule;
    initLogging(context as ExtensionContext);
    startFeature(keysFeature, context, createServices(context));
    direct = new ApiKeysClient({ baseUrl: sb.http, tokens: sandboxTokenSource() });
  });

  after(async () => {
    undoConfig?.();
    for (const [key, value] of saved) vscode.window[key] = value;
    for (const d of context?.subscriptions ?? [])
      try {
        d.dispose();
      } catch {
        /* best effort */
      }
    freshProductModules();
    await sb?.close();
    rmSync(home, { recursive: true, force: true });
  });

  async function command(id: string, ...args: unknown[]): Promise<void> {
    const { record } = require('../unit/fakes/vscode') as typeof FakesVscodeModule;
    const handler = record.commands.get(id);
    assert.ok(handler, `${id} is registered`);
    await handler(...args);
  }

  function assertNoLinks(): void {
    assert.ok(surfaces.length > 0);
    for (const { where, text } of surfaces) {
      assert.deepEqual([...text.matchAll(LINKED_TEXT)], [], `${where}: ${JSON.stringify(text)}`);
      assert.deepEqual([...text.matchAll(ICON)], [], `${where}: ${JSON.stringify(text)}`);
      assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(text), `${where}: ${JSON.stringify(text)}`);
      if (!where.endsWith('detail')) assert.ok(!/[\r\n]/.test(text), `${where}: ${JSON.stringify(text)}`);
    }
  }

  /** The text a user reads: the invisible breaks taken out. */
  const read = (text: string): string => text.replaceAll('\u200b', '');

  it('create, pick, rename, delete and undelete show each name as its characters, never as a link', async () => {
    for (const [i, name] of NAMES.entries())
      await direct.createKey(PROJECT, { keyId: `hostile-${i}`, displayName: name.replace(/\n/g, ' ') });

    const first = `projects/${PROJECT}/locations/global/keys/hostile-0`;
    await command('cloudbench.keys.delete', first);
    const deleted = surfaces.find((s) => s.where === 'info message' && read(s.text).startsWith('Deleted key'));
    assert.ok(deleted, JSON.stringify(surfaces));
    // The name is there, readable, character for character, and VS Code finds no link in it.
    assert.equal(
      read(deleted.text),
      `Deleted key "${NAMES[0]}" (hostile-0). It can be undeleted from "Deleted keys" for 30 days.`,
    );
    assert.notEqual(deleted.text, read(deleted.text), 'the link syntax was broken');

    await command('cloudbench.keys.undelete', first);
    // No argument: the key comes from a quick pick listing every key by its name.
    await command('cloudbench.keys.copyResourceName');
    answers = ['[Open](command:workbench.action.terminal.new "t")'];
    await command('cloudbench.keys.rename', `projects/${PROJECT}/locations/global/keys/hostile-1`);
    answers = ['[Docs](https://evil.example)', 'hostile-new', ''];
    await command('cloudbench.keys.create');
    for (const i of [2, 3])
      await command('cloudbench.keys.delete', `projects/${PROJECT}/locations/global/keys/hostile-${i}`);

    assert.ok(
      surfaces.some((s) => s.where === 'pick label' && read(s.text) === NAMES[1]),
      'the pick lists names',
    );
    assert.ok(surfaces.some((s) => s.where === 'progress title' && read(s.text).startsWith('Deleting key')));
    assert.ok(surfaces.some((s) => read(s.text).includes('[Open](command:workbench.action.terminal.new "t")')));
    assert.ok(surfaces.some((s) => read(s.text).includes('rtl [x](command:workbench.action.quit) second line')));
    assertNoLinks();
  });
});
