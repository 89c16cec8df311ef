// Runs in a child process whose environment routes Google's hosts through the test's proxy
// (HTTPS_PROXY) and trusts the test's throw-away CA (NODE_EXTRA_CA_CERTS): the production code
// below is exactly what the extension runs. Prints one JSON line of results.
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import {
  CLOUD_PLATFORM_SCOPE,
  CredentialsError,
  SECOPS_SCOPE,
  googleTokenSource,
  type GoogleTokenOptions,
} from '../../../src/core/google/credentials';
import { apiErrorFixes, describeError } from '../../../src/core/google/errors';
import { planRestEndpoint } from '../../../src/core/google/endpoints';
import type { RetryPolicy } from '../../../src/core/google/retry';
import { TokenPolicy } from '../../../src/core/google/token-policy';
import { SecOpsClient } from '../../../src/core/secops/client';

interface Scenario {
  name: string;
  service: 'apikeys' | 'secops';
  tokens: Omit<GoogleTokenOptions, 'policy' | 'scopes'>;
  region?: string;
  calls?: number;
  proxy?: string;
}

const policy = new TokenPolicy({ universeDomain: () => 'googleapis.com', allowedHosts: () => [] });
const NO_RETRY: RetryPolicy = { maxRetries: 0, initialBackoffMs: 1, maxBackoffMs: 1, multiplier: 2, retryable: [] };

async function run(s: Scenario): Promise<Record<string, unknown>> {
  const saved = process.env['HTTPS_PROXY'];
  if (s.proxy) process.env['HTTPS_PROXY'] = s.proxy;
  try {
    const secops = s.service === 'secops';
    const tokens = googleTokenSource({
      ...s.tokens,
      scopes: [secops ? SECOPS_SCOPE : CLOUD_PLATFORM_SCOPE],
      service: secops ? 'secops' : 'cloud',
      sendQuotaProject: !secops,
      policy,
    });
    const plan = planRestEndpoint(s.service, { ...(s.region ? { region: s.region } : {}), env: {} });
    for (let i = 0; i < (s.calls ?? 1); i++) {
      if (secops) {
        const client = new SecOpsClient({ baseUrl: plan.baseUrl, tokens, retry: NO_RETRY });
        await client.listReferenceLists({ pageSize: 1 });
      } else {
        const client = new ApiKeysClient({ baseUrl: plan.baseUrl, tokens, retry: NO_RETRY });
        await client.listKeys('proj-1', { pageSize: 1 });
      }
    }
    const info = await tokens.describe?.();
    return {
      name: s.name,
      ok: true,
      baseUrl: plan.baseUrl,
      account: info?.account,
      accountSource: info?.accountSource,
    };
  } catch (err) {
    return {
      name: s.name,
      ok: false,
      error: describeError(err),
      problem: err instanceof CredentialsError ? err.problem : undefined,
      fixes: err instanceof CredentialsError ? err.fixes : apiErrorFixes(err),
    };
  } finally {
    if (saved === undefined) delete process.env['HTTPS_PROXY'];
    else process.env['HTTPS_PROXY'] = saved;
  }
}

void (async () => {
  const scenarios = JSON.parse(process.argv[2] ?? '[]') as Scenario[];
  const results = [];
  for (const s of scenarios) results.push(await run(s));
  process.stdout.write(`${JSON.stringify(results)}\n`);
})();
