// "Cloudbench: Check Connection", the connection status item, and the commands the signed-out
// views and failing tree rows offer (choose a key file, use application default credentials,
// run the fix a row suggests).
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { ApiKeysClient } from '../../core/apikeys/client';
import {
  ADC_LOGIN_COMMAND,
  CredentialsError,
  checkCredentialsFile,
  configuredUniverse,
  type CredentialFix,
} from '../../core/google/credentials';
import { planEndpoint, type EndpointPlan } from '../../core/google/endpoints';
import type { ModelRegistryClient } from '../../core/models/client';
import { SecOpsClient } from '../../core/secops/client';
import { registerCommand, runFix } from '../../platform/commands';
import { getLogger } from '../../platform/log';
import type { Connection, Services } from '../services';
import { formatConnectionReport, proxyForReport, runConnectionCheck, type ServiceProbe } from './check';

const log = getLogger('connection');

/** Why calls go where they go, and whether the client certificate is presented there. */
function endpointWhy(plan: EndpointPlan): string {
  if (plan.certSource) return `${plan.reason}, with the client certificate`;
  if (plan.mtls) return `${plan.reason}, no client certificate (cloudbench.mtls.clientCertificate)`;
  return plan.reason;
}

/** The three probes for the current settings, built from the same pieces the features use. */
export function connectionProbes(connection: Connection): ServiceProbe[] {
  const s = connection.settings;
  const project = connection.project;
  const location = s.locations[0];
  const noProject = (): never => {
    throw new Error('No project is set: run "Cloudbench: Select Project…" (cloudbench.project).');
  };
  const models: ServiceProbe = {
    service: 'models',
    title: 'Vertex AI Model Registry',
    endpoint: () => {
      const plan = planEndpoint({ ...connection.modelsEndpointOptions(), ...(location ? { location } : {}) });
      return Promise.resolve({ address: plan.address, why: endpointWhy(plan) });
    },
    destination: () => {
      const plan = planEndpoint({ ...connection.modelsEndpointOptions(), ...(location ? { location } : {}) });
      return Promise.resolve(`${plan.plaintext ? 'http' : 'https'}://${plan.address}`);
    },
    tokens: () => connection.cloudTokens(connection.endpoint('models')),
    call: {
      name: location ? `ListModels (${location}, 1 item)` : 'ListLocations',
      run: async (signal) => {
        const p = project ?? noProject();
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const lib = require('../../core/models/client') as { ModelRegistryClient: typeof ModelRegistryClient };
        const client = new lib.ModelRegistryClient({
          tokenSource: connection.cloudTokens(connection.endpoint('models')),
          endpoint: connection.modelsEndpointOptions(),
          retry: { maxRetries: 0 },
          timeoutMs: s.timeoutMs,
        });
        try {
          if (location) {
            const page = await client.listModelsPage(
              { parent: `projects/${p}/locations/${location}`, pageSize: 1 },
              { signal },
            );
            return `${page.items.length ? 'models listed' : 'no models'} in ${location}`;
          }
          let count = 0;
          for await (const _ of client.listLocations(p, { signal })) count++;
          return `${count} locations`;
        } finally {
          client.close();
        }
      },
    },
  };
  const apiKeys: ServiceProbe = {
    service: 'apikeys',
    title: 'API Keys',
    endpoint: () => {
      const plan = connection.restEndpoint('apikeys');
      return Promise.resolve({ address: plan.baseUrl, why: endpointWhy(plan) });
    },
    destination: () => Promise.resolve(`${connection.restEndpoint('apikeys').baseUrl}/v2/`),
    tokens: () => connection.cloudTokens(connection.restEndpoint('apikeys').baseUrl),
    call: {
      name: 'ListKeys (1 item)',
      run: async (signal) => {
        const p = project ?? noProject();
        const plan = connection.restEndpoint('apikeys');
        const client = new ApiKeysClient({
          baseUrl: plan.baseUrl,
          tokens: connection.cloudTokens(plan.baseUrl),
          ...(plan.certSource ? { clientCert: plan.certSource } : {}),
          retry: { ...s.retry, maxRetries: 0 },
          timeoutMs: s.timeoutMs,
        });
        const page = await client.listKeys(p, { pageSize: 1, signal });
        return page.items.length ? 'keys listed' : 'no keys';
      },
    },
  };
  const secops: ServiceProbe = {
    service: 'secops',
    title: `Google SecOps Search (${s.secops.region})`,
    endpoint: () => {
      const plan = connection.restEndpoint('secops');
      return Promise.resolve({ address: plan.baseUrl, why: endpointWhy(plan) });
    },
    destination: () => Promise.resolve(`${connection.restEndpoint('secops').baseUrl}/v2/lists`),
    tokens: () => connection.secopsTokens(connection.restEndpoint('secops').baseUrl),
    call: {
      // A list call, so the hourly udmSearch budget is not spent.
      name: 'ListReferenceLists (1 item)',
      run: async (signal) => {
        const plan = connection.restEndpoint('secops');
        const client = new SecOpsClient({
          baseUrl: plan.baseUrl,
          tokens: connection.secopsTokens(plan.baseUrl),
          ...(plan.certSource ? { clientCert: plan.certSource } : {}),
          retry: { ...s.retry, maxRetries: 0 },
          timeoutMs: s.timeoutMs,
        });
        const page = await client.listReferenceLists({ pageSize: 1 }, signal);
        return page.lists.length ? 'reference lists listed' : 'no reference lists';
      },
    },
  };
  return [models, apiKeys, secops];
}

/** Runs the check for the current settings and returns the Markdown report. */
export async function checkConnection(connection: Connection, signal?: AbortSignal): Promise<string> {
  const checks = await runConnectionCheck(connectionProbes(connection), {
    // Longer than each call's own deadline, so a slow call ends as that call's DEADLINE_EXCEEDED.
    timeoutMs: connection.settings.timeoutMs + 5_000,
    ...(signal ? { signal } : {}),
  });
  for (const c of checks) log.info(`check ${c.service}: ${c.call.ok ? 'ok' : 'failed'}`);
  return formatConnectionReport(checks, {
    ...(connection.project ? { project: connection.project } : {}),
    universeDomain: configuredUniverse(connection.settings.universeDomain),
    ...(proxyForReport() ? { proxy: proxyForReport()! } : {}),
  });
}

async function chooseKeyFile(setting: 'credentialsFile' | 'secops.credentialsFile'): Promise<void> {
  const secops = setting === 'secops.credentialsFile';
  const picked = await vscode.window.showOpenDialog({
    title: secops ? 'Choose the service-account key file Google SecOps gave you' : 'Choose a service-account key file',
    canSelectMany: false,
    filters: { 'JSON key file': ['json'] },
    openLabel: 'Use Key File',
  });
  const file = picked?.[0];
  if (!file) return;
  try {
    await checkCredentialsFile(file.fsPath, `cloudbench.${setting}`);
  } catch (err) {
    if (err instanceof CredentialsError) {
      void vscode.window.showErrorMessage(safeText(err.message, 'plain', MESSAGE_LIMIT));
      return;
    }
    throw err;
  }
  // The setting keeps the path only; the file's contents are never copied.
  await vscode.workspace.getConfiguration('cloudbench').update(setting, file.fsPath, vscode.ConfigurationTarget.Global);
}

export function activateConnection(context: vscode.ExtensionContext, services: Services): void {
  const status = vscode.window.createStatusBarItem('cloudbench.connection', vscode.StatusBarAlignment.Left, 10);
  status.name = 'Cloudbench Connection';
  status.command = 'cloudbench.checkConnection';
  context.subscriptions.push(status);

  let generation = 0;
  const updateStatus = async (): Promise<void> => {
    const mine = ++generation;
    const connection = services.connection();
    const project = connection.project ?? 'no project';
    // The sandbox says so in the status bar: its data is not the cloud's.
    status.text = connection.sandbox ? `$(beaker) Sandbox: ${project}` : `$(cloud) ${project}`;
    status.accessibilityInformation = {
      label: connection.sandbox
        ? `Cloudbench uses the local sandbox, project ${project}`
        : `Cloudbench uses Google Cloud, project ${project}`,
    };
    const lines = [`Cloudbench: ${connection.sandbox ? 'local sandbox' : 'Google Cloud'}`];
    if (connection.sandbox)
      lines.push(
        `Vertex AI: ${connection.settings.endpoints.models ?? ''}`,
        `API Keys and SecOps: ${connection.settings.endpoints.apiKeys ?? ''}`,
      );
    if (!connection.sandbox) {
      try {
        const info = await connection.cloudTokens(undefined).describe?.();
        if (info) {
          lines.push(`Credentials: ${info.type.replace(/_/g, ' ')}${info.account ? ` ${info.account}` : ''}`);
          if (info.accountSource === 'gcloud-config') lines.push("Account: gcloud's active account");
          lines.push(`From: ${info.origin.label}`);
          lines.push(`Universe: ${info.universeDomain}`);
          lines.push(`Quota project: ${info.quotaProject ?? 'none'}`);
        }
      } catch (err) {
        lines.push(`Credentials: ${(err as Error).message}`);
      }
    }
    lines.push('', 'Click to check the connection.');
    if (mine !== generation) return;
    status.tooltip = lines.join('\n');
    status.show();
  };
  void updateStatus();
  context.subscriptions.push(services.onDidChangeConnection(() => void updateStatus()));

  registerCommand(context, 'cloudbench.checkConnection', async () => {
    const report = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'Checking the connection to Google Cloud',
        cancellable: true,
      },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          return await checkConnection(services.connection(), abort.signal);
        } finally {
          sub.dispose();
        }
      },
    );
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: report });
    await vscode.window.showTextDocument(doc, { preview: true });
  });

  registerCommand(context, 'cloudbench.chooseSecOpsCredentialsFile', () => chooseKeyFile('secops.credentialsFile'));

  registerCommand(context, 'cloudbench.useApplicationDefaultCredentials', async () => {
    const config = vscode.workspace.getConfiguration('cloudbench');
    if (config.inspect('credentialsFile')?.globalValue)
      await config.update('credentialsFile', undefined, vscode.ConfigurationTarget.Global);
    const choice = await vscode.window.showInformationMessage(
      `Cloudbench now uses application default credentials. If you have not signed in yet, run \`${ADC_LOGIN_COMMAND}\` in a terminal; Cloudbench notices the new login by itself.`,
      'Open Terminal',
      'Copy Command',
    );
    if (choice === 'Open Terminal') {
      const terminal = vscode.window.createTerminal('gcloud sign-in');
      terminal.show();
      terminal.sendText(ADC_LOGIN_COMMAND, false);
    } else if (choice === 'Copy Command') {
      await vscode.env.clipboard.writeText(ADC_LOGIN_COMMAND);
    }
  });

  // Failing tree rows carry the fix they suggest; this runs it (inline button or click).
  registerCommand(context, 'cloudbench.runFix', async (arg: { fix?: CredentialFix } | CredentialFix | undefined) => {
    const fix = arg && 'fix' in arg ? arg.fix : (arg as CredentialFix | undefined);
    if (fix) await runFix(fix);
  });
}
