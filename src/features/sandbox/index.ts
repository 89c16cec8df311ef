// The built-in local sandbox, started from the editor, and the account commands around it:
// project picker, credentials file, sign-in help, and the signed-in context key the welcome views use.
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { checkCredentialsFile, CredentialsError } from '../../core/google/credentials';
import { isLoopbackEndpoint } from '../../core/loopback';
import { registerCommand } from '../../platform/commands';
import { getLogger, showLogs } from '../../platform/log';
import type { Services } from '../services';
import { SANDBOX_PROJECT, SandboxController } from './controller';
import { pickProject } from './project-picker';

const log = getLogger('sandbox');
export { SANDBOX_PROJECT };

/**
 * Decides whether Cloudbench is signed in: at once on the sandbox, otherwise after looking for
 * Google credentials and getting a token. Until then the views show their loading state; "not
 * signed in" only once the credentials were looked for and not found.
 */
async function updateSignedIn(services: Services, generation: () => number): Promise<void> {
  const mine = generation();
  const connection = services.connection();
  if (connection.sandbox) {
    services.setSignedIn(true);
    return;
  }
  services.setSignedIn(undefined);
  let signedIn = false;
  try {
    const endpoint = connection.endpoint('models') ?? connection.endpoint('apiKeys');
    // Only whether a token can be had matters here; it is sent nowhere, so a universe host is named.
    const probe =
      endpoint && isLoopbackEndpoint(endpoint) ? endpoint : `https://oauth2.${connection.tokenPolicy.universeDomain}`;
    await connection.cloudTokens(endpoint).getAccessToken(probe, AbortSignal.timeout(15_000));
    signedIn = true;
  } catch (err) {
    log.info(`no usable credentials: ${(err as Error).message}`);
  }
  // A newer check (the settings changed again meanwhile) decides instead.
  if (mine === generation()) services.setSignedIn(signedIn);
}

/** What the extension does when the window closes: stop the sandbox and put the settings back. */
export interface Deactivation {
  deactivate(): Promise<unknown>;
}

export function activateAccount(context: vscode.ExtensionContext, services: Services): Deactivation {
  const controller = new SandboxController(context);
  context.subscriptions.push(controller);
  void vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', false);
  let checks = 0;
  const check = (): void => {
    checks++;
    void updateSignedIn(services, () => checks);
  };
  check();
  context.subscriptions.push(
    services.onDidChangeSettings((change) => {
      if (change.credentials) check();
    }),
  );

  /** Puts the user's settings back, saying which ones. */
  const restore = async (why: string): Promise<string[]> => {
    services.expectUnset(controller.keysUnsetByRestore());
    const restored = await controller.restoreSettings();
    if (restored.length) log.info(`${why}: restored ${restored.join(', ')}`);
    return restored;
  };

  // The previous window ended while its sandbox ran (a crash, a killed editor): that sandbox is gone,
  // so the settings pointing at it are put back now.
  if (controller.hasSavedSettings()) void restore('the sandbox of an earlier session is gone');

  context.subscriptions.push(
    controller.onDidExitUnexpectedly(async ({ code, signal }) => {
      await restore('the sandbox exited');
      await vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', false);
      const choice = await vscode.window.showWarningMessage(
        `The local sandbox stopped unexpectedly (${signal ?? `exit code ${code}`}); your previous settings are back.`,
        'Start Again',
        'Show Logs',
      );
      if (choice === 'Start Again') await vscode.commands.executeCommand('cloudbench.sandbox.start');
      else if (choice === 'Show Logs') showLogs();
    }),
  );

  registerCommand(context, 'cloudbench.showLogs', () => showLogs());

  registerCommand(context, 'cloudbench.sandbox.start', async () => {
    const seed = services.connection().settings.sandboxSeed;
    try {
      const ready = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Starting the local sandbox', cancellable: true },
        async (_progress, token) => {
          const abort = new AbortController();
          const cancelled = token.onCancellationRequested(() => abort.abort());
          try {
            return await controller.start(seed, abort.signal);
          } finally {
            cancelled.dispose();
          }
        },
      );
      await controller.applySettings(ready);
      log.info(`sandbox ready: gRPC ${ready.grpc}, HTTP ${ready.http}`);
    } catch (err) {
      // Nothing of a failed start stays behind: no process, and every setting as the user had it.
      controller.stop();
      await restore('the sandbox did not start');
      throw err;
    }
    await vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', true);
    void vscode.window.showInformationMessage(
      `Cloudbench is using the local sandbox (project ${SANDBOX_PROJECT}, ${seed} data).`,
    );
  });

  registerCommand(context, 'cloudbench.sandbox.stop', async () => {
    controller.stop();
    const restored = await restore('Stop Local Sandbox');
    await vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', false);
    void vscode.window.showInformationMessage(
      restored.length
        ? `The local sandbox stopped; your previous settings are back (${restored.join(', ')}).`
        : 'The local sandbox stopped.',
    );
  });

  registerCommand(context, 'cloudbench.selectProject', () => pickProject(context, services));

  registerCommand(context, 'cloudbench.chooseCredentialsFile', async () => {
    const picked = await vscode.window.showOpenDialog({
      title: 'Choose a service-account key file',
      canSelectMany: false,
      filters: { 'JSON key file': ['json'] },
      openLabel: 'Use Key File',
    });
    const file = picked?.[0];
    if (!file) return;
    try {
      await checkCredentialsFile(file.fsPath);
    } catch (err) {
      if (err instanceof CredentialsError) {
        void vscode.window.showErrorMessage(safeText(err.message, 'plain', MESSAGE_LIMIT));
        return;
      }
      throw err;
    }
    // The setting keeps the path only; the file's contents are never copied.
    await vscode.workspace
      .getConfiguration('cloudbench')
      .update('credentialsFile', file.fsPath, vscode.ConfigurationTarget.Global);
  });

  registerCommand(context, 'cloudbench.signIn', async () => {
    const choice = await vscode.window.showInformationMessage(
      'Cloudbench uses application default credentials. Run `gcloud auth application-default login` in a terminal, then refresh.',
      'Open Terminal',
      'Choose Key File Instead',
    );
    if (choice === 'Open Terminal') {
      const terminal = vscode.window.createTerminal('gcloud sign-in');
      terminal.show();
      terminal.sendText('gcloud auth application-default login', false);
    } else if (choice === 'Choose Key File Instead') {
      await vscode.commands.executeCommand('cloudbench.chooseCredentialsFile');
    }
  });

  return {
    deactivate: async () => {
      if (!controller.hasSavedSettings()) return;
      controller.stop();
      await restore('the window closed');
    },
  };
}
