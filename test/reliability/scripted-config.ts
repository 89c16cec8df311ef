// Scripted `cloudbench.*` values for the shared vscode fake, whose configuration answers defaults.
import type * as Vscode from 'vscode';
import type * as SettingsModule from '../../src/platform/settings';
import { useFakeVscode } from '../unit/fakes/vscode';

useFakeVscode();

/** Makes getConfiguration('cloudbench').get(key) answer `values[key]`; returns the undo. */
export function scriptConfiguration(values: Record<string, unknown>): () => void {
  // Required after the fake is installed: a static import would load the real module name first.
  const vscode = require('vscode') as typeof Vscode;
  const configuration = vscode.workspace.getConfiguration('cloudbench') as unknown as {
    get: (key: string, fallback?: unknown) => unknown;
    inspect: (key: string) => unknown;
  };
  const original = configuration.get;
  const originalInspect = configuration.inspect;
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(values, key);
  configuration.get = (key: string, fallback?: unknown) => (has(key) ? values[key] : fallback);
  // Scripted values are user settings (settings that decide where tokens go are read from there).
  configuration.inspect = (key: string) => (has(key) ? { key, globalValue: values[key] } : undefined);
  return () => {
    configuration.get = original;
    configuration.inspect = originalInspect;
  };
}

/** src/platform/settings, loaded once the fake is in place. */
export function loadSettingsModule(): typeof SettingsModule {
  return require('../../src/platform/settings') as typeof SettingsModule;
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
