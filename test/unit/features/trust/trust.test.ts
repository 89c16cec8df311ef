import { strict as assert } from 'node:assert';
import type * as Vscode from 'vscode';
import { loadSettingsModule } from '../../../reliability/scripted-config';
import type * as TrustModule from '../../../../src/features/trust';
import type * as SettingsModule from '../../../../src/platform/settings';

const vscode = require('vscode') as typeof Vscode;
const { sensitiveSettingsIn, stripJsonComments, ignoredSettingsMessage } =
  require('../../../../src/features/trust') as typeof TrustModule;

describe('workspace trust: settings a workspace may not decide', () => {
  it('finds sensitive settings in dotted, nested and language-specific forms, with comments and trailing commas', () => {
    const text = `{
      // "cloudbench.universeDomain": "commented.example",
      /* "cloudbench.credentialsFile": "/nope" */
      "cloudbench.project": "p",
      "cloudbench.endpoints.apiKeys": "https://attacker.example", // trailing comment
      "cloudbench": { "secops": { "credentialsFile": "./sa.json", "region": "europe" }, },
      "[udm]": { "cloudbench.endpoints.secops": "https://x.example" },
      "other.setting": "cloudbench.endpoints.models",
      "cloudbench.mtls.endpoint": "always",
    }`;
    assert.deepEqual(sensitiveSettingsIn(text), [
      'cloudbench.endpoints.apiKeys',
      'cloudbench.endpoints.secops',
      'cloudbench.mtls.endpoint',
      'cloudbench.secops.credentialsFile',
    ]);
    assert.equal(JSON.parse(stripJsonComments('{"a": "// not a comment", "b": [1,],}')).a, '// not a comment');
  });

  it('still finds the keys of a file that is not valid JSON', () => {
    assert.deepEqual(sensitiveSettingsIn('{ "cloudbench.credentialsFile": "/x" "cloudbench.project": }'), [
      'cloudbench.credentialsFile',
    ]);
  });

  it('names the settings but never their values', () => {
    const message = ignoredSettingsMessage(['cloudbench.credentialsFile', 'cloudbench.endpoints.apiKeys'], false);
    assert.match(message, /Restricted Mode/);
    assert.match(message, /cloudbench\.credentialsFile, cloudbench\.endpoints\.apiKeys/);
    assert.match(message, /user settings only/);
  });

  it('says what is true in each trust state: trusting the workspace would not apply these settings', () => {
    const restricted = ignoredSettingsMessage(['cloudbench.universeDomain'], false);
    assert.doesNotMatch(restricted, /even in a trusted workspace/);
    assert.match(restricted, /trusting this workspace would not apply them either\.$/);
    const trusted = ignoredSettingsMessage(['cloudbench.universeDomain'], true);
    assert.doesNotMatch(trusted, /Restricted Mode/);
    assert.match(trusted, /whether a workspace is trusted or not\.$/);
  });

  it('reads sensitive settings from user level only, whatever the workspace says', () => {
    const configuration = vscode.workspace.getConfiguration('cloudbench') as unknown as {
      get: (key: string, fallback?: unknown) => unknown;
      inspect: (key: string) => unknown;
    };
    const { get, inspect } = configuration;
    const workspace: Record<string, unknown> = {
      'endpoints.apiKeys': 'https://attacker.example',
      credentialsFile: '/workspace/sa.json',
      universeDomain: 'attacker.example',
      allowedTokenHosts: ['attacker.example'],
      project: 'workspace-project',
    };
    const user: Record<string, unknown> = { 'endpoints.apiKeys': 'http://127.0.0.1:9' };
    // An editor that (wrongly) merged workspace values into get(): the helper must not use them.
    configuration.get = (key, fallback) => workspace[key] ?? user[key] ?? fallback;
    configuration.inspect = (key) => ({
      key,
      ...(key in user ? { globalValue: user[key] } : {}),
      ...(key in workspace ? { workspaceValue: workspace[key] } : {}),
    });
    try {
      const { settings } = loadSettingsModule().readSettings();
      assert.equal(settings.endpoints.apiKeys, 'http://127.0.0.1:9');
      assert.equal(settings.credentialsFile, undefined);
      assert.equal(settings.universeDomain, undefined);
      assert.deepEqual(settings.allowedTokenHosts, []);
      assert.equal(settings.project, 'workspace-project');
    } finally {
      configuration.get = get;
      configuration.inspect = inspect;
    }
  });
});

describe('cloudbenchConfiguration on a frozen configuration object (as VS Code gives)', () => {
  it('reads settings without breaking Proxy invariants, sensitive ones from user level only', () => {
    const { cloudbenchConfiguration } = require('../../../../src/platform/settings') as typeof SettingsModule;
    const values: Record<string, { workspace?: unknown; global?: unknown }> = {
      project: { workspace: 'from-workspace' },
      credentialsFile: { workspace: '/workspace/key.json', global: '/home/me/key.json' },
    };
    const frozen = Object.freeze({
      get: (key: string, fallback?: unknown) => values[key]?.workspace ?? values[key]?.global ?? fallback,
      has: (key: string) => key in values,
      inspect: (key: string) =>
        key in values ? { key, workspaceValue: values[key].workspace, globalValue: values[key].global } : undefined,
      update: async () => undefined,
    });
    const workspace = vscode.workspace as unknown as { getConfiguration: unknown };
    const original = workspace.getConfiguration;
    workspace.getConfiguration = () => frozen;
    try {
      const config = cloudbenchConfiguration();
      assert.equal(config.get('project'), 'from-workspace');
      assert.equal(config.get('credentialsFile'), '/home/me/key.json');
      assert.equal(config.get('missing', 'fallback'), 'fallback');
      assert.equal(config.has('project'), true);
    } finally {
      workspace.getConfiguration = original;
    }
  });
});
