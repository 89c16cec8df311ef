// The one budget of a Test Rule run: every join step, every combination of placeholder values,
// every statement tested on a combination, every row a window scans and every row a candidate
// detection evaluates spends one unit. A hostile rule (seven placeholders over a field with 16
// values: 16^7 combinations per event) then stops at the limit, or at the caller's deadline,
// instead of holding the thread for minutes.

export type CutReason = 'work-limit' | 'time-limit';

export interface WorkLimits {
  /** joined rows kept at most (each holds events and values: a memory cap) */
  maxRows: number;
  /** units of work at most, over the join, the windows and the outcomes together */
  maxWork: number;
}

/** About a second or two of work on a laptop core. */
export const DEFAULT_WORK_LIMITS: WorkLimits = { maxRows: 200_000, maxWork: 5_000_000 };

/** Units between two readings of the clock: Date.now() costs little, but not nothing. */
const CLOCK_EVERY = 2048;

export class WorkBudget {
  used = 0;
  /** why the run stopped, once it has */
  reason: CutReason | undefined;
  private nextClock = 0;

  constructor(
    private readonly limit: number,
    /** epoch ms */
    private readonly deadline?: number,
  ) {}

  /** Spends `n` units; false once the limit or the deadline has stopped the run. */
  spend(n = 1): boolean {
    if (this.reason) return false;
    this.used += n;
    if (this.used > this.limit) {
      this.reason = 'work-limit';
      return false;
    }
    if (this.deadline !== undefined && this.used >= this.nextClock) {
      this.nextClock = this.used + CLOCK_EVERY;
      if (Date.now() > this.deadline) {
        this.reason = 'time-limit';
        return false;
      }
    }
    return true;
  }
}
