// The extension's side of dist/models-client.js (scripts/build.mjs splits it off): loads the bundle on
// first use with a V8 code cache kept in the extension's global storage, and hands it the modules it
// shares with the rest of the extension, so errors and operations it returns are the same classes
// the extension checks with instanceof.
import { join } from 'node:path';
import { loadBundle, type LoadedBundle } from '../bundle-loader';
import * as errors from '../google/errors';
import * as endpoints from '../google/endpoints';
import * as retry from '../google/retry';
import * as lro from '../lro';
import * as names from '../names';
import * as paging from '../paging';
import type * as ClientModule from './client';
import type * as WireModule from './wire';

export interface ModelsBundle {
  client: typeof ClientModule;
  wire: typeof WireModule;
}

/** The modules the bundle requires from the host, by the ids the build gives them ("cloudbench-host:<path under src>"). */
export const HOST_MODULES: Readonly<Record<string, unknown>> = Object.freeze({
  'cloudbench-host:core/google/errors': errors,
  'cloudbench-host:core/google/endpoints': endpoints,
  'cloudbench-host:core/google/retry': retry,
  'cloudbench-host:core/lro': lro,
  'cloudbench-host:core/names': names,
  'cloudbench-host:core/paging': paging,
});

export const MODELS_BUNDLE_FILE = 'models-client.js';

interface Config {
  file: string;
  cacheDir: string | undefined;
  log: ((message: string) => void) | undefined;
}

// In dist/extension.js, __dirname is dist/, where the split bundle sits beside it.
let config: Config = { file: join(__dirname, MODELS_BUNDLE_FILE), cacheDir: undefined, log: undefined };
let loaded: LoadedBundle<ModelsBundle> | undefined;

/**
 * Where the code cache goes (undefined: no cache, the bundle is compiled on each start) and, for the
 * benchmark and tests, which folder holds the bundle (default: the folder of the extension's bundle).
 * Takes effect for the next load.
 */
export function configureModelsBundle(options: {
  dir?: string;
  cacheDir?: string | undefined;
  log?: (message: string) => void;
}): void {
  config = {
    file: options.dir ? join(options.dir, MODELS_BUNDLE_FILE) : config.file,
    cacheDir: options.cacheDir,
    log: options.log,
  };
}

/** The loaded bundle (loaded now if needed). */
export function loadModelsBundle(): LoadedBundle<ModelsBundle> {
  loaded ??= loadBundle<ModelsBundle>({ ...config, host: HOST_MODULES });
  return loaded;
}

export function modelsBundle(): ModelsBundle {
  return loadModelsBundle().exports;
}

/** Writes the code cache after the client's first call (a no-op when it was used, or the bundle is not loaded). */
export function persistModelsBundleCache(): void {
  if (loaded?.persist()) config.log?.(`code cache for ${MODELS_BUNDLE_FILE} written to ${loaded.cacheFile}`);
}
