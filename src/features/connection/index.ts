// "Cloudbench: Check Connection", the connection status item, and the commands the signed-out
// views and failing tree rows offer (choose a key file, use application default credentials,
// run the fix a row suggests).
import * as vscode from 'vscode';
import type { Feature, FeatureStart } from '../../platform/command-table';
import type { Services } from '../services';
import { CONNECTION_COMMANDS, type ConnectionContext } from './commands';
import { REPORT_SCHEME, ReportDocuments } from './report-document';

function activateConnection(context: vscode.ExtensionContext, services: Services): FeatureStart<ConnectionContext> {
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
  const reports = new ReportDocuments();
  context.subscriptions.push(
    services.onDidChangeConnection(() => void updateStatus()),
    reports,
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, reports),
  );
  return { ctx: { services, reports } };
}

/** Check Connection, the credentials choices and the fixes that failing rows offer. */
export const connectionFeature: Feature<ConnectionContext, Services> = {
  name: 'Connection check',
  commands: CONNECTION_COMMANDS,
  activate: activateConnection,
};
