// The account and sandbox commands: start and stop the local sandbox, pick a project, choose a key
// file, sign in, show the logs.
import * as vscode from 'vscode';
import type { CommandTable } from '../../platform/command-table';
import { getLogger, showLogs } from '../../platform/log';
import { chooseKeyFile } from '../shared/key-file';
import type { Services } from '../services';
import { SANDBOX_PROJECT, type SandboxController } from './controller';
import { pickProject } from './project-picker';

const log = getLogger('sandbox');

export interface AccountContext {
  readonly context: vscode.ExtensionContext;
  readonly services: Services;
  readonly controller: SandboxController;
  /** Puts the user's settings back (those the sandbox replaced), saying which ones. */
  restore(why: string): Promise<string[]>;
}

export function showLogsCommand(): void {
  showLogs();
}

/** Starts the sandbox and points the settings at it; a failed start leaves nothing behind. */
export async function startSandbox(ctx: AccountContext): Promise<void> {
  const { controller } = ctx;
  const seed = ctx.services.connection().settings.sandboxSeed;
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
    await ctx.restore('the sandbox did not start');
    throw err;
  }
  await vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', true);
  void vscode.window.showInformationMessage(
    `Cloudbench is using the local sandbox (project ${SANDBOX_PROJECT}, ${seed} data).`,
  );
}

export async function stopSandbox(ctx: AccountContext): Promise<void> {
  ctx.controller.stop();
  const restored = await ctx.restore('Stop Local Sandbox');
  await vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', false);
  void vscode.window.showInformationMessage(
    restored.length
      ? `The local sandbox stopped; your previous settings are back (${restored.join(', ')}).`
      : 'The local sandbox stopped.',
  );
}

export function selectProject(ctx: AccountContext): Promise<unknown> {
  return pickProject(ctx.context, ctx.services);
}

/** Asks for a service-account key file, checks it, and keeps its path. */
export function chooseCredentialsFile(): Promise<void> {
  return chooseKeyFile('credentialsFile');
}

export async function signIn(): Promise<void> {
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
}

export const ACCOUNT_COMMANDS: CommandTable<AccountContext> = {
  'cloudbench.showLogs': showLogsCommand,
  'cloudbench.sandbox.start': startSandbox,
  'cloudbench.sandbox.stop': stopSandbox,
  'cloudbench.selectProject': selectProject,
  'cloudbench.chooseCredentialsFile': chooseCredentialsFile,
  'cloudbench.signIn': signIn,
};
