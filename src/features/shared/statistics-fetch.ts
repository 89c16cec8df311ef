// Fetches every event a statistical query's filter matches, within the udmSearch budget: one search,
// then (only with the user's approval) the existing time-window splitting for the rest. Whatever
// stops it early (a cancel, the budget, the event cap) leaves the events fetched so far and says why,
// so the table can be computed and marked partial. No vscode here: the integration tests drive it
// against the sandbox through the real client.
import { isCancellation } from '../../core/google/errors';
import type { RateLimiter } from '../../core/ratelimit';
import type { UdmSearchRequest } from '../../core/secops/client';
import { fetchAllInWindows } from '../../core/secops/split';
import type { UdmSearchEvent, UdmSearchResponse } from '../../core/secops/types';
import { estimateSearches } from '../../core/secops/statistics/protocol';

export interface SearchClient {
  udmSearch(req: UdmSearchRequest, signal?: AbortSignal): Promise<UdmSearchResponse>;
  udmSearchStreaming?: (
    req: UdmSearchRequest,
    onEvents: (events: UdmSearchEvent[]) => void,
    signal?: AbortSignal,
  ) => Promise<{ moreDataAvailable: boolean }>;
  readonly limiter: Pick<RateLimiter, 'canAcquireNow' | 'snapshot'>;
}

export interface MoreSearchesQuestion {
  /** Events the first search returned. */
  fetched: number;
  atLeast: number;
  likely?: number;
  /** udmSearch calls left this hour, and the hourly limit. */
  remaining: number;
  limit: number;
}

export interface FetchProgress {
  events: number;
  searches: number;
  windowsPending: number;
}

export interface FetchStatisticsOptions {
  client: SearchClient;
  /** The filter part of the query. */
  query: string;
  startMs: number;
  endMs: number;
  /** Events per search (the API's maximum, 10,000, unless a test wants smaller windows). */
  limit: number;
  /** Stop holding events past this many (the table is then partial). */
  maxEvents: number;
  signal: AbortSignal;
  /** Asked before spending more than the first search; false keeps the first answer (partial). */
  confirmMore(question: MoreSearchesQuestion): Promise<boolean>;
  onProgress?(progress: FetchProgress): void;
  /**
   * The first search's events while its answer arrives (read as it streams when the client can),
   * so the computing can take them in before the last byte.
   */
  onArriving?: (events: UdmSearchEvent[]) => void;
}

export interface FetchedEvents {
  events: UdmSearchEvent[];
  searches: number;
  /** Why the events are not every matching event; absent when they are. */
  partial?: string;
}

class BudgetSpent extends Error {}

export function eventKey(event: unknown): string {
  const e = event as { name?: unknown; udm?: { metadata?: { id?: unknown } } } | null;
  if (typeof e?.name === 'string' && e.name) return e.name;
  if (typeof e?.udm?.metadata?.id === 'string') return e.udm.metadata.id;
  return JSON.stringify(event);
}

function eventTimeMs(event: UdmSearchEvent): number {
  const t = (event.udm as { metadata?: { eventTimestamp?: unknown } } | undefined)?.metadata?.eventTimestamp;
  return typeof t === 'string' ? Date.parse(t) : NaN;
}

const count = (n: number): string => n.toLocaleString('en-US');

const PROGRESS_EVERY_MS = 200;

/** The first search, read as it arrives when the caller takes its events early and the client can. */
async function firstSearch(options: FetchStatisticsOptions): Promise<UdmSearchResponse> {
  const { client, query, startMs, endMs, limit, signal, onArriving } = options;
  const request = { query, startTime: startMs, endTime: endMs, limit };
  if (!onArriving || !client.udmSearchStreaming) return client.udmSearch(request, signal);
  const events: UdmSearchEvent[] = [];
  // The count so far, a few times a second (a large answer comes in hundreds of pieces).
  let told = 0;
  const answer = await client.udmSearchStreaming(
    request,
    (batch) => {
      for (const e of batch) events.push(e);
      onArriving(batch);
      if (Date.now() - told < PROGRESS_EVERY_MS) return;
      told = Date.now();
      options.onProgress?.({ events: events.length, searches: 1, windowsPending: 0 });
    },
    signal,
  );
  return { events, moreDataAvailable: answer.moreDataAvailable };
}

/** Throws CancelledError (or the abort reason) only when cancelled before the first answer. */
export async function fetchStatisticsEvents(options: FetchStatisticsOptions): Promise<FetchedEvents> {
  const { client, query, startMs, endMs, limit, signal } = options;
  const first = await firstSearch(options);
  let searches = 1;
  options.onProgress?.({ events: first.events.length, searches, windowsPending: 0 });
  if (!first.moreDataAvailable) return { events: first.events, searches };

  const estimate = estimateSearches(startMs, endMs, first.events.map(eventTimeMs), limit);
  const budget = client.limiter.snapshot('udmSearch');
  const approved = await options.confirmMore({
    fetched: first.events.length,
    ...estimate,
    remaining: budget.remaining,
    limit: budget.limit,
  });
  const partialFirst = `computed over the first ${count(first.events.length)} events only: udmSearch said more match, and fetching the rest was not approved`;
  if (!approved) return { events: first.events, searches, partial: partialFirst };

  const held = new Map<string, UdmSearchEvent>();
  for (const e of first.events) held.set(eventKey(e), e);
  try {
    const result = await fetchAllInWindows<UdmSearchEvent>(
      startMs,
      endMs,
      async (from, to, windowSignal) => {
        // A spent hour stops here; a throttled service ("slow down") is waited for within the retries.
        if (client.limiter.snapshot('udmSearch').remaining === 0) throw new BudgetSpent();
        searches++;
        const r = await client.udmSearch({ query, startTime: from, endTime: to, limit }, windowSignal);
        return { items: r.events, truncated: r.moreDataAvailable };
      },
      {
        keyOf: eventKey,
        initial: first.events,
        maxItems: options.maxEvents,
        signal,
        onProgress: (p, added) => {
          for (const e of added) held.set(eventKey(e), e);
          options.onProgress?.({ events: p.items, searches, windowsPending: p.windowsPending });
        },
      },
    );
    if (result.complete) return { events: result.items, searches };
    return {
      events: result.items,
      searches,
      partial:
        result.stoppedBy === 'maxItems'
          ? `computed over the first ${count(result.items.length)} events: Cloudbench holds at most ${count(options.maxEvents)}; narrow the time range for the rest`
          : `computed over ${count(result.items.length)} events: some one-second windows hold more than ${count(limit)} events, which udmSearch cannot return whole`,
    };
  } catch (err) {
    const events = [...held.values()];
    if (err instanceof BudgetSpent)
      return {
        events,
        searches,
        partial: `computed over ${count(events.length)} events: the hourly udmSearch budget ran out before every event was fetched`,
      };
    if (isCancellation(err) || signal.aborted)
      return { events, searches, partial: `computed over ${count(events.length)} events: fetching was stopped` };
    // A failed window must not throw away the events already fetched: the table says what happened.
    return {
      events,
      searches,
      partial: `computed over ${count(events.length)} events: fetching the rest failed (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}
