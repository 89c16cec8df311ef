// The reference lists the editor knows: loaded from the SecOps /v2/lists API (FULL view, so each
// list's size and first lines are known), refreshed with the view and after every save, and handed
// to the UDM language support so `%name` completes and unknown names are flagged.
import * as vscode from 'vscode';
import { SecOpsClient, type ReferenceListDetails } from '../../core/secops/client';
import { referenceListEntries } from '../../core/secops/reference-lists';
import { resolveSecOpsBaseUrl } from '../../core/secops/regions';
import { RateLimiter, SECOPS_BUDGETS } from '../../core/ratelimit';
import { describeError } from '../../core/google/errors';
import { getLogger } from '../../platform/log';
import type { KnownReferenceList } from '../../udm/reference-lists';
import type { ReferenceListStore } from '../shared/reference-list-store';
import type { Services } from '../services';

const log = getLogger('reference-lists');

/** How many entries a hover or tooltip shows. */
export const PREVIEW_LINES = 5;

export type ListsState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'ready'; lists: readonly ReferenceListDetails[] }
  | { kind: 'error'; message: string };

/** What the language support is told about one list. */
export function knownListOf(list: ReferenceListDetails): KnownReferenceList {
  const entries = referenceListEntries(list.lines);
  return {
    name: list.name,
    contentType: list.contentType,
    size: entries.length,
    ...(list.description ? { description: list.description } : {}),
    preview: entries.slice(0, PREVIEW_LINES),
    ...(typeof list.createTime === 'string' ? { updateTime: list.createTime } : {}),
  };
}

export class ReferenceListsModel implements vscode.Disposable {
  private state: ListsState = { kind: 'idle' };
  private loading: Promise<void> | undefined;
  private client: SecOpsClient | undefined;
  private clientKey = '';
  /** One limiter per base URL, kept across settings changes like the search's. */
  private readonly limiters = new Map<string, RateLimiter>();
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private generation = 0;

  /** What the lists were when last loaded: handed over again, marked out of date, when a load fails. */
  private lastLoaded: readonly ReferenceListDetails[] = [];

  constructor(
    private readonly services: Services,
    private readonly publish: (lists: readonly ReferenceListDetails[], loadError?: string) => void = (
      lists,
      loadError,
    ) => publishToLanguage(services.referenceLists, lists, loadError),
  ) {}

  dispose(): void {
    this.emitter.dispose();
  }

  get current(): ListsState {
    return this.state;
  }

  /** The SecOps client for the current settings: the Search API's host, credentials and retry policy. */
  getClient(): SecOpsClient {
    const connection = this.services.connection();
    const { settings } = connection;
    const override = connection.endpoint('secops');
    const baseUrl = resolveSecOpsBaseUrl({
      region: settings.secops.region,
      ...(override ? { endpointOverride: override } : {}),
    });
    const key = JSON.stringify([
      baseUrl,
      settings.secops.credentialsFile,
      settings.credentialsFile,
      settings.timeoutMs,
      settings.retry,
    ]);
    if (!this.client || key !== this.clientKey) {
      let limiter = this.limiters.get(baseUrl);
      if (!limiter) {
        limiter = new RateLimiter(SECOPS_BUDGETS);
        this.limiters.set(baseUrl, limiter);
      }
      this.client = new SecOpsClient({
        baseUrl,
        tokens: connection.secopsTokens(baseUrl),
        limiter,
        retry: settings.retry,
        timeoutMs: settings.timeoutMs,
        onRetry: (method, err, attempt, delayMs) =>
          log.info(`${method}: retry ${attempt} in ${delayMs} ms after ${(err as Error).message}`),
      });
      this.clientKey = key;
    }
    return this.client;
  }

  /** Loads the lists once; later calls join the load in flight or return at once. */
  ensureLoaded(): Promise<void> {
    if (this.state.kind === 'ready' || this.state.kind === 'error') return Promise.resolve();
    return this.refresh();
  }

  /** Reloads every list; a refresh while one runs joins it. */
  refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    const generation = ++this.generation;
    this.state = { kind: 'loading' };
    this.emitter.fire();
    try {
      const lists = await this.getClient().listAllReferenceLists('FULL');
      if (generation !== this.generation) return;
      this.state = { kind: 'ready', lists: sortByName(lists) };
      log.info(`loaded ${lists.length} reference lists`);
      this.publishKnown();
    } catch (err) {
      if (generation !== this.generation) return;
      this.state = { kind: 'error', message: describeError(err) };
      log.warn(`could not load reference lists: ${describeError(err)}`);
      // The language support then checks names against what was known, as warnings, saying why.
      try {
        this.publish(this.lastLoaded, describeError(err));
      } catch (e) {
        log.warn(`could not hand the reference lists to the UDM language support: ${describeError(e)}`);
      }
    }
    this.emitter.fire();
  }

  /** Forgets everything (settings changed); the next ensureLoaded() asks the server again. */
  reset(): void {
    this.generation++;
    this.loading = undefined;
    this.state = { kind: 'idle' };
    this.emitter.fire();
  }

  find(name: string): ReferenceListDetails | undefined {
    return this.state.kind === 'ready' ? this.state.lists.find((l) => l.name === name) : undefined;
  }

  /** Takes in a list the server just returned (after a create or an update). */
  remember(list: ReferenceListDetails): void {
    if (this.state.kind !== 'ready') {
      void this.refresh();
      return;
    }
    const others = this.state.lists.filter((l) => l.name !== list.name);
    this.state = { kind: 'ready', lists: sortByName([...others, list]) };
    this.publishKnown();
    this.emitter.fire();
  }

  private publishKnown(): void {
    if (this.state.kind !== 'ready') return;
    this.lastLoaded = this.state.lists;
    try {
      this.publish(this.state.lists);
    } catch (err) {
      log.warn(`could not hand the reference lists to the UDM language support: ${describeError(err)}`);
    }
  }
}

function sortByName(lists: readonly ReferenceListDetails[]): ReferenceListDetails[] {
  return [...lists].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Hands the lists to the UDM language support: what is known of each (type, size, description,
 * first entries) for completion, checks and hover, and the entries themselves for the inputs that
 * evaluate lists.
 */
function publishToLanguage(
  store: ReferenceListStore,
  lists: readonly ReferenceListDetails[],
  loadError?: string,
): void {
  store.setKnown(lists.map(knownListOf), loadError);
  const entries: Record<string, string[]> = {};
  for (const l of lists) entries[l.name] = referenceListEntries(l.lines);
  store.setEntries(entries);
}
