// The local sandbox process the editor starts, and the settings "Start Local Sandbox" points at it.
// Every setting it changes is remembered with the user's own value (in global state, so a crash or
// a closed window does not lose them) and put back when the sandbox stops, fails to start, exits on
// its own, or the window closes; a setting the user changed meanwhile is left as the user set it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import { getLogger } from '../../platform/log';

const log = getLogger('sandbox');
export const SANDBOX_PROJECT = 'cloudbench-demo';
const SAVED_STATE = 'cloudbench.sandbox.savedSettings';

export interface ReadyLine {
  grpc: string;
  http: string;
}

/** One changed setting: the user's value before the sandbox and the value the sandbox put there. */
interface SavedSetting {
  before: unknown;
  applied: unknown;
}
type SavedSettings = Record<string, SavedSetting>;

export function parseReadyLine(line: string): ReadyLine | undefined {
  try {
    const value = JSON.parse(line) as Partial<ReadyLine>;
    if (typeof value.grpc === 'string' && typeof value.http === 'string') return { grpc: value.grpc, http: value.http };
  } catch {
    // Not the ready line.
  }
  return undefined;
}

/** The settings the sandbox needs, by key under cloudbench. */
export function sandboxSettings(ready: ReadyLine): Record<string, string> {
  return {
    'endpoints.models': ready.grpc,
    'endpoints.apiKeys': ready.http,
    'endpoints.secops': ready.http,
    'endpoints.resourceManager': ready.http,
    project: SANDBOX_PROJECT,
  };
}

export class SandboxController implements vscode.Disposable {
  private child: ChildProcess | undefined;
  private readonly exited = new vscode.EventEmitter<{ code: number | null; signal: string | null }>();
  /** The sandbox process ended without Stop (a crash, a kill from outside). */
  readonly onDidExitUnexpectedly = this.exited.event;

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
    let ready = false;
    child.on('exit', (code, sig) => {
      log.info(`sandbox exited (${sig ?? code})`);
      if (this.child !== child) return;
      this.child = undefined;
      void vscode.commands.executeCommand('setContext', 'cloudbench.sandboxRunning', false);
      if (ready) this.exited.fire({ code, signal: sig });
    });
    try {
      const line = await new Promise<ReadyLine>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout });
        const fail = (err: Error): void => {
          lines.close();
          reject(err);
        };
        lines.on('line', (text) => {
          const parsed = parseReadyLine(text);
          if (parsed) {
            lines.close();
            resolve(parsed);
          } else {
            log.info(text);
          }
        });
        child.once('error', (err) => fail(new Error(`The local sandbox could not start: ${err.message}`)));
        child.once('exit', (code) =>
          fail(new Error(`The local sandbox stopped before it was ready (exit code ${code}). See the logs.`)),
        );
        signal.addEventListener('abort', () => fail(new Error('Cancelled')), { once: true });
      });
      ready = true;
      return line;
    } catch (err) {
      this.stop();
      throw err;
    }
  }

  stop(): void {
    const child = this.child;
    this.child = undefined;
    child?.kill('SIGTERM');
  }

  /** Points the settings at the sandbox, remembering the user's values (kept from an earlier run that never restored). */
  async applySettings(ready: ReadyLine): Promise<void> {
    const config = vscode.workspace.getConfiguration('cloudbench');
    const earlier = this.saved();
    const saved: SavedSettings = {};
    for (const [key, value] of Object.entries(sandboxSettings(ready)))
      saved[key] = { before: earlier[key]?.before ?? config.inspect(key)?.globalValue, applied: value };
    // Saved first: a crash half-way through still knows what to put back.
    await this.context.globalState.update(SAVED_STATE, saved);
    for (const [key, value] of Object.entries(sandboxSettings(ready)))
      await config.update(key, value, vscode.ConfigurationTarget.Global);
  }

  /** Keys whose restore unsets them (the user had no value): their disappearance is expected. */
  keysUnsetByRestore(): string[] {
    return Object.entries(this.saved())
      .filter(([, s]) => s.before === undefined)
      .map(([key]) => `cloudbench.${key}`);
  }

  /** Puts back every setting the sandbox changed that still holds the sandbox's value. */
  async restoreSettings(): Promise<string[]> {
    const saved = this.saved();
    const config = vscode.workspace.getConfiguration('cloudbench');
    const restored: string[] = [];
    for (const [key, { before, applied }] of Object.entries(saved)) {
      // A value the user set meanwhile is theirs now.
      if (JSON.stringify(config.inspect(key)?.globalValue) !== JSON.stringify(applied)) continue;
      // The target follows the setting's scope: machine settings go to the remote machine's
      // settings in a remote window, the others to User settings, as VS Code routes Global.
      await config.update(key, before, vscode.ConfigurationTarget.Global);
      restored.push(`cloudbench.${key}`);
    }
    await this.context.globalState.update(SAVED_STATE, undefined);
    return restored;
  }

  hasSavedSettings(): boolean {
    return Object.keys(this.saved()).length > 0;
  }

  private saved(): SavedSettings {
    const value = this.context.globalState.get<unknown>(SAVED_STATE);
    if (!value || typeof value !== 'object') return {};
    const out: SavedSettings = {};
    for (const [key, entry] of Object.entries(value as Record<string, unknown>))
      if (entry && typeof entry === 'object' && 'applied' in entry) out[key] = entry as SavedSetting;
    return out;
  }

  dispose(): void {
    this.stop();
    this.exited.dispose();
  }
}
