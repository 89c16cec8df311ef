import { strict as assert } from 'node:assert';
import { loadSettingsModule, scriptConfiguration } from '../../reliability/scripted-config';
import { fakeExtensionContext } from '../fakes/vscode';
import type * as FeaturesServicesModule from '../../../src/features/services';

describe('settings and connection', () => {
  let undo: (() => void) | undefined;
  afterEach(() => {
    undo?.();
    undo = undefined;
  });

  it('keeps a set-but-unusable endpoint override as invalid instead of dropping it', () => {
    undo = scriptConfiguration({
      'endpoints.apiKeys': 'http//127.0.0.1:8080',
      'endpoints.models': '127.0.0.1:99999',
      'endpoints.secops': 'http://127.0.0.1:9/',
    });
    const { settings, problems } = loadSettingsModule().readSettings();
    assert.equal(settings.endpoints.apiKeys, undefined);
    assert.match(
      settings.invalidEndpoints.apiKeys ?? '',
      /^cloudbench\.endpoints\.apiKeys: "http\/\/127\.0\.0\.1:8080"/,
    );
    assert.match(settings.invalidEndpoints.models ?? '', /^cloudbench\.endpoints\.models:/);
    assert.equal(settings.endpoints.secops, 'http://127.0.0.1:9');
    assert.deepEqual(problems.map((p) => p.setting).sort(), [
      'cloudbench.endpoints.apiKeys',
      'cloudbench.endpoints.models',
    ]);
  });

  it('refuses to hand out an invalid endpoint, so nothing falls back to production', () => {
    undo = scriptConfiguration({
      'endpoints.apiKeys': 'http//127.0.0.1:8080',
      'endpoints.secops': 'http://127.0.0.1:9',
    });
    const { createServices, InvalidSettingError } =
      require('../../../src/features/services') as typeof FeaturesServicesModule;
    const context = fakeExtensionContext({}, '/tmp');
    const connection = createServices(context).connection();
    assert.throws(
      () => connection.endpoint('apiKeys'),
      (err: unknown) =>
        err instanceof InvalidSettingError &&
        /cloudbench\.endpoints\.apiKeys.*nothing was sent/.test((err as Error).message),
    );
    assert.equal(connection.endpoint('secops'), 'http://127.0.0.1:9');
    assert.equal(connection.endpoint('models'), undefined);
  });

  it('reports an unknown SecOps region and uses the US multi-region meanwhile', () => {
    undo = scriptConfiguration({ 'secops.region': 'mars-north1' });
    const { settings, problems } = loadSettingsModule().readSettings();
    assert.equal(settings.secops.region, 'us');
    assert.match(
      problems.find((p) => p.setting === 'cloudbench.secops.region')?.message ?? '',
      /"mars-north1" is not a SecOps region/,
    );
  });
});
