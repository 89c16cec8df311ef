// The built-in local sandbox, started from the editor, and the account commands around it:
// project picker, credentials file, sign-in help, and the signed-in context key the welcome views use.
import * as vscode from 'vscode';
import { isLoopbackEndpoint } from '../../core/loopback';
import type { Feature, FeatureStart } from '../../platform/command-table';
import { getLogger, showLogs } from '../../platform/log';
import type { Services } from '../services';
import { showSignInProblem, signInProblemOf, type SignInProblem } from '../shared/sign-in-problem';
import { ACCOUNT_COMMANDS, type AccountContext } from './commands';
import { SANDBOX_PROJECT, SandboxController } from './controller';

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
    void showSignInProblem('');
    services.setSignedIn(true);
    return;
  }
  services.setSignedIn(undefined);
  let signedIn = false;
  let problem: SignInProblem = '';
  try {
    const endpoint = connection.endpoint('models') ?? connection.endpoint('apiKeys');
    // Only whether a token can be had matters here; it is sent nowhere, so a universe host is named.
    const probe =
      endpoint && isLoopbackEndpoint(endpoint) ? endpoint : `https://oauth2.${connection.tokenPolicy.universeDomain}`;
    await connection.cloudTokens(endpoint).getAccessToken(probe, AbortSignal.timeout(15_000));
    signedIn = true;
  } catch (err) {
    log.info(`no usable credentials: ${(err as Error).message}`);
    problem = signInProblemOf(err);
  }
  // A newer check (the settings changed again meanwhile) decides instead.
  if (mine !== generation()) return;
  await showSignInProblem(problem);
  if (mine === generation()) services.setSignedIn(signedIn);
}

function activateAccount(context: vscode.ExtensionContext, services: Services): FeatureStart<AccountContext> {
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

  return {
    ctx: { context, services, controller, restore },
    deactivate: async () => {
      if (!controller.hasSavedSettings()) return;
      controller.stop();
      await restore('the window closed');
    },
  };
}

/** The local sandbox, the signed-in state, and the account commands. */
export const accountFeature: Feature<AccountContext, Services> = {
  name: 'Account and sandbox',
  commands: ACCOUNT_COMMANDS,
  activate: activateAccount,
};
