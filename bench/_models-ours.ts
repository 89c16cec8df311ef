// Cold-start probe for Cloudbench's own Model Registry client, loaded the way the extension loads it:
// bench/models.mjs bundles this probe (it stands for dist/extension.js, where the loader and the
// shared modules live) and builds dist/models-client.js as `npm run package` does; a two-line entry
// script notes Node's bootstrap time and requires the probe. run() loads the client bundle through
// bundle-host (with the V8 code cache in the folder given, cold or warm), makes one GetModel call,
// prints the time since process start, then writes the code cache as the extension does after a first call.
import { configureModelsBundle, loadModelsBundle, persistModelsBundleCache } from '../src/core/models/bundle-host';
import type { TokenSource } from '../src/core/google/credentials';

// The sandbox accepts any bearer token; a literal source keeps google-auth-library (which the
// client does not need for loopback endpoints) out of the measurement.
const sandboxTokens: TokenSource = { kind: 'sandbox', getAccessToken: async () => 'cloudbench-sandbox' };

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export async function run(bootstrapMs: number, bootstrapCpuMs: number): Promise<void> {
  const [endpoint, name, bundleDir, cacheDir] = process.argv.slice(2) as [string, string, string, string];
  try {
    configureModelsBundle({ dir: bundleDir, cacheDir: cacheDir || undefined });
    const bundle = loadModelsBundle();
    const client = new bundle.exports.client.ModelRegistryClient({
      tokenSource: sandboxTokens,
      endpoint: { apiEndpoint: endpoint },
    });
    const model = await client.getModel({ name });
    const ms = performance.now();
    const cpu = cpuMs();
    if (!model.name) throw new Error('GetModel answered without a name');
    client.close();
    persistModelsBundleCache();
    process.stdout.write(
      `COLDSTART ${ms} BOOTSTRAP ${bootstrapMs} CPU ${cpu} BOOTCPU ${bootstrapCpuMs} CACHE ${bundle.cache}\n`,
    );
  } catch (err) {
    process.stderr.write(String((err as Error)?.stack ?? err) + '\n');
    process.exit(1);
  }
}
