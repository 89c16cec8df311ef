// Cold-start probe for Cloudbench's own Model Registry client (bundled by bench/models.mjs as the
// extension ships it): load the client, make one GetModel call, print the time since process start
// and the time Node spent before this script ran (its bootstrap, equal for every client).
const bootstrapMs = performance.now();
import { ModelRegistryClient } from '../src/core/models/client';
import type { TokenSource } from '../src/core/google/credentials';

// The sandbox accepts any bearer token; a literal source keeps google-auth-library (which the
// client does not need for loopback endpoints) out of the measurement, as in the extension once
// credentials are resolved.
const sandboxTokens: TokenSource = { kind: 'sandbox', getAccessToken: async () => 'cloudbench-sandbox' };

async function main(): Promise<void> {
  const [endpoint, name] = process.argv.slice(2) as [string, string];
  const client = new ModelRegistryClient({ tokenSource: sandboxTokens, endpoint: { apiEndpoint: endpoint } });
  const model = await client.getModel({ name });
  const ms = performance.now();
  if (!model.name) throw new Error('GetModel answered without a name');
  process.stdout.write(`COLDSTART ${ms} BOOTSTRAP ${bootstrapMs}\n`);
  client.close();
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err) + '\n');
  process.exit(1);
});
