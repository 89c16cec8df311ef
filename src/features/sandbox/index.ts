// The built-in local sandbox, started from the editor, and the account commands around it:
// project picker, credentials file, sign-in help, and the signed-in context key the welcome views use.
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import { checkCredentialsFile, CredentialsError } from '../../core/google/credentials';
import { isLoopbackEndpoint } from '../../core/loopback';
import { registerCommand } from '../../platform/commands';
import { getLogger, showLogs } from '../../platform/log';
import type { Services } from '../services';

const log = getLogger('sandbox');
export const SANDBOX_PROJECT = 'cloudbench-demo';
const ENDPOINT_KEYS = ['endpoints.models', 'endpoints.apiKeys', 'endpoints.secops'] as const;
const SAVED_STATE = 'cloudbench.sandbox.savedSettings';

interface ReadyLine {
  grpc: string;
  http: string;
}

function parseReadyLine(line: string): ReadyLine | undefined {
  try {
    const value = JSON.parse(line) as Partial<ReadyLine>;
    if (typeof value.grpc === 'string' && typeof value.http === 'string') return { grpc: value.grpc, http: value.http };
  } catch {
    // Not the ready line.
  }
  return undefined;
}

class SandboxController implements vscode.Disposable {
  private child: ChildProcess | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  async start(seed: 'demo' | 'empty', signal: AbortSignal): Promise<ReadyLine> {
    if (this.child) throw new Error('The local sandbox is already running.');
    const script = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'emulator.js').fsPath;
    const child = spawn(process.execPath, [script, '--seed', seed, '--host', '127.0.0.1'], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    createInterface({ input: child.stderr }).on('line', (line) => log.warn(line));
    child.on('exit', (code, sig) => {
      log.info(`sandbox exited (${sig ?? code})`);
      if (this.child === child) {
        this.child = undefined;
        void vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', false);
      }
    });
    const ready = await new Promise<ReadyLine>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      const fail = (err: Error): void => {
        lines.close();
        reject(err);
      };
      lines.on('line', (line) => {
        const parsed = parseReadyLine(line);
        if (parsed) {
          lines.close();
          resolve(parsed);
        } else {
          log.info(line);
        }
      });
      child.once('error', (err) => fail(new Error(`The local sandbox could not start: ${err.message}`)));
      child.once('exit', (code) =>
        fail(new Error(`The local sandbox stopped before it was ready (exit code ${code}). See the logs.`)),
      );
      signal.addEventListener(
        'abort',
        () => {
          child.kill();
          fail(new Error('Cancelled'));
        },
        { once: true },
      );
    });
    return ready;
  }

  stop(): void {
    this.child?.kill('SIGTERM');
    this.child = undefined;
  }

  dispose(): void {
    this.stop();
  }
}

async function pointSettingsAtSandbox(context: vscode.ExtensionContext, ready: ReadyLine): Promise<void> {
  const config = vscode.workspace.getConfiguration('cloudbench');
  const saved: Record<string, unknown> = {};
  for (const key of [...ENDPOINT_KEYS, 'project']) saved[key] = config.inspect(key)?.globalValue;
  await context.globalState.update(SAVED_STATE, saved);
  await config.update('endpoints.models', ready.grpc, vscode.ConfigurationTarget.Global);
  await config.update('endpoints.apiKeys', ready.http, vscode.ConfigurationTarget.Global);
  await config.update('endpoints.secops', ready.http, vscode.ConfigurationTarget.Global);
  await config.update('project', SANDBOX_PROJECT, vscode.ConfigurationTarget.Global);
}

async function restoreSettings(context: vscode.ExtensionContext): Promise<void> {
  const saved = context.globalState.get<Record<string, unknown>>(SAVED_STATE);
  if (!saved) return;
  const config = vscode.workspace.getConfiguration('cloudbench');
  for (const [key, value] of Object.entries(saved)) await config.update(key, value, vscode.ConfigurationTarget.Global);
  await context.globalState.update(SAVED_STATE, undefined);
}

/** Sets `cloudbench.signedIn`: true on the sandbox, otherwise whether Google credentials give a token. */
async function updateSignedIn(services: Services): Promise<void> {
  const connection = services.connection();
  let signedIn = connection.sandbox;
  if (!signedIn) {
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
  }
  await vscode.commands.executeCommand('setContext', 'cloudbench.signedIn', signedIn);
  services.setSignedIn(signedIn);
}

export function activateAccount(context: vscode.ExtensionContext, services: Services): void {
  const controller = new SandboxController(context);
  context.subscriptions.push(controller);
  void vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', false);
  void updateSignedIn(services);
  context.subscriptions.push(services.onDidChangeConnection(() => void updateSignedIn(services)));

  registerCommand(context, 'cloudbench.showLogs', () => showLogs());

  registerCommand(context, 'cloudbench.sandbox.start', async () => {
    const seed = services.connection().settings.sandboxSeed;
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
    await pointSettingsAtSandbox(context, ready);
    await vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', true);
    log.info(`sandbox ready: gRPC ${ready.grpc}, HTTP ${ready.http}`);
    void vscode.window.showInformationMessage(
      `Cloudbench is using the local sandbox (project ${SANDBOX_PROJECT}, ${seed} data).`,
    );
  });

  registerCommand(context, 'cloudbench.sandbox.stop', async () => {
    controller.stop();
    await restoreSettings(context);
    await vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', false);
    void vscode.window.showInformationMessage('The local sandbox stopped; your previous endpoint settings are back.');
  });

  registerCommand(context, 'cloudbench.selectProject', async () => {
    const current = services.connection().project ?? '';
    const project = await vscode.window.showInputBox({
      title: 'Google Cloud project',
      prompt: 'Project ID or number whose models and API keys Cloudbench shows',
      value: current || (services.connection().sandbox ? SANDBOX_PROJECT : ''),
      ignoreFocusOut: true,
      validateInput: (v) =>
        /^([a-z][a-z0-9-]{4,28}[a-z0-9]|[0-9]{1,20})$/.test(v.trim())
          ? undefined
          : 'A project ID has 6-30 lower-case letters, digits or hyphens and starts with a letter; a project number has only digits.',
    });
    if (project === undefined) return;
    await vscode.workspace
      .getConfiguration('cloudbench')
      .update('project', project.trim(), vscode.ConfigurationTarget.Global);
  });

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
}
