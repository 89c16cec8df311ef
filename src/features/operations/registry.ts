// The operations the user started in this window, from start to end, whatever service runs them.
// Features register an operation with its cancel and stop-waiting actions; the Operations view
// and the progress notifications read the same entries, so either place can act on them.
import * as vscode from 'vscode';
import type { OperationLike } from '../../core/lro';
import { OperationJournal, type JournalEntry } from './journal';
import { announceOutcome, type OperationOutcome } from './outcome';
import { resumeOperations, runOperation, type OperationRun } from './runner';
import { ServerOperations } from './server';

/** `lost`: polling failed, so the outcome is unknown; the operation may still finish on the server. */
export type OperationState = 'running' | 'succeeded' | 'failed' | 'cancelled' | 'detached' | 'lost';

export interface OperationActions {
  /** Asks the server to cancel; resolves with a sentence that explains the outcome. */
  cancel?: () => Promise<string>;
  /** Stops following the operation (it keeps running on the server); resolves with a sentence. */
  stopWaiting?: () => Promise<string>;
  /**
   * Asks the server again (GetOperation through the current client, and the resource's own state
   * where that is cheap) after the outcome became unknown or failed; resolves with a sentence.
   */
  checkAgain?: () => Promise<string>;
}

export interface OperationStart extends OperationActions {
  /** "Copy model churn-model to europe-west4". */
  title: string;
  /** The server's operation name, when known. */
  operationName?: string;
  /** The resource the operation acts on. */
  resource: string;
  /** "models" or "keys": which feature started it. */
  source: string;
  /**
   * The feature tells the user how the operation ended (a toast of its own), so Cancel and Stop
   * Waiting in the Operations view say nothing more than the row: one message per event.
   */
  reportsOutcome?: boolean;
  /** When the operation started, if earlier than now (one followed again after a window reload). */
  started?: Date;
}

export interface TrackedOperation {
  readonly id: number;
  readonly title: string;
  readonly resource: string;
  readonly source: string;
  readonly started: Date;
  operationName: string | undefined;
  state: OperationState;
  /** Latest progress or outcome text. */
  detail: string | undefined;
  /** The outcome in a few words, shown before anything else (the role a refused call needs). */
  brief: string | undefined;
  ended: Date | undefined;
  /** Aborted when the user stops waiting, so the local poll loop ends at once (renewed by reopen). */
  waiting: AbortController;
  readonly actions: OperationActions;
  /** What the last Check Again learnt of the resource itself ("model … exists"). */
  resourceState: string | undefined;
  /** See OperationStart.reportsOutcome. */
  readonly reportsOutcome: boolean;
}

export interface OperationHandle {
  readonly operation: TrackedOperation;
  /** Aborts when the user stops waiting (from the view or elsewhere). */
  readonly signal: AbortSignal;
  setOperationName(name: string): void;
  progress(detail: string): void;
  /**
   * Ends the entry; `detail` replaces the progress text (none: the state says it all), `brief` is
   * what the row shows of it first when the detail is long (see briefError).
   */
  finish(state: Exclude<OperationState, 'running'>, detail?: string, brief?: string): void;
  /** An ended entry runs again: Check Again found the operation still running and follows it anew. */
  reopen(detail?: string): void;
}

export class OperationsRegistry implements vscode.Disposable {
  /** The operations being followed, kept across a window reload (none kept without a memento). */
  readonly journal: OperationJournal;
  /** The operations the services report for the project, whoever started them (see ./server). */
  readonly server = new ServerOperations();
  private readonly entries: TrackedOperation[] = [];
  private nextId = 1;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(memento?: vscode.Memento) {
    this.journal = new OperationJournal(memento);
  }

  list(): readonly TrackedOperation[] {
    return this.entries;
  }

  get(id: number): TrackedOperation | undefined {
    return this.entries.find((e) => e.id === id);
  }

  start(start: OperationStart): OperationHandle {
    const op: TrackedOperation = {
      id: this.nextId++,
      title: start.title,
      resource: start.resource,
      source: start.source,
      started: start.started ?? new Date(),
      operationName: start.operationName,
      state: 'running',
      detail: undefined,
      brief: undefined,
      ended: undefined,
      waiting: new AbortController(),
      reportsOutcome: start.reportsOutcome === true,
      actions: {
        ...(start.cancel ? { cancel: start.cancel } : {}),
        ...(start.stopWaiting ? { stopWaiting: start.stopWaiting } : {}),
        ...(start.checkAgain ? { checkAgain: start.checkAgain } : {}),
      },
      resourceState: undefined,
    };
    this.entries.unshift(op);
    this.changed.fire();
    return {
      operation: op,
      get signal() {
        return op.waiting.signal;
      },
      setOperationName: (name) => {
        op.operationName = name;
        this.changed.fire();
      },
      progress: (detail) => {
        if (op.state !== 'running') return;
        op.detail = detail;
        this.changed.fire();
      },
      finish: (state, detail, brief) => {
        if (op.state !== 'running') return;
        op.state = state;
        // Progress text ("asking the server to cancel…") is stale once the operation ended.
        op.detail = detail;
        op.brief = brief;
        op.ended = new Date();
        this.changed.fire();
      },
      reopen: (detail) => {
        if (op.state === 'running') return;
        op.state = 'running';
        op.detail = detail;
        op.brief = undefined;
        op.ended = undefined;
        op.waiting = new AbortController();
        this.changed.fire();
      },
    };
  }

  /** Runs an operation through the one runner (progress, this view, follow by name, re-attach). */
  run<T>(run: OperationRun<T>): Promise<OperationOutcome<T>> {
    return runOperation(this, run);
  }

  /** Follows again the operations of `source` left running when the window closed; returns how many. */
  resume(
    source: string,
    runOf: (
      entry: JournalEntry,
    ) => Omit<OperationRun<OperationLike>, 'work' | 'title' | 'resource' | 'source' | 'kind'>,
  ): number {
    return resumeOperations(this, source, runOf);
  }

  /** The one message for how an operation ended (Check Again on failed and unknown outcomes). */
  announce(title: string, outcome: OperationOutcome<unknown>, success: string): void {
    announceOutcome(this, title, outcome, success);
  }

  /** Check Again on an ended operation, through its own action; the row shows what was learnt. */
  async checkAgain(id: number): Promise<string> {
    const op = this.get(id);
    if (!op) return 'The operation is no longer listed.';
    if (!op.actions.checkAgain) return 'This operation cannot be checked again: the server never named it.';
    if (op.state === 'running') return 'The operation is being followed already.';
    return op.actions.checkAgain();
  }

  /** Notes what the resource itself looks like now (shown in the details). */
  noteResourceState(id: number, text: string | undefined): void {
    const op = this.get(id);
    if (!op) return;
    op.resourceState = text;
    this.changed.fire();
  }

  /** Cancels through the operation's own action; the poll loop reports the final state. */
  async cancel(id: number): Promise<string> {
    const op = this.get(id);
    if (!op || op.state !== 'running') return 'The operation is no longer running.';
    if (!op.actions.cancel) return 'This operation cannot be cancelled.';
    const message = await op.actions.cancel();
    op.detail = message;
    this.changed.fire();
    return message;
  }

  /** Stops following: the server forgets the result (where it can) and the local wait ends. */
  async stopWaiting(id: number): Promise<string> {
    const op = this.get(id);
    if (!op || op.state !== 'running') return 'The operation is no longer running.';
    let message = 'Stopped waiting; the operation goes on running on the server.';
    try {
      if (op.actions.stopWaiting) message = await op.actions.stopWaiting();
    } finally {
      op.state = 'detached';
      op.detail = message;
      op.ended = new Date();
      op.waiting.abort();
      this.changed.fire();
    }
    return message;
  }

  clearFinished(): number {
    const before = this.entries.length;
    for (let i = this.entries.length - 1; i >= 0; i--)
      if (this.entries[i].state !== 'running') this.entries.splice(i, 1);
    this.changed.fire();
    return before - this.entries.length;
  }

  /** Fires change events without a state change (e.g. to refresh elapsed times). */
  touch(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.server.dispose();
    for (const op of this.entries) if (op.state === 'running') op.waiting.abort();
    this.changed.dispose();
  }
}
