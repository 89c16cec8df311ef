import { strict as assert } from 'node:assert';
import { freshProductModules, loadSettingsModule, scriptConfiguration } from '../../reliability/scripted-config';
import { fakeExtensionContext, record } from '../fakes/vscode';
import { compareSettings, droppedSettings, reliedOn } from '../../../src/features/settings-change';
import type * as FeaturesServicesModule from '../../../src/features/services';

const SANDBOX = {
  project: 'cloudbench-demo',
  'endpoints.models': '127.0.0.1:50051',
  'endpoints.apiKeys': 'http://127.0.0.1:8080',
  'endpoints.secops': 'http://127.0.0.1:8080',
};

function settingsOf(values: Record<string, unknown>) {
  const undo = scriptConfiguration(values);
  try {
    return loadSettingsModule().readSettings().settings;
  } finally {
    undo();
  }
}

describe('what a settings change touches', () => {
  it('a page-size change touches neither credentials nor clients', () => {
    const change = compareSettings(settingsOf(SANDBOX), settingsOf({ ...SANDBOX, pageSize: 40 }));
    assert.deepEqual([...change.changed], ['pageSize']);
    assert.equal(change.credentials, false);
    assert.equal(change.clients, false);
  });

  it('an endpoint or credentials file touches credentials; the project or the deadline only the clients', () => {
    const before = settingsOf(SANDBOX);
    const endpoint = compareSettings(before, settingsOf({ ...SANDBOX, 'endpoints.apiKeys': 'http://127.0.0.1:9' }));
    assert.ok(endpoint.credentials && endpoint.clients);
    const file = compareSettings(before, settingsOf({ ...SANDBOX, credentialsFile: '/keys/sa.json' }));
    assert.ok(file.credentials);
    const project = compareSettings(before, settingsOf({ ...SANDBOX, project: 'other-project' }));
    assert.ok(!project.credentials && project.clients);
    const timeout = compareSettings(before, settingsOf({ ...SANDBOX, 'requests.timeoutSeconds': 3 }));
    assert.ok(!timeout.credentials && timeout.clients);
  });

  it('a relied-on endpoint that disappears is named with the Google host now used', () => {
    const dropped = droppedSettings(reliedOn(settingsOf(SANDBOX)), settingsOf({ project: 'cloudbench-demo' }), {});
    assert.deepEqual(
      dropped.map((d) => d.setting),
      ['cloudbench.endpoints.models', 'cloudbench.endpoints.apiKeys', 'cloudbench.endpoints.secops'],
    );
    assert.match(dropped[0].now, /us-central1-aiplatform\.googleapis\.com:443/);
    assert.match(dropped[1].now, /https:\/\/apikeys\.googleapis\.com/);
    assert.match(dropped[2].now, /backstory\.googleapis\.com|chronicle/);
  });

  it('an endpoint made unusable is not "dropped" (it has its own message and sends nothing)', () => {
    const dropped = droppedSettings(
      reliedOn(settingsOf(SANDBOX)),
      settingsOf({ ...SANDBOX, 'endpoints.apiKeys': 'http//typo' }),
      {},
    );
    assert.deepEqual(dropped, []);
  });

  it('at start, a setting the last session relied on and that is gone is warned about once', () => {
    // A remote window (the editor says so in env.remoteName): the warning says where machine settings live.
    (require('vscode') as { env?: unknown }).env = { remoteName: 'ssh-remote' };
    freshProductModules();
    const { createServices } = require('../../../src/features/services') as typeof FeaturesServicesModule;
    const context = fakeExtensionContext({}, '/tmp');
    let undo = scriptConfiguration(SANDBOX);
    createServices(context);
    undo();
    record.messages.length = 0;
    // The next start: the editor no longer hands the endpoints to the extension.
    undo = scriptConfiguration({ project: 'cloudbench-demo' });
    try {
      createServices(context);
      createServices(context);
    } finally {
      undo();
    }
    const warnings = record.messages.filter((m) => m.level === 'warning' && /no longer set/.test(m.text));
    assert.equal(warnings.length, 3, JSON.stringify(record.messages));
    assert.match(
      warnings[0].text,
      /^Cloudbench setting cloudbench\.endpoints\.models is no longer set; Cloudbench now uses Google's Vertex AI hosts/,
    );
    assert.match(warnings[0].text, /remote machine's settings \(the "Remote" tab/);
  });
});
