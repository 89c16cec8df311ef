// When a view's load failed because the connection failed, it checks again by itself: after 2 s,
// 4 s, 8 s … (at most 60 s apart), for about ten minutes, or at once when asked (the connection
// changed, the window regained focus). Pure: the clock and the timers are passed in.

/** The clock and timers a schedule runs on (the real ones in the editor, fake ones in tests). */
export interface ReconnectTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ReconnectPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** No check is scheduled once this long has passed since the first failure in a row. */
  giveUpAfterMs: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { firstDelayMs: 2_000, maxDelayMs: 60_000, giveUpAfterMs: 600_000 };

export const REAL_TIMERS: ReconnectTimers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The delay before check number `attempt` (0-based) after failures in a row. */
export function reconnectDelay(policy: ReconnectPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(attempt, 30));
}

export class ReconnectSchedule {
  private attempt = 0;
  private firstFailure: number | undefined;
  private timer: unknown;
  private pending: (() => void) | undefined;
  private disposed = false;

  constructor(
    private readonly timers: ReconnectTimers = REAL_TIMERS,
    private readonly policy: ReconnectPolicy = DEFAULT_RECONNECT,
  ) {}

  /** True while a check is scheduled. */
  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /**
   * A load failed for want of a connection: `check` runs after the next delay, unless the failures
   * in a row have lasted past the give-up time. False when nothing was scheduled.
   */
  failed(check: () => void): boolean {
    if (this.disposed) return false;
    const now = this.timers.now();
    this.firstFailure ??= now;
    this.cancel();
    if (now - this.firstFailure >= this.policy.giveUpAfterMs) return false;
    const delay = reconnectDelay(this.policy, this.attempt++);
    this.pending = check;
    this.timer = this.timers.setTimeout(() => {
      const run = this.pending;
      this.pending = undefined;
      this.timer = undefined;
      run?.();
    }, delay);
    return true;
  }

  /** A load worked: the next failure starts again from the first delay. */
  succeeded(): void {
    this.attempt = 0;
    this.firstFailure = undefined;
    this.cancel();
  }

  /** Runs a scheduled check now (the connection changed, the window regained focus). */
  checkNow(): void {
    const run = this.pending;
    if (!run) return;
    this.cancel();
    run();
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }

  private cancel(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }
}

/** What a failed view adds to its error while it waits to check again. */
export function reconnectNote(): string {
  return 'Cloudbench checks again by itself and shows the list when the connection works.';
}
