// What "fetch the rest" says: the question before it spends searches, its progress and how it
// ended. Pure, so that every wording can be checked without an editor.
import type { SplitProgress, SplitResult } from '../split';

/** "Fetch the rest" stops here: beyond it the panel is no longer the right tool (export or narrow). */
export const FETCH_REST_MAX_EVENTS = 200_000;

const count = (n: number): string => n.toLocaleString('en-US');
const searches = (n: number): string => (n === 1 ? 'search' : 'searches');

/** The question asked before a UDM "fetch the rest" spends `planned` searches of the hourly budget. */
export function restQuestion(planned: number, budget: { remaining: number; limit: number } | undefined): string {
  const left = budget
    ? ` ${budget.remaining} of ${budget.limit} remain this hour${budget.remaining < planned ? ', so it stops when they run out (the events fetched by then stay)' : ''}.`
    : '';
  return `Fetching the rest will spend about ${planned} UDM ${searches(planned)} (more if parts of the range are busier than the part already fetched).${left}`;
}

/** The progress notification's line while windows are fetched. */
export function restProgressText(progress: Pick<SplitProgress, 'items' | 'windowsDone' | 'windowsPending'>): string {
  const total = progress.windowsDone + progress.windowsPending;
  return `${count(progress.items)} events · ${progress.windowsDone} of ${total} ${searches(total)} done`;
}

/** How a finished "fetch the rest" ended, with `rows` events held. */
export function restOutcome(
  result: Pick<SplitResult<unknown>, 'complete' | 'stoppedBy' | 'windowsFetched'>,
  rows: number,
): string {
  if (result.complete)
    return `All ${count(rows)} events fetched with ${result.windowsFetched} more ${searches(result.windowsFetched)}.`;
  return result.stoppedBy === 'maxItems'
    ? `Stopped at ${count(rows)} events (the panel's cap); narrow the time range for the rest.`
    : `Some one-second windows still hold more events than the limit; ${count(rows)} events fetched.`;
}

/** How a "fetch the rest" that did not finish ended. */
export function restStopped(cancelled: boolean, rows: number, error: string): string {
  return cancelled ? `Stopped; ${count(rows)} events kept.` : `Fetching the rest failed: ${error}`;
}

export const CANNOT_SPLIT = 'This result cannot be split; narrow its time range instead.';
