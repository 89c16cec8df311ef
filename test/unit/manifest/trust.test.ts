import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as SettingsModule from '../../../src/platform/settings';
import { useFakeVscode } from '../fakes/vscode';

useFakeVscode();
// Loaded after the fake is in place.
const { SENSITIVE_SETTINGS, isSensitiveSetting } = require('../../../src/platform/settings') as typeof SettingsModule;

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const properties: Record<string, { scope?: string }> = pkg.contributes.configuration.properties;

describe('manifest: workspace trust', () => {
  it('makes every setting that decides where a token goes or whose identity is used machine scoped', () => {
    const sensitive = Object.keys(properties).filter(isSensitiveSetting);
    // The families the issue names must all be present, and caught by the rule.
    for (const name of [
      'cloudbench.credentialsFile',
      'cloudbench.secops.credentialsFile',
      'cloudbench.endpoints.models',
      'cloudbench.endpoints.apiKeys',
      'cloudbench.endpoints.secops',
      'cloudbench.universeDomain',
      'cloudbench.allowedTokenHosts',
    ])
      assert.ok(sensitive.includes(name), `${name} is not treated as sensitive`);
    for (const name of sensitive) assert.equal(properties[name]?.scope, 'machine', `${name} must be machine scoped`);
    for (const name of SENSITIVE_SETTINGS) assert.ok(name in properties, `${name} is listed but not declared`);
  });

  it('lists exactly the sensitive settings in restrictedConfigurations', () => {
    const restricted: string[] = pkg.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? [];
    const sensitive = Object.keys(properties).filter(isSensitiveSetting);
    assert.deepEqual([...restricted].sort(), [...sensitive].sort());
  });

  it('leaves project, locations and search defaults settable by a workspace', () => {
    for (const name of [
      'cloudbench.project',
      'cloudbench.locations',
      'cloudbench.search.defaultLimit',
      'cloudbench.search.defaultTimeRange',
    ]) {
      assert.ok(name in properties, name);
      assert.ok(!isSensitiveSetting(name), name);
      assert.ok(
        properties[name]?.scope === undefined ||
          properties[name]?.scope === 'window' ||
          properties[name]?.scope === 'resource',
        name,
      );
    }
  });

  it('declares limited support for untrusted and virtual workspaces, with descriptions', () => {
    const { untrustedWorkspaces, virtualWorkspaces } = pkg.capabilities ?? {};
    assert.equal(untrustedWorkspaces?.supported, 'limited');
    assert.match(untrustedWorkspaces?.description ?? '', /user settings/);
    assert.equal(virtualWorkspaces?.supported, 'limited');
    assert.ok((virtualWorkspaces?.description ?? '').length > 20);
  });
});
