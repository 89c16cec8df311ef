// Cold-start probe for Cloudbench's own Model Registry client, bundled by bench/models.mjs as the
// extension ships it. A two-line entry script notes Node's bootstrap time, then requires this bundle
// (so parsing the bundle counts as the client's cost) and calls run(): load the client, make one
// GetModel call, print the time since process start.
import { ModelRegistryClient } from '../src/core/models/client';
import type { TokenSource } from '../src/core/google/credentials';

// The sandbox accepts any bearer token; a literal source keeps google-auth-library (which the
// client does not need for loopback endpoints) out of the measurement.
const sandboxTokens: TokenSource = { kind: 'sandbox', getAccessToken: async () => 'cloudbench-sandbox' };

export async function run(bootstrapMs: number): Promise<void> {
  const [endpoint, name] = process.argv.slice(2) as [string, string];
  try {
    const client = new ModelRegistryClient({ tokenSource: sandboxTokens, endpoint: { apiEndpoint: endpoint } });
    const model = await client.getModel({ name });
    const ms = performance.now();
    if (!model.name) throw new Error('GetModel answered without a name');
    process.stdout.write(`COLDSTART ${ms} BOOTSTRAP ${bootstrapMs}\n`);
    client.close();
  } catch (err) {
    process.stderr.write(String((err as Error)?.stack ?? err) + '\n');
    process.exit(1);
  }
}
