// Paged lists as async iterators that fetch the next page only when the consumer asks for it.
import { throwIfAborted } from './google/errors';

export interface Page<T> {
  items: T[];
  nextPageToken?: string | undefined;
}

export type PageFetcher<T> = (pageToken: string | undefined, signal?: AbortSignal) => Promise<Page<T>>;

export async function* paginate<T>(
  fetchPage: PageFetcher<T>,
  signal?: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  let token: string | undefined;
  const seen = new Set<string>();
  do {
    throwIfAborted(signal);
    const page = await fetchPage(token, signal);
    yield* page.items;
    token = page.nextPageToken || undefined;
    // A server that hands back a token it already gave would loop forever.
    if (token !== undefined) {
      if (seen.has(token)) throw new Error(`The server repeated page token "${token}"`);
      seen.add(token);
    }
  } while (token !== undefined);
}

/** A list that a tree shows page by page, behind a "Load more" node. */
export class PagedList<T> {
  private loaded: T[] = [];
  private token: string | undefined;
  private started = false;

  constructor(private readonly fetchPage: PageFetcher<T>) {}

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
