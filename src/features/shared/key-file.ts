// Choosing a service-account key file: for Google Cloud (the signed-out views, the sandbox's
// account commands) or for Google SecOps. The file is checked before its path is kept.
import * as vscode from 'vscode';
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import { CredentialsError, checkCredentialsFile } from '../../core/google/credentials';

/** Asks for a key file, checks it, and keeps its path (never its contents) in the user's `setting`. */
export async function chooseKeyFile(setting: 'credentialsFile' | 'secops.credentialsFile'): Promise<void> {
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
  await vscode.workspace.getConfiguration('cloudbench').update(setting, file.fsPath, vscode.ConfigurationTarget.Global);
}
