// Scripted `cloudbench.*` values for the shared vscode fake, whose configuration answers defaults.
import { useFakeVscode } from '../unit/fakes/vscode';
import type * as VscodeModule from 'vscode';
import type * as PlatformSettingsModule from '../../src/platform/settings';

useFakeVscode();

/** Makes getConfiguration('cloudbench').get(key) answer `values[key]`; returns the undo. */
export function scriptConfiguration(values: Record<string, unknown>): () => void {
  // Required after the fake is installed: a static import would load the real module name first.
  const vscode = require('vscode') as typeof VscodeModule;
  const configuration = vscode.workspace.getConfiguration('cloudbench') as unknown as {
    get: (key: string, fallback?: unknown) => unknown;
  };
  const original = configuration.get;
  configuration.get = (key: string, fallback?: unknown) =>
    Object.prototype.hasOwnProperty.call(values, key) ? values[key] : fallback;
  return () => {
    configuration.get = original;
  };
}

/** src/platform/settings, loaded once the fake is in place. */
export function loadSettingsModule(): typeof PlatformSettingsModule {
  return require('../../src/platform/settings') as typeof PlatformSettingsModule;
}

/**
 * Drops the product's modules from the require cache. Compiled `import * as vscode` copies the
 * fake's properties when a module first loads, so a namespace the test adds later (env) and a
 * logger the test wants to capture are only seen by modules loaded after this.
 */
export function freshProductModules(): void {
  const src = require('node:path').join(__dirname, '../../src') + '/';
  for (const id of Object.keys(require.cache)) if (id.startsWith(src)) delete require.cache[id];
}
