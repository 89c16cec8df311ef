/**
 * When diagnostics and semantic tokens are computed while someone types. The editor pulls diagnostics after every
 * change and cancels the previous pull; checking a large document on each key press costs the
 * server its time and the window a redraw of every squiggle, for results replaced a moment later.
 * So a large document is checked once it has been still for a moment (a pull cancelled meanwhile
 * does no work), and an answer equal to the previous one is sent as "unchanged". Semantic tokens
 * wait the same way, and a change while they wait answers "content modified": the editor keeps the
 * colours it has (moved along with the edits, the grammar colouring the new text) and asks again.
 */
import type { Diagnostic } from 'vscode-languageserver-types';

/** Below this size a check costs well under a millisecond: diagnostics follow every key. */
export const LARGE_DOCUMENT_CHARS = 32 * 1024;
/** How long a large document must be still before it is checked: a pause between bursts of typing. */
export const LARGE_DOCUMENT_QUIET_MS = 200;
/** Pushed diagnostics (clients that do not pull) of a small document wait this long, as before. */
export const PUSH_QUIET_MS = 60;

/** How long `uri` must be still before its diagnostics are computed. */
export function quietPeriod(textLength: number, push: boolean): number {
  if (textLength >= LARGE_DOCUMENT_CHARS) return LARGE_DOCUMENT_QUIET_MS;
  return push ? PUSH_QUIET_MS : 0;
}

export interface Cancellation {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** How a wait for a still document ended. */
export type Settled = 'still' | 'cancelled' | 'changed';

/** When each document last changed. */
export class ChangeTimes {
  private readonly last = new Map<string, number>();
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  changed(uri: string): void {
    this.last.set(uri, this.now());
    for (const wake of this.waiting.get(uri) ?? []) wake();
  }

  forget(uri: string): void {
    this.last.delete(uri);
  }

  /**
   * Resolves 'still' once `uri` has not changed for `quietMs`, 'cancelled' as soon as `token` is
   * cancelled (the editor asks again for the newer text), and with `stopOnChange` 'changed' as soon
   * as the document changes meanwhile.
   */
  async settle(uri: string, quietMs: number, token: Cancellation, stopOnChange = false): Promise<Settled> {
    for (;;) {
      if (token.isCancellationRequested) return 'cancelled';
      const last = this.last.get(uri);
      const wait = last === undefined ? 0 : last + quietMs - this.now();
      if (wait <= 0) return 'still';
      let changed = false;
      await new Promise<void>((resolve) => {
        const wakers = this.waiting.get(uri) ?? new Set<() => void>();
        this.waiting.set(uri, wakers);
        const onChange = (): void => {
          changed = true;
          if (stopOnChange) done();
        };
        wakers.add(onChange);
        const timer = setTimeout(done, wait);
        const subscription = token.onCancellationRequested(done);
        function done(): void {
          clearTimeout(timer);
          subscription.dispose();
          wakers.delete(onChange);
          resolve();
        }
      });
      // The set of a document nobody waits for goes with the last waiter.
      if (!this.waiting.get(uri)?.size) this.waiting.delete(uri);
      if (changed && stopOnChange && !token.isCancellationRequested) return 'changed';
    }
  }
}

/**
 * The last diagnostics reported per document under a result id: a pull that names that id and
 * would get the same diagnostics is told "unchanged", and the editor keeps what it shows.
 */
export class DiagnosticReports {
  private readonly last = new Map<string, { resultId: string; key: string }>();
  private counter = 0;

  /** The result id of `items` for `uri`; `unchanged` when the client already has them under `previousResultId`. */
  report(
    uri: string,
    items: Diagnostic[],
    previousResultId: string | undefined,
  ): { resultId: string; unchanged: boolean } {
    const key = JSON.stringify(items);
    const last = this.last.get(uri);
    if (last && last.key === key && previousResultId === last.resultId)
      return { resultId: last.resultId, unchanged: true };
    const resultId = String(++this.counter);
    this.last.set(uri, { resultId, key });
    return { resultId, unchanged: false };
  }

  forget(uri: string): void {
    this.last.delete(uri);
  }
}
