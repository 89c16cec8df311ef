// Search API v1 client (Google SecOps): every read method of the service, validated before sending,
// paced by the per-method budgets, with 429s honoured and everything cancellable.
import type { Dispatcher } from 'undici';
import type { TokenSource } from '../google/credentials';
import type { ClientCertSource } from '../google/endpoints';
import { CancelledError, GoogleApiError, isCancellation } from '../google/errors';
import { RestClient, isTransportError, type QueryValue, type RestRequest } from '../google/rest';
import { DEFAULT_MAX_TOTAL_WAIT_MS, DEFAULT_RETRY, withRetry, type RetryPolicy } from '../google/retry';
import { RateLimiter, SECOPS_BUDGETS, type RateLimiterOptions } from '../ratelimit';
import { SecOpsParamError, checkNonEmpty, checkPageSize, exactlyOne, formatTime } from './params';
import type {
  AssetAlias,
  AssetAssociation,
  GetEventResponse,
  GetLogResponse,
  IocDetailsSource,
  IocMatch,
  JsonObject,
  ListAlertsResponse,
  ListAssetAliasesResponse,
  ListAssetsResponse,
  ListEventsResponse,
  ListIocDetailsResponse,
  ListIocsResponse,
  ListUserAliasesResponse,
  ReferenceList,
  UdmEvent,
  UdmSearchEvent,
  UdmSearchResponse,
  UserAlias,
} from './types';
import { type ReferenceListContentType, type ReferenceListLineError } from './reference-lists';
import type * as Lists from './reference-list-types';
import { readUdmSearchStream, type UdmSearchStreamResult } from './udm-search-stream';
import {
  ARTIFACT_FIELDS,
  ASSET_FIELDS,
  USER_FIELDS,
  checkArtifact,
  checkAsset,
  optionalWindow,
  requiredWindow,
  arrayOf,
  checkView,
  checkListName,
  checkContentType,
  checkLines,
  normalizeList,
  paged,
  isServerTimeout,
  withPreciseRetryDelay,
  type UdmSearchRequest,
  type ListEventsRequest,
  type ListAssetsRequest,
  type ListAssetAliasesRequest,
  type ListUserAliasesRequest,
  type ListIocsRequest,
  type ListIocDetailsRequest,
  type ListAlertsRequest,
} from './client-checks';

export { decodeLogBytes, withPreciseRetryDelay } from './client-checks';
export { UdmSearchStreamBrokenError, type UdmSearchStreamResult } from './udm-search-stream';

export type SecOpsMethod =
  | 'udmSearch'
  | 'ListEvents'
  | 'ListAssets'
  | 'ListAssetAliases'
  | 'ListUserAliases'
  | 'ListIoCs'
  | 'ListIoCDetails'
  | 'GetEvent'
  | 'GetLog'
  | 'ListAlerts'
  | 'GetReferenceList'
  | 'ListReferenceLists'
  | 'CreateReferenceList'
  | 'UpdateReferenceList'
  | 'VerifyReferenceList';

/** The service's own limit on how long an API-started UDM search may run. */
export const UDM_SEARCH_SERVER_TIMEOUT_MS = 10 * 60_000;
export const UDM_SEARCH_MAX_LIMIT = 10_000;
/** The documented widest window for one udmSearch. */
export const UDM_SEARCH_MAX_WINDOW_MS = 90 * 24 * 3_600_000;

export interface SecOpsClientOptions {
  baseUrl: string;
  tokens: TokenSource;
  /** Shared limiter; the default one paces by the published per-method limits. */
  limiter?: RateLimiter;
  limiterOptions?: RateLimiterOptions;
  /** Retries for UNAVAILABLE, 429 and transport failures (every method is a GET, safe to repeat). */
  retry?: RetryPolicy;
  /** Per-call deadline for every method but udmSearch. */
  timeoutMs?: number;
  /** Deadline for udmSearch; by default a little over the server's own 10 minutes, so its answer wins. */
  udmSearchTimeoutMs?: number;
  dispatcher?: Dispatcher;
  /** Client certificate for an mTLS endpoint. */
  clientCert?: ClientCertSource;
  userAgent?: string;
  /** Told about every retry (never given secrets): for logs. */
  onRetry?: (method: SecOpsMethod, err: unknown, attempt: number, delayMs: number) => void;
  random?: () => number;
}

export type {
  TimeWindow,
  UdmSearchRequest,
  AssetIndicator,
  ListEventsRequest,
  ArtifactIndicator,
  ListAssetsRequest,
  ListAssetAliasesRequest,
  UserIndicator,
  ListUserAliasesRequest,
  ListIocsRequest,
  ListIocDetailsRequest,
  ListAlertsRequest,
} from './client-checks';

/**
 * The UDM search hit the service's 10-minute limit: the fix is a narrower search. Not a
 * GoogleApiError on purpose, so no generic "raise the timeout" hint is added to the advice.
 */
export class UdmSearchTimeoutError extends Error {
  override readonly name = 'UdmSearchTimeoutError';
  readonly status = 'DEADLINE_EXCEEDED' as const;
  constructor(cause: string) {
    super(
      `The UDM search ran into the service's 10-minute time-out (${cause}). Narrow the time range (or make the query more selective) and run it again.`,
    );
  }
}

/** A JSON answer whose fields the method reads; each is checked before use. */
type Listed<Field extends string> = Partial<Record<Field, unknown>>;

export class SecOpsClient {
  readonly limiter: RateLimiter;
  private readonly rest: RestClient;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly udmSearchTimeoutMs: number;

  constructor(private readonly options: SecOpsClientOptions) {
    this.limiter = options.limiter ?? new RateLimiter(SECOPS_BUDGETS, options.limiterOptions);
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.udmSearchTimeoutMs = options.udmSearchTimeoutMs ?? UDM_SEARCH_SERVER_TIMEOUT_MS + 30_000;
    // Retrying happens here, not in the REST layer, so that every attempt spends a rate token.
    this.rest = new RestClient({
      baseUrl: options.baseUrl,
      tokens: options.tokens,
      retry: { ...this.retry, maxRetries: 0 },
      timeoutMs: this.timeoutMs,
      userAgent: options.userAgent ?? 'cloudbench-secops',
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.clientCert ? { clientCert: options.clientCert } : {}),
    });
  }

  get baseUrl(): string {
    return this.rest.base;
  }

  private get<T>(
    method: SecOpsMethod,
    path: string,
    query: Record<string, QueryValue>,
    signal?: AbortSignal,
    timeoutMs?: number,
    readBody?: RestRequest['readBody'],
    onCharged?: () => void,
  ): Promise<T> {
    return this.send<T>(method, 'GET', path, query, undefined, signal, timeoutMs, true, readBody, onCharged);
  }

  /**
   * One call through the limiter with retries. Calls that change something are retried only when
   * the server said it did not act (429, UNAVAILABLE), never after a lost connection.
   */
  private async send<T>(
    method: SecOpsMethod,
    httpMethod: 'GET' | 'POST' | 'PATCH',
    path: string,
    query: Record<string, QueryValue>,
    body: unknown,
    signal?: AbortSignal,
    timeoutMs?: number,
    idempotent = httpMethod === 'GET',
    readBody?: RestRequest['readBody'],
    /** Each attempt the budget was charged for (answered, not with 429). */
    onCharged?: () => void,
  ): Promise<T> {
    const retryable =
      method === 'udmSearch' ? this.retry.retryable.filter((s) => s !== 'DEADLINE_EXCEEDED') : this.retry.retryable;
    const policy: RetryPolicy = {
      ...this.retry,
      retryable: Array.from(new Set([...retryable, 'RESOURCE_EXHAUSTED' as const])).filter(
        (s) => idempotent || s === 'RESOURCE_EXHAUSTED' || s === 'UNAVAILABLE',
      ),
    };
    const started = Date.now();
    const maxWait = this.retry.maxTotalWaitMs ?? DEFAULT_MAX_TOTAL_WAIT_MS;
    return withRetry(
      async () => {
        try {
          // Waiting for the budget counts against the same bound as waiting between retries.
          await this.limiter.acquire(method, signal, Math.max(0, maxWait - (Date.now() - started)));
        } catch (err) {
          if (isCancellation(err) || signal?.aborted) throw new CancelledError();
          throw err;
        }
        // Charged only once the service answered: see notReached.
        let answered = false;
        try {
          return await this.rest.request<T>({
            onAnswer: (statusCode) => {
              answered = true;
              if (statusCode !== 429) onCharged?.();
            },
            method: httpMethod,
            path,
            query,
            methodName: method,
            idempotent,
            ...(body !== undefined ? { body } : {}),
            ...(signal ? { signal } : {}),
            ...(timeoutMs !== undefined ? { timeoutMs } : {}),
            ...(readBody ? { readBody } : {}),
          });
        } catch (err) {
          const precise = withPreciseRetryDelay(err);
          // A 429 holds every caller of the method for as long as the server asks, and the refused
          // call's token is given back (the server did not run it): the hourly count stays true.
          if (precise instanceof GoogleApiError && precise.status === 'RESOURCE_EXHAUSTED')
            this.limiter.refused(method, precise.retryAfterMs ?? this.retry.initialBackoffMs);
          else if (!answered) this.limiter.notReached(method);
          throw precise;
        }
      },
      policy,
      {
        ...(signal ? { signal } : {}),
        ...(this.options.random ? { random: this.options.random } : {}),
        isRetryable: (err) =>
          err instanceof GoogleApiError
            ? // Without an HTTP answer (a lost connection) a change may have been applied: not repeated.
              policy.retryable.includes(err.status) && (idempotent || err.options.httpStatus !== undefined)
            : idempotent && !isCancellation(err) && isTransportError(err),
        onRetry: (err, attempt, delayMs) => {
          // Hold every caller of this method for as long as this one waits, not just this one.
          if (err instanceof GoogleApiError && err.status === 'RESOURCE_EXHAUSTED')
            this.limiter.penalize(method, delayMs);
          this.options.onRetry?.(method, err, attempt, delayMs);
        },
      },
    );
  }

  /** Runs a UDM query over [startTime, endTime). */
  async udmSearch(req: UdmSearchRequest, signal?: AbortSignal): Promise<UdmSearchResponse> {
    const body = await this.runUdmSearch<{ events?: unknown; moreDataAvailable?: unknown }>(req, signal);
    return { events: arrayOf<UdmSearchEvent>(body.events), moreDataAvailable: body.moreDataAvailable === true };
  }

  /**
   * udmSearch that hands the events over in batches while the answer arrives, then resolves with
   * the answer's other fields. Paced and retried like udmSearch until the first batch; an answer
   * that breaks off after it is a UdmSearchStreamBrokenError.
   */
  udmSearchStreaming(
    req: UdmSearchRequest,
    /** Each batch of events as they arrive, with the JSON text each was parsed from. */
    onEvents: (events: UdmSearchEvent[], texts: readonly string[]) => void,
    signal?: AbortSignal,
    /**
     * Build only these paths of each event (dotted, from the event's root): the events handed over
     * are skeletons that read the same along them, and the texts hold the rest (see udm-pick.ts).
     */
    pick?: readonly string[],
  ): Promise<UdmSearchStreamResult> {
    return this.runUdmSearch(req, signal, (body) => readUdmSearchStream(body, onEvents, pick));
  }

  private async runUdmSearch<T>(
    req: UdmSearchRequest,
    signal?: AbortSignal,
    readBody?: RestRequest['readBody'],
  ): Promise<T> {
    const query = checkNonEmpty(req.query, 'query');
    const window = requiredWindow(req, 'time_range.start_time', 'time_range.end_time');
    if (
      Date.parse(window['time_range.end_time']) - Date.parse(window['time_range.start_time']) >
      UDM_SEARCH_MAX_WINDOW_MS
    ) {
      throw new SecOpsParamError(
        'A UDM search covers at most 90 days; narrow the time range.',
        'time_range.start_time',
      );
    }
    const limit = checkPageSize(req.limit, 1, UDM_SEARCH_MAX_LIMIT, 'limit');
    try {
      const path = '/v1/events:udmSearch';
      return await this.get<T>(
        'udmSearch',
        path,
        { query, ...window, limit },
        signal,
        this.udmSearchTimeoutMs,
        readBody,
        req.onCharged,
      );
    } catch (err) {
      if (isServerTimeout(err)) throw new UdmSearchTimeoutError(err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  async listEvents(req: ListEventsRequest, signal?: AbortSignal): Promise<ListEventsResponse> {
    const indicator = exactlyOne(req.asset ?? {}, ASSET_FIELDS, 'asset indicator');
    checkAsset(indicator.key, indicator.value, indicator.parameter, 'typed');
    const query: Record<string, QueryValue> = { [indicator.parameter]: indicator.value, ...requiredWindow(req) };
    if (req.referenceTime !== undefined) query.reference_time = formatTime(req.referenceTime, 'reference_time');
    const body = await this.get<Listed<'events' | 'uri' | 'moreDataAvailable'>>(
      'ListEvents',
      '/v1/asset/listevents',
      paged(query, req.pageSize, 10_000),
      signal,
    );
    return {
      events: arrayOf<UdmEvent>(body.events),
      uri: arrayOf<string>(body.uri),
      moreDataAvailable: body.moreDataAvailable === true,
    };
  }

  async listAssets(req: ListAssetsRequest, signal?: AbortSignal): Promise<ListAssetsResponse> {
    const indicator = exactlyOne(req.artifact ?? {}, ARTIFACT_FIELDS, 'artifact indicator');
    checkArtifact(indicator.key, indicator.value, indicator.parameter);
    const query = paged({ [indicator.parameter]: indicator.value, ...optionalWindow(req) }, req.pageSize, 100);
    const body = await this.get<Listed<'assets' | 'uri'>>('ListAssets', '/v1/artifact/listassets', query, signal);
    return { assets: arrayOf<AssetAssociation>(body.assets), uri: arrayOf<string>(body.uri) };
  }

  async listAssetAliases(req: ListAssetAliasesRequest, signal?: AbortSignal): Promise<ListAssetAliasesResponse> {
    const indicator = exactlyOne(req.asset ?? {}, ASSET_FIELDS, 'asset indicator');
    checkAsset(indicator.key, indicator.value, indicator.parameter, 'integer');
    const query = paged({ [indicator.parameter]: indicator.value, ...optionalWindow(req) }, req.pageSize, 10_000);
    const body = await this.get<Listed<'aliases'>>('ListAssetAliases', '/v1/alias/listassetaliases', query, signal);
    return { aliases: arrayOf<AssetAlias>(body.aliases) };
  }

  async listUserAliases(req: ListUserAliasesRequest, signal?: AbortSignal): Promise<ListUserAliasesResponse> {
    const indicator = exactlyOne(req.user ?? {}, USER_FIELDS, 'user indicator');
    if (indicator.key === 'email' && !/^[^\s@]+@[^\s@]+$/.test(indicator.value)) {
      throw new SecOpsParamError(`user.email is not an email address: "${indicator.value}"`, 'user.email');
    }
    const query = paged({ [indicator.parameter]: indicator.value, ...optionalWindow(req) }, req.pageSize, 10_000);
    const body = await this.get<Listed<'userAliases'>>('ListUserAliases', '/v1/alias/listuseraliases', query, signal);
    return { userAliases: arrayOf<UserAlias>(body.userAliases) };
  }

  async listIocs(req: ListIocsRequest, signal?: AbortSignal): Promise<ListIocsResponse> {
    if (req.startTime === undefined) throw new SecOpsParamError('start_time is required', 'start_time');
    const query = paged({ start_time: formatTime(req.startTime, 'start_time') }, req.pageSize, 10_000);
    const body = await this.get<{
      matches?: unknown;
      moreDataAvailable?: unknown;
      response?: { matches?: unknown; moreDataAvailable?: unknown };
    }>('ListIoCs', '/v1/ioc/listiocs', query, signal);
    // The documentation shows the matches at the top level; the live service wraps them in "response".
    const inner = body.response && typeof body.response === 'object' ? body.response : body;
    return {
      matches: arrayOf<IocMatch>(inner.matches),
      moreDataAvailable: inner.moreDataAvailable === true || body.moreDataAvailable === true,
    };
  }

  async listIocDetails(req: ListIocDetailsRequest, signal?: AbortSignal): Promise<ListIocDetailsResponse> {
    const fields = {
      domainName: ARTIFACT_FIELDS.domainName,
      destinationIpAddress: ARTIFACT_FIELDS.destinationIpAddress,
    };
    const indicator = exactlyOne(req.artifact ?? {}, fields, 'artifact indicator');
    checkArtifact(indicator.key, indicator.value, indicator.parameter);
    const body = await this.get<Listed<'sources' | 'uri'>>(
      'ListIoCDetails',
      '/v1/artifact/listiocdetails',
      { [indicator.parameter]: indicator.value },
      signal,
    );
    return { sources: arrayOf<IocDetailsSource>(body.sources), uri: arrayOf<string>(body.uri) };
  }

  /** The full UDM event for an event id (metadata.id). */
  async getEvent(name: string, signal?: AbortSignal): Promise<GetEventResponse> {
    checkNonEmpty(name, 'name');
    const body = await this.get<{ udm?: UdmEvent }>('GetEvent', '/v1/event:get', { name: name.trim() }, signal);
    return { udm: body.udm ?? {} };
  }

  /** The raw log behind an event id; `logBytes` stays base64 (see decodeLogBytes). */
  async getLog(name: string, signal?: AbortSignal): Promise<GetLogResponse> {
    checkNonEmpty(name, 'name');
    const body = await this.get<{ log?: GetLogResponse['log'] }>(
      'GetLog',
      '/v1/events/log:get/',
      { name: name.trim() },
      signal,
    );
    return { log: body.log ?? {} };
  }

  async listAlerts(req: ListAlertsRequest, signal?: AbortSignal): Promise<ListAlertsResponse> {
    const query = paged(requiredWindow(req), req.pageSize, 100_000);
    const body = await this.get<Listed<'alerts' | 'userAlerts'>>('ListAlerts', '/v1/alert/listalerts', query, signal);
    return { alerts: arrayOf<JsonObject>(body.alerts), userAlerts: arrayOf<JsonObject>(body.userAlerts) };
  }

  /** A reference list, read from the v2 path (FULL view, with its lines, unless BASIC is asked for). */
  async getReferenceList(
    name: string,
    signal?: AbortSignal,
    options: { view?: Lists.ReferenceListView } = {},
  ): Promise<Lists.ReferenceListDetails> {
    checkNonEmpty(name, 'name');
    if (/[/\\]/.test(name) || name === '.' || name === '..')
      throw new SecOpsParamError(`Reference list name must be a single path segment: "${name}"`, 'name');
    const body = await this.get<Partial<ReferenceList>>(
      'GetReferenceList',
      `/v2/lists/${encodeURIComponent(name.trim())}`,
      options.view ? { view: checkView(options.view) } : {},
      signal,
    );
    return normalizeList(body, name.trim());
  }

  /** One page of reference lists (GET /v2/lists); BASIC (the default) leaves the lines out. */
  async listReferenceLists(
    req: Lists.ListReferenceListsRequest = {},
    signal?: AbortSignal,
  ): Promise<Lists.ListReferenceListsPage> {
    const query: Record<string, QueryValue> = {
      page_size: checkPageSize(req.pageSize, 1, 1000, 'page_size'),
      page_token: req.pageToken || undefined,
      view: req.view ? checkView(req.view) : undefined,
    };
    const body = await this.get<Listed<'lists' | 'nextPageToken'>>('ListReferenceLists', '/v2/lists', query, signal);
    const lists = arrayOf<Partial<ReferenceList>>(body.lists).map((l) => normalizeList(l, ''));
    return {
      lists,
      ...(typeof body.nextPageToken === 'string' && body.nextPageToken ? { nextPageToken: body.nextPageToken } : {}),
    };
  }

  /** Every reference list, following the pages. */
  async listAllReferenceLists(
    view: Lists.ReferenceListView = 'BASIC',
    signal?: AbortSignal,
  ): Promise<Lists.ReferenceListDetails[]> {
    const out: Lists.ReferenceListDetails[] = [];
    let pageToken: string | undefined;
    const seen = new Set<string>();
    do {
      const page = await this.listReferenceLists({ view, pageSize: 1000, ...(pageToken ? { pageToken } : {}) }, signal);
      out.push(...page.lists);
      pageToken = page.nextPageToken;
      // A server that hands back the same token would loop forever.
      if (pageToken !== undefined && seen.has(pageToken)) break;
      if (pageToken !== undefined) seen.add(pageToken);
    } while (pageToken);
    return out;
  }

  /** Creates a list (POST /v2/lists); ALREADY_EXISTS when the name is taken. */
  async createReferenceList(
    req: Lists.CreateReferenceListRequest,
    signal?: AbortSignal,
  ): Promise<Lists.ReferenceListDetails> {
    const name = checkListName(req.name);
    const description = checkNonEmpty(req.description, 'description');
    const contentType = checkContentType(req.contentType);
    const lines = checkLines(req.lines);
    const body = await this.send<Partial<ReferenceList>>(
      'CreateReferenceList',
      'POST',
      '/v2/lists',
      {},
      { name, description, lines, contentType },
      signal,
    );
    return normalizeList(body, name);
  }

  /**
   * Replaces the given fields of a list (PATCH /v2/lists with an update mask naming exactly those
   * fields). Sending the same change twice leaves the same list, so it is retried like a read.
   */
  async updateReferenceList(
    req: Lists.UpdateReferenceListRequest,
    signal?: AbortSignal,
  ): Promise<Lists.ReferenceListDetails> {
    const name = checkListName(req.name);
    const list: Record<string, unknown> = { name };
    const mask: string[] = [];
    if (req.lines !== undefined) {
      list.lines = checkLines(req.lines);
      mask.push('list.lines');
    }
    if (req.description !== undefined) {
      list.description = checkNonEmpty(req.description, 'description');
      mask.push('list.description');
    }
    if (req.contentType !== undefined) {
      list.contentType = checkContentType(req.contentType);
      mask.push('list.content_type');
    }
    if (mask.length === 0)
      throw new SecOpsParamError('Nothing to update: give lines, description or contentType', 'update_mask');
    const body = await this.send<Partial<ReferenceList>>(
      'UpdateReferenceList',
      'PATCH',
      '/v2/lists',
      { update_mask: mask.join(',') },
      list,
      signal,
      undefined,
      true,
    );
    return normalizeList(body, name);
  }

  /**
   * Checks lines for a content type on the server without saving anything. The legacy path of this
   * call is not documented (the current Chronicle API has POST {instance}:verifyReferenceList);
   * this client uses POST /v2/lists:verifyReferenceList, the same custom method on the legacy collection.
   */
  async verifyReferenceList(
    contentType: ReferenceListContentType,
    lines: readonly string[],
    signal?: AbortSignal,
  ): Promise<Lists.VerifyReferenceListResult> {
    const type = checkContentType(contentType);
    const body = await this.send<{ success?: unknown; errors?: unknown }>(
      'VerifyReferenceList',
      'POST',
      '/v2/lists:verifyReferenceList',
      {},
      { contentType: type, lines: checkLines(lines) },
      signal,
      undefined,
      true,
    );
    const errors = arrayOf<Partial<ReferenceListLineError>>(body.errors)
      .filter((e) => e && typeof e === 'object')
      .map((e) => ({
        lineNumber: typeof e.lineNumber === 'number' ? e.lineNumber : Number(e.lineNumber ?? -1),
        errorMessage: typeof e.errorMessage === 'string' ? e.errorMessage : 'invalid line',
      }));
    return { success: body.success === true || errors.length === 0, errors };
  }
}

export type {
  CreateReferenceListRequest,
  ListReferenceListsPage,
  ListReferenceListsRequest,
  ReferenceListDetails,
  ReferenceListView,
  UpdateReferenceListRequest,
  VerifyReferenceListResult,
} from './reference-list-types';
