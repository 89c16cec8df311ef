// The connection feature's commands: Check Connection, the credential choices of the signed-out
// views, and the fix a failing tree row offers.
import * as vscode from 'vscode';
import { ADC_LOGIN_COMMAND, type CredentialFix } from '../../core/google/credentials';
import type { CommandTable } from '../../platform/command-table';
import { runFix } from '../../platform/commands';
import type { Services } from '../services';
import { chooseKeyFile } from '../shared/key-file';
import { checkConnection } from './probes';
import { showReport, type ReportDocuments } from './report-document';

export interface ConnectionContext {
  readonly services: Services;
  /** The read-only documents Check Connection's reports open in. */
  readonly reports: ReportDocuments;
}

/** Checks each service with one call and opens the report as a read-only Markdown document. */
export async function checkConnectionCommand(ctx: ConnectionContext): Promise<void> {
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
        return await checkConnection(ctx.services.connection(), abort.signal);
      } finally {
        sub.dispose();
      }
    },
  );
  await showReport(ctx.reports.publish('/Connection check.md', report));
}

/** Asks for the service-account key file Google SecOps gave, checks it, and keeps its path. */
export function chooseSecOpsCredentialsFile(): Promise<void> {
  return chooseKeyFile('secops.credentialsFile');
}

/** Drops the key file setting and says how to sign in with gcloud. */
export async function useApplicationDefaultCredentials(): Promise<void> {
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
}

/** Runs the fix a failing tree row carries (its inline button, or a click on the row). */
export async function runRowFix(
  _ctx: ConnectionContext,
  arg: { fix?: CredentialFix } | CredentialFix | undefined,
): Promise<void> {
  const fix = arg && 'fix' in arg ? arg.fix : (arg as CredentialFix | undefined);
  if (fix) await runFix(fix);
}

export const CONNECTION_COMMANDS: CommandTable<ConnectionContext> = {
  'cloudbench.checkConnection': checkConnectionCommand,
  'cloudbench.chooseSecOpsCredentialsFile': chooseSecOpsCredentialsFile,
  'cloudbench.useApplicationDefaultCredentials': useApplicationDefaultCredentials,
  'cloudbench.runFix': runRowFix,
};
