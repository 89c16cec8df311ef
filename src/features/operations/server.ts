// The operations the services report for the project (ListOperations per location), whoever started
// them: gcloud, a pipeline, CI, another window. A feature registers a source (Models does); the
// Operations view shows what the sources list beside the operations started here (one row per
// operation name), refreshes on demand and every few seconds while any listed one runs. Following
// one hands it to the one operation runner, by name.
import * as vscode from 'vscode';
import { describeError } from '../../core/google/errors';
import { getLogger } from '../../platform/log';
import type { OperationFollower } from './runner';

const log = getLogger('operations');

/** How often the list is read again while one of its operations runs. */
export const SERVER_REFRESH_MS = 5000;
/** The list stops refreshing by itself after this long without a user action (a stuck operation). */
const AUTO_REFRESH_LIMIT_MS = 30 * 60 * 1000;

export type ServerOperationState = 'running' | 'succeeded' | 'failed' | 'cancelled';

/** One operation as a source lists it (already checked: names and texts are the server's, shown as text). */
export interface ServerOperationInfo {
  name: string;
  /** "Copy model" */
  title: string;
  resource: string;
  /** The feature's kind, for following it ("copy"); undefined: it can be listed but not followed. */
  kind: string | undefined;
  state: ServerOperationState;
  started: Date | undefined;
  updated: Date | undefined;
  /** The error of a failed one. */
  error: string | undefined;
  /** What a finished one made (a model), for Open Result. */
  result: string | undefined;
}

export interface ServerOperationsSource {
  /** "models": the feature, as in OperationRun.source. */
  readonly source: string;
  /** The project's current operations; `problems`: locations that could not be read, in words. */
  list(signal: AbortSignal): Promise<{ operations: ServerOperationInfo[]; problems: string[] }>;
  /** How the runner follows one of them, by name, through the current client. */
  follower(op: ServerOperationInfo): OperationFollower;
  /** Shows what a finished operation made (reveals the model, opens its details). */
  openResult?(op: ServerOperationInfo): Promise<void>;
}

export interface ListedOperation extends ServerOperationInfo {
  readonly source: string;
}

export class ServerOperations implements vscode.Disposable {
  private readonly sources: ServerOperationsSource[] = [];
  private listed: ListedOperation[] = [];
  private problemTexts: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private lastAsked = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** When the list was last read (undefined: never). */
  readAt: Date | undefined;

  register(source: ServerOperationsSource): vscode.Disposable {
    this.sources.push(source);
    return { dispose: () => this.sources.splice(this.sources.indexOf(source), 1) };
  }

  sourceOf(op: ListedOperation): ServerOperationsSource | undefined {
    return this.sources.find((s) => s.source === op.source);
  }

  list(): readonly ListedOperation[] {
    return this.listed;
  }

  problems(): readonly string[] {
    return this.problemTexts;
  }

  get(name: string): ListedOperation | undefined {
    return this.listed.find((o) => o.name === name);
  }

  /** Reads every source again (one read at a time; a second caller waits for the same). */
  refresh(byUser = true): Promise<void> {
    if (byUser) this.lastAsked = Date.now();
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async read(): Promise<void> {
    this.abort = new AbortController();
    const signal = this.abort.signal;
    const listed: ListedOperation[] = [];
    const problems: string[] = [];
    for (const source of this.sources) {
      try {
        const answer = await source.list(signal);
        listed.push(...answer.operations.map((o) => ({ ...o, source: source.source })));
        problems.push(...answer.problems);
      } catch (err) {
        if (signal.aborted) return;
        problems.push(`${source.source}: ${describeError(err)}`);
      }
    }
    const seen = new Set<string>();
    this.listed = listed
      .filter((o) => !seen.has(o.name) && seen.add(o.name))
      .sort((a, b) => (b.started?.getTime() ?? 0) - (a.started?.getTime() ?? 0));
    this.problemTexts = problems;
    this.readAt = new Date();
    if (problems.length) log.info(`server operations: ${problems.join('; ')}`);
    this.changed.fire();
    this.schedule();
  }

  /** While a listed operation runs, the list is read again every few seconds (for a while). */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const running = this.listed.some((o) => o.state === 'running');
    if (!running || Date.now() - this.lastAsked > AUTO_REFRESH_LIMIT_MS) return;
    this.timer = setTimeout(() => void this.refresh(false), SERVER_REFRESH_MS);
    this.timer.unref?.();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.abort?.abort();
    this.changed.dispose();
  }
}
