// Commands are registered from tables, before any feature starts: every command in package.json
// answers from the first moment, and a feature that failed to start answers its commands with the
// reason instead of VS Code's "command not found".
import * as vscode from 'vscode';
import { safeText, MESSAGE_LIMIT } from '../core/display';
import { commandTitle, reportError } from './commands';
import { showLogs } from './log';

/**
 * A command: a named function of its feature's context (what the feature built when it started)
 * and the arguments VS Code passes (a tree node, a URI, nothing). Handlers check their arguments.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler declares its own argument types
export type CommandHandler<Ctx> = (ctx: Ctx, ...args: any[]) => unknown;

/** A feature's commands by id: the one place that says which function answers which command. */
export type CommandTable<Ctx> = Readonly<Record<string, CommandHandler<Ctx>>>;

/** What a feature hands back when it starts: the context its commands run with, and its shutdown. */
export interface FeatureStart<Ctx> {
  readonly ctx: Ctx;
  /** Work that needs the editor still answering when the window closes (awaited in deactivate()). */
  deactivate?(): Promise<unknown>;
}

/** A feature: its name (as the user sees it in messages), its command table and how it starts. */
export interface Feature<Ctx = unknown, Deps = unknown> {
  readonly name: string;
  readonly commands: CommandTable<Ctx>;
  activate(context: vscode.ExtensionContext, deps: Deps): FeatureStart<Ctx>;
}

/** A feature whose context type doesn't matter to the caller (the table of all features). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a feature's context is its own business
export type AnyFeature<Deps> = Feature<any, Deps>;

type Slot =
  | { readonly state: 'starting' }
  | { readonly state: 'ready'; readonly ctx: unknown }
  | { readonly state: 'failed'; readonly reason: string };

/** The commands of one feature, waiting for it to start. */
export interface FeatureCommands<Ctx> {
  /** The feature started: its commands run with `ctx` from now on. */
  ready(ctx: Ctx): void;
  /** The feature could not start: its commands say so, naming `reason`. */
  failed(reason: string): void;
}

/** Registers command tables with VS Code and routes each call to its feature's context. */
export class CommandRegistry {
  private readonly owners = new Map<string, string>();

  constructor(private readonly context: vscode.ExtensionContext) {}

  /** Every command id registered so far, with the feature that answers it. */
  get registered(): ReadonlyMap<string, string> {
    return this.owners;
  }

  /**
   * Registers every command of `table` now. Until ready() they answer that the feature is still
   * starting; after failed() they answer with the failure.
   */
  declare<Ctx>(feature: string, table: CommandTable<Ctx>): FeatureCommands<Ctx> {
    let slot: Slot = { state: 'starting' };
    for (const [id, handler] of Object.entries(table)) {
      const owner = this.owners.get(id);
      if (owner !== undefined) throw new Error(`${id} is in the command tables of both ${owner} and ${feature}`);
      this.owners.set(id, feature);
      const title = commandTitle(this.context, id);
      const disposable = vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        if (slot.state !== 'ready') return unavailable(feature, title, slot);
        const ctx = slot.ctx as Ctx;
        const attempt = async (): Promise<unknown> => {
          try {
            return await handler(ctx, ...args);
          } catch (err) {
            // Retry (after the retry policy gave up) runs the command again with the same arguments.
            await reportError(title, err, attempt);
            return undefined;
          }
        };
        return attempt();
      });
      this.context.subscriptions.push(disposable);
    }
    return {
      ready: (ctx) => {
        slot = { state: 'ready', ctx };
      },
      failed: (reason) => {
        slot = { state: 'failed', reason };
      },
    };
  }
}

async function unavailable(feature: string, title: string, slot: Slot): Promise<undefined> {
  const text =
    slot.state === 'failed'
      ? `${title}: ${feature} could not start (${safeText(slot.reason, 'plain', MESSAGE_LIMIT)}). Reload the window after fixing it; the log has the details.`
      : `${title}: ${feature} is still starting. Try again in a moment.`;
  const choice = await vscode.window.showErrorMessage(text, 'Show Logs');
  if (choice === 'Show Logs') showLogs();
  return undefined;
}
