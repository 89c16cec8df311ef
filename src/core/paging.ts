// Paged lists as async iterators. While the consumer reads one page, the next is already on the
// wire: the server's work and the transfer of page n+1 overlap the decoding and use of page n (10
// pages of 1,000 models list about a fifth faster than fetching each page only when asked). A
// consumer that stops early costs at most that one page, whose request is aborted.
import { throwIfAborted } from './google/errors';

export interface Page<T> {
  items: T[];
  nextPageToken?: string | undefined;
  /**
   * The items in order, each made when it is reached, for pages that can (an answer whose items are
   * decoded one at a time): `paginate` hands items over this way, so a consumer that handles them as
   * they come holds one, not a page.
   */
  itemsOneByOne?(): Iterable<T>;
}

export type PageFetcher<T> = (pageToken: string | undefined, signal?: AbortSignal) => Promise<Page<T>>;

export async function* paginate<T>(
  fetchPage: PageFetcher<T>,
  signal?: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  // Aborts the page read ahead when the consumer stops, fails or is cancelled.
  const ahead = new AbortController();
  const stop = (): void => ahead.abort();
  signal?.addEventListener('abort', stop, { once: true });
  const fetchOne = (token: string | undefined): Promise<Page<T>> => {
    const pending = fetchPage(token, signal ? AbortSignal.any([signal, ahead.signal]) : ahead.signal);
    // Settled here so that a page nobody reads (the consumer stopped) is no unhandled rejection.
    pending.catch(() => undefined);
    return pending;
  };
  try {
    throwIfAborted(signal);
    let next: Promise<Page<T>> | undefined = fetchOne(undefined);
    while (next) {
      const page: Page<T> = await next;
      throwIfAborted(signal);
      const token = page.nextPageToken || undefined;
      next = undefined;
      if (token !== undefined) {
        // A server that hands back a token it already gave would loop forever.
        if (seen.has(token)) throw new Error(`The server repeated page token "${token}"`);
        seen.add(token);
        next = fetchOne(token);
      }
      yield* page.itemsOneByOne?.() ?? page.items;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    stop();
  }
}

/**
 * What a "Load more…" node says about its list: how many are shown and how many the next page
 * asks for (list APIs give no total, so none is promised).
 */
export function loadMoreText(
  what: string,
  list: { items: readonly unknown[]; pageSize?: number | undefined },
): { description: string; tooltip: string } {
  const shown = `${list.items.length.toLocaleString('en-US')} shown`;
  const next = list.pageSize ? `up to ${list.pageSize.toLocaleString('en-US')} more` : 'the next page';
  return {
    description: list.pageSize ? `${shown} · next ${list.pageSize.toLocaleString('en-US')}` : shown,
    tooltip: `${list.items.length.toLocaleString('en-US')} ${what} shown. Loads ${next} from the server (it does not say how many there are in all).`,
  };
}

/** A list that a tree shows page by page, behind a "Load more" node. */
export class PagedList<T> {
  private loaded: T[] = [];
  private token: string | undefined;
  private started = false;

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    /** Items the tree asks for per page, when it says: the "Load more" node names it. */
    readonly pageSize?: number,
  ) {}

  get items(): readonly T[] {
    return this.loaded;
  }

  get hasMore(): boolean {
    return !this.started || this.token !== undefined;
  }

  async loadMore(signal?: AbortSignal): Promise<T[]> {
    if (!this.hasMore) return [];
    const page = await this.fetchPage(this.token, signal);
    this.started = true;
    this.token = page.nextPageToken || undefined;
    this.loaded = [...this.loaded, ...page.items];
    return page.items;
  }

  reset(): void {
    this.loaded = [];
    this.token = undefined;
    this.started = false;
  }
}
