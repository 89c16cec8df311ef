// The one protocol between the results webview and the extension. Both sides import these types and
// check every message on arrival: a webview is a browser page, and the extension host must not trust
// what it posts any more than the page trusts what it is sent.
import { isPivotAction, type PivotAction } from './results/pivots';
import type { ColumnSpec, ResultKind } from './results/fields';
import type { ExportFormat } from './results/export';
import { exportOptionsOf, type ExportOptions } from './results/export-run';
import type { QueryBarLists } from './querybar-service';
import { isKnownReferenceList } from '../../udm/reference-lists';
import { assertTypedMessage, isRecord } from './page-message';

/** The rows a results page holds: `count` rows, their times, and the cells of `columns`. */
export interface RowTable {
  count: number;
  /** Each row's time in epoch ms (NaN when it has none). */
  times: Float64Array;
  /** The columns `cells` holds, in order. */
  columns: ColumnSpec[];
  /** UTF-8 JSON of string[][]: for each column, each row's cell text. */
  cells: Uint8Array;
}

/** What a filter's field terms searched, as the "no rows match" line says it. */
export interface SearchedFields {
  field: string;
  paths: string[];
}

export const RESULT_KINDS: readonly ResultKind[] = [
  'udm',
  'assetEvents',
  'assets',
  'iocMatches',
  'iocDetails',
  'assetAliases',
  'userAliases',
  'alerts',
];

export interface RunInfo {
  runId: string;
  kind: ResultKind;
  /** Title line: the query or the pivot ("Events for host-1"). */
  title: string;
  /** RFC 3339 window, when the run has one. */
  startTime?: string;
  endTime?: string;
  /** Links to the same view in the SecOps console (the response's `uri`). */
  uri?: string[];
  /** The UDM query text as run (the title collapses its whitespace), for the query bar. */
  query?: string;
  /** The pivot behind a pivot panel, so it can be run again after a reload. */
  pivot?: { action: PivotAction; value: string };
  /** Where a pivot came from ("from: <query>"), shown under its title. */
  source?: string;
  /** When the answer was cut at the limit: the part of the time range its rows cover (RFC 3339). */
  covered?: { start: string; end: string };
  /** Searches "fetch the rest" expects to spend (at least). */
  restSearches?: number;
  /** When the service answered (RFC 3339): a panel restored after a reload names it. */
  ranAt?: string;
  /** The rows came from the kept copy of the run, not from a search just now. */
  restored?: boolean;
}

export type RunState = 'running' | 'done' | 'error' | 'cancelled';

export interface FetchProgress {
  items: number;
  windowsDone: number;
  windowsPending: number;
}

/**
 * Extension → webview. Rows travel as a RowTable (times and the shown columns' text, in typed arrays):
 * the events themselves stay in the extension host, which answers the `rows.*` requests about them.
 */
export type ToWebview =
  | {
      type: 'results';
      run: RunInfo;
      columns: ColumnSpec[];
      table: RowTable;
      /** Field paths of the rows when the message holds them all (else the page asks: rows.fields). */
      fields: string[];
      moreDataAvailable: boolean;
      /**
       * The answer is still arriving: these are its first rows in the order they came, more follow
       * in appends, and an `arrived` message ends it.
       */
      arriving?: boolean;
      /**
       * The rows the run holds, when more than this table's: the rest follows in one append once
       * the page has painted these, and until then the page counts the run by this total.
       */
      total?: number;
    }
  | { type: 'append'; runId: string; table: RowTable }
  /**
   * The answer of a run shown while it arrived is complete (or was cut short, `partial`): the rows
   * take their final order, `order[i]` being the position among the rows sent of the row that is
   * now at `i` (absent: the order stays).
   */
  | {
      type: 'arrived';
      runId: string;
      count: number;
      order?: Uint32Array;
      moreDataAvailable: boolean;
      covered?: { start: string; end: string };
      restSearches?: number;
      /** The download stopped before the answer was complete: why, said as the summary. */
      partial?: { cancelled: boolean; message: string };
    }
  /** The rows matching a quick filter, among the first `count` rows of the run. */
  | {
      type: 'rows.filtered';
      runId: string;
      id: number;
      count: number;
      indices: Uint32Array;
      searched: SearchedFields[];
    }
  /** The cells of columns the page asked for, for every row of the run. */
  | { type: 'rows.cells'; runId: string; id: number; table: RowTable }
  | { type: 'rows.event'; runId: string; id: number; index: number; eventJson: string }
  | { type: 'rows.fields'; runId: string; id: number; paths: string[] }
  /** A `rows.*` request the extension cannot answer (the run is no longer held, no such row). */
  | { type: 'rows.unavailable'; runId: string; id: number; message: string }
  | {
      type: 'status';
      runId: string;
      state: RunState;
      message?: string;
      moreDataAvailable?: boolean;
      fetching?: FetchProgress;
    }
  | { type: 'running'; title: string; message?: string; /** shown in the query bar while it runs */ query?: string }
  /** A panel restored after a reload whose run's rows were not kept (too large, or dropped for newer ones). */
  | { type: 'notKept' }
  | { type: 'failed'; title: string; message: string; cancelled: boolean }
  /**
   * What is known of the reference lists, for the query bar's language service in the page: sent
   * when the page asks (`querybar.watchLists`) and again whenever the lists change.
   */
  | ({ type: 'querybar.lists' } & QueryBarLists);

/** Webview → extension. */
export type FromWebview =
  | { type: 'ready' }
  /** The columns the page shows for a kind of result (empty: the defaults), for the tables it is sent. */
  | { type: 'columns'; kind: ResultKind; columns: ColumnSpec[] }
  | { type: 'rows.filter'; runId: string; id: number; filter: string; columns: ColumnSpec[] }
  | { type: 'rows.cells'; runId: string; id: number; columns: ColumnSpec[] }
  | { type: 'rows.event'; runId: string; id: number; index: number }
  | { type: 'rows.fields'; runId: string; id: number }
  /** The first rows of a run are on screen: the rest of its rows may come now. */
  | { type: 'painted'; runId: string }
  | { type: 'fetchRest'; runId: string }
  | { type: 'stopFetch'; runId: string }
  /** The rows in the page's sort (else newest first), the shown columns or every field of the rows. */
  | ({ type: 'export'; runId: string; format: ExportFormat; columns: ColumnSpec[] } & ExportOptions)
  | { type: 'openLink'; url: string }
  | { type: 'pivot'; runId: string; action: PivotAction; value: string; row?: number }
  | { type: 'rerun'; runId: string }
  /** Run the same query again over only the newest part of its range (the part a cut answer misses). */
  | { type: 'narrowToNewest'; runId: string }
  /** Run the same query again over only the period picked on the timeline (RFC 3339). */
  | { type: 'searchPeriod'; runId: string; startTime: string; endTime: string }
  /** The query bar's text, run with the current time range and default limit like "Run Query". */
  | { type: 'runQuery'; query: string; startTime?: string; endTime?: string }
  /** The query bar's editor is loading: send the reference lists now and whenever they change. */
  | { type: 'querybar.watchLists' };

/** Longest query text the page sends; a UDM search is a few lines, this leaves ample room. */
export const MAX_QUERY_TEXT = 100_000;

export class MessageError extends Error {
  override readonly name = 'MessageError';
}

function str(o: Record<string, unknown>, key: string, max = 10_000): string {
  const v = o[key];
  if (typeof v !== 'string' || v.length > max)
    throw new MessageError(`${String(o.type)}.${key} must be a string of at most ${max} characters`);
  return v;
}

function requestId(o: Record<string, unknown>): number {
  const id = o.id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)
    throw new MessageError(`${String(o.type)}.id must be a non-negative integer`);
  return id;
}

/** Most lists the page takes (the language server's bound), and most entries over all bare lists. */
export const MAX_QUERY_BAR_LISTS = 10_000;
export const MAX_QUERY_BAR_LIST_ENTRIES = 1_000_000;

/**
 * The lists as the language server takes them (src/server/protocol.ts checks the same), rebuilt
 * from the fields the language service reads, so nothing else reaches it.
 */
function queryBarListsOf(data: Record<string, unknown>): QueryBarLists {
  const { referenceLists, knownLists, listsUnavailable } = data;
  const out: QueryBarLists = {};
  if (referenceLists !== undefined) {
    const bad = (): MessageError =>
      new MessageError(
        `querybar.lists.referenceLists must map at most ${MAX_QUERY_BAR_LISTS} list names (letters, digits, _) to ${MAX_QUERY_BAR_LIST_ENTRIES} strings in all`,
      );
    if (!isRecord(referenceLists)) throw bad();
    const lists = Object.entries(referenceLists);
    if (lists.length > MAX_QUERY_BAR_LISTS) throw bad();
    let total = 0;
    const kept: Array<[string, string[]]> = [];
    for (const [name, entries] of lists) {
      if (!/^[A-Za-z0-9_]+$/.test(name) || !Array.isArray(entries)) throw bad();
      total += entries.length;
      if (total > MAX_QUERY_BAR_LIST_ENTRIES || !entries.every((e): e is string => typeof e === 'string')) throw bad();
      kept.push([name, [...entries]]);
    }
    // Own properties only, even for a list named __proto__.
    out.referenceLists = Object.fromEntries(kept);
  }
  if (knownLists !== undefined) {
    if (
      !Array.isArray(knownLists) ||
      knownLists.length > MAX_QUERY_BAR_LISTS ||
      !knownLists.every(isKnownReferenceList)
    )
      throw new MessageError(
        `querybar.lists.knownLists must be at most ${MAX_QUERY_BAR_LISTS} lists with a name, contentType, size and preview`,
      );
    out.knownLists = knownLists.map((l) => ({
      name: l.name,
      contentType: l.contentType,
      size: l.size,
      preview: [...l.preview],
      ...(l.description !== undefined ? { description: l.description } : {}),
      ...(l.updateTime !== undefined ? { updateTime: l.updateTime } : {}),
    }));
    if (listsUnavailable !== undefined) out.listsUnavailable = str(data, 'listsUnavailable', 2000);
  } else if (listsUnavailable !== undefined) {
    throw new MessageError('querybar.lists.listsUnavailable comes only with knownLists');
  }
  return out;
}

function columnsOf(v: unknown): ColumnSpec[] {
  if (!Array.isArray(v) || v.length > 5000) throw new MessageError('columns must be an array of at most 5000 columns');
  return v.map((c, i) => {
    if (
      !isRecord(c) ||
      typeof c.id !== 'string' ||
      typeof c.label !== 'string' ||
      c.id.length > 1000 ||
      c.label.length > 1000
    ) {
      throw new MessageError(`columns[${i}] must be {id, label}`);
    }
    const fallbacks = c.fallbacks;
    if (
      fallbacks !== undefined &&
      (!Array.isArray(fallbacks) ||
        fallbacks.length > 20 ||
        !fallbacks.every((f) => typeof f === 'string' && f.length <= 1000))
    ) {
      throw new MessageError(`columns[${i}].fallbacks must be strings`);
    }
    return { id: c.id, label: c.label, ...(fallbacks ? { fallbacks: fallbacks as string[] } : {}) };
  });
}

/** A results page holds at most this many rows ("fetch the rest" stops well before). */
const MAX_TABLE_ROWS = 1_000_000;

/** Checks a RowTable's shape (its cells are decoded, and checked, when the page uses them). */
function tableOf(v: unknown, what: string): RowTable {
  if (!isRecord(v)) throw new MessageError(`${what} must be a row table`);
  const count = v.count;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0 || count > MAX_TABLE_ROWS)
    throw new MessageError(`${what}.count must be a row count`);
  if (!(v.times instanceof Float64Array) || v.times.length !== count)
    throw new MessageError(`${what}.times must be a Float64Array of one time per row`);
  if (!(v.cells instanceof Uint8Array)) throw new MessageError(`${what}.cells must be a Uint8Array`);
  return { count, times: v.times, columns: columnsOf(v.columns), cells: v.cells };
}

function pathsOf(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || v.length > 10_000 || !v.every((p) => typeof p === 'string' && p.length <= 1000))
    throw new MessageError(`${what} must be field paths`);
  return v as string[];
}

/** Checks a message from the webview; throws MessageError naming what is wrong. */
export function parseFromWebview(data: unknown): FromWebview {
  assertTypedMessage(data, MessageError);
  switch (data.type) {
    case 'ready':
      return { type: 'ready' };
    case 'columns':
      if (!(RESULT_KINDS as readonly unknown[]).includes(data.kind)) throw new MessageError('columns.kind is unknown');
      return { type: 'columns', kind: data.kind as ResultKind, columns: columnsOf(data.columns) };
    case 'rows.filter':
      return {
        type: 'rows.filter',
        runId: str(data, 'runId', 100),
        id: requestId(data),
        filter: str(data, 'filter', 4096),
        columns: columnsOf(data.columns),
      };
    case 'rows.cells':
      return {
        type: 'rows.cells',
        runId: str(data, 'runId', 100),
        id: requestId(data),
        columns: columnsOf(data.columns),
      };
    case 'rows.event': {
      const index = data.index;
      if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0)
        throw new MessageError('rows.event.index must be a row index');
      return { type: 'rows.event', runId: str(data, 'runId', 100), id: requestId(data), index };
    }
    case 'rows.fields':
      return { type: 'rows.fields', runId: str(data, 'runId', 100), id: requestId(data) };
    case 'painted':
    case 'fetchRest':
    case 'stopFetch':
    case 'rerun':
    case 'narrowToNewest':
      return { type: data.type, runId: str(data, 'runId', 100) };
    case 'export': {
      const format = data.format;
      if (format !== 'csv' && format !== 'json' && format !== 'ndjson')
        throw new MessageError('export.format must be csv, json or ndjson');
      const options = exportOptionsOf(
        data,
        (c) => columnsOf([c])[0],
        (m) => new MessageError(m),
      );
      return { type: 'export', runId: str(data, 'runId', 100), format, columns: columnsOf(data.columns), ...options };
    }
    case 'openLink':
      return { type: 'openLink', url: str(data, 'url', 8192) };
    case 'searchPeriod': {
      const startTime = str(data, 'startTime', 64);
      const endTime = str(data, 'endTime', 64);
      if (!(Date.parse(startTime) < Date.parse(endTime)))
        throw new MessageError('searchPeriod needs RFC 3339 times with startTime before endTime');
      return { type: 'searchPeriod', runId: str(data, 'runId', 100), startTime, endTime };
    }
    case 'runQuery': {
      const query = str(data, 'query', MAX_QUERY_TEXT);
      if (query.trim() === '') throw new MessageError('runQuery.query must not be empty');
      // A panel restored after a reload runs its query over the time range it had.
      if (data.startTime !== undefined || data.endTime !== undefined) {
        const startTime = str(data, 'startTime', 64);
        const endTime = str(data, 'endTime', 64);
        if (!(Date.parse(startTime) < Date.parse(endTime)))
          throw new MessageError('runQuery needs RFC 3339 times with startTime before endTime');
        return { type: 'runQuery', query, startTime, endTime };
      }
      return { type: 'runQuery', query };
    }
    case 'querybar.watchLists':
      return { type: 'querybar.watchLists' };
    case 'pivot': {
      if (!isPivotAction(data.action)) throw new MessageError('pivot.action is not a known pivot');
      const row = data.row;
      if (row !== undefined && (typeof row !== 'number' || !Number.isInteger(row) || row < 0))
        throw new MessageError('pivot.row must be a row index');
      return {
        type: 'pivot',
        runId: str(data, 'runId', 100),
        action: data.action,
        value: str(data, 'value', 4096),
        ...(row !== undefined ? { row } : {}),
      };
    }
    default:
      throw new MessageError(`unknown message type "${data.type.slice(0, 50)}"`);
  }
}

/** The `results` message: the run it describes, its columns and first table. */
function resultsOf(data: Record<string, unknown>): ToWebview {
  const run = data.run;
  if (
    !isRecord(run) ||
    typeof run.runId !== 'string' ||
    typeof run.title !== 'string' ||
    !(RESULT_KINDS as readonly unknown[]).includes(run.kind)
  ) {
    throw new MessageError('results.run must be {runId, kind, title}');
  }
  const table = tableOf(data.table, 'results.table');
  const uri = Array.isArray(run.uri) ? run.uri.filter((u): u is string => typeof u === 'string') : undefined;
  return {
    type: 'results',
    run: {
      runId: run.runId,
      kind: run.kind as ResultKind,
      title: run.title,
      ...(typeof run.startTime === 'string' ? { startTime: run.startTime } : {}),
      ...(typeof run.endTime === 'string' ? { endTime: run.endTime } : {}),
      ...(uri ? { uri } : {}),
      ...(typeof run.query === 'string' && run.query.length <= MAX_QUERY_TEXT ? { query: run.query } : {}),
      ...(isRecord(run.pivot) && isPivotAction(run.pivot.action) && typeof run.pivot.value === 'string'
        ? { pivot: { action: run.pivot.action, value: run.pivot.value.slice(0, 4096) } }
        : {}),
      ...(typeof run.source === 'string' && run.source.length <= 10_000 ? { source: run.source } : {}),
      ...(isRecord(run.covered) &&
      typeof run.covered.start === 'string' &&
      typeof run.covered.end === 'string' &&
      run.covered.start.length <= 64 &&
      run.covered.end.length <= 64
        ? { covered: { start: run.covered.start, end: run.covered.end } }
        : {}),
      ...(typeof run.ranAt === 'string' && run.ranAt.length <= 64 ? { ranAt: run.ranAt } : {}),
      ...(run.restored === true ? { restored: true } : {}),
      ...(typeof run.restSearches === 'number' && Number.isSafeInteger(run.restSearches) && run.restSearches >= 0
        ? { restSearches: run.restSearches }
        : {}),
    },
    columns: columnsOf(data.columns),
    table,
    fields: pathsOf(data.fields, 'results.fields'),
    moreDataAvailable: data.moreDataAvailable === true,
    ...(data.arriving === true ? { arriving: true } : {}),
    ...(data.arriving !== true &&
    typeof data.total === 'number' &&
    Number.isSafeInteger(data.total) &&
    data.total > table.count &&
    data.total <= MAX_TABLE_ROWS
      ? { total: data.total }
      : {}),
  };
}

function coveredOf(v: unknown): { start: string; end: string } | undefined {
  return isRecord(v) &&
    typeof v.start === 'string' &&
    typeof v.end === 'string' &&
    v.start.length <= 64 &&
    v.end.length <= 64
    ? { start: v.start, end: v.end }
    : undefined;
}

/** The `arrived` message: a permutation of the rows sent (checked whole: a wrong one would mix rows up). */
function arrivedOf(data: Record<string, unknown>): ToWebview {
  const count = data.count;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0 || count > MAX_TABLE_ROWS)
    throw new MessageError('arrived.count must be a row count');
  const order = data.order;
  if (order !== undefined) {
    if (!(order instanceof Uint32Array) || order.length !== count)
      throw new MessageError('arrived.order must be a Uint32Array of one position per row');
    const seen = new Uint8Array(count);
    for (const p of order) {
      if (p >= count || seen[p]) throw new MessageError('arrived.order must hold each row position once');
      seen[p] = 1;
    }
  }
  const partial = data.partial;
  if (partial !== undefined && (!isRecord(partial) || typeof partial.message !== 'string'))
    throw new MessageError('arrived.partial must be {cancelled, message}');
  const covered = coveredOf(data.covered);
  const searches = data.restSearches;
  return {
    type: 'arrived',
    runId: str(data, 'runId', 100),
    count,
    ...(order instanceof Uint32Array ? { order } : {}),
    moreDataAvailable: data.moreDataAvailable === true,
    ...(covered ? { covered } : {}),
    ...(typeof searches === 'number' && Number.isSafeInteger(searches) && searches >= 0
      ? { restSearches: searches }
      : {}),
    ...(isRecord(partial)
      ? { partial: { cancelled: partial.cancelled === true, message: str(partial, 'message', 1000) } }
      : {}),
  };
}

/** The `rows.filtered` answer: the positions of the rows a filter kept, and what it searched. */
function filteredOf(data: Record<string, unknown>): ToWebview {
  const indices = data.indices;
  const count = data.count;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0 || count > MAX_TABLE_ROWS)
    throw new MessageError('rows.filtered.count must be a row count');
  if (!(indices instanceof Uint32Array) || indices.some((i) => i >= count))
    throw new MessageError('rows.filtered.indices must be a Uint32Array of row positions');
  if (!Array.isArray(data.searched)) throw new MessageError('rows.filtered.searched must be an array');
  const searched = (data.searched as unknown[]).slice(0, 100).map((s) => {
    if (!isRecord(s) || typeof s.field !== 'string' || !Array.isArray(s.paths))
      throw new MessageError('rows.filtered.searched must hold {field, paths}');
    return { field: s.field.slice(0, 1000), paths: pathsOf(s.paths, 'rows.filtered.searched.paths') };
  });
  return { type: 'rows.filtered', runId: str(data, 'runId', 100), id: requestId(data), count, indices, searched };
}

function statusOf(data: Record<string, unknown>): ToWebview {
  const state = data.state;
  if (state !== 'running' && state !== 'done' && state !== 'error' && state !== 'cancelled')
    throw new MessageError('status.state is unknown');
  const f = data.fetching;
  const fetching =
    isRecord(f) &&
    typeof f.items === 'number' &&
    typeof f.windowsDone === 'number' &&
    typeof f.windowsPending === 'number'
      ? { items: f.items, windowsDone: f.windowsDone, windowsPending: f.windowsPending }
      : undefined;
  return {
    type: 'status',
    runId: str(data, 'runId', 100),
    state,
    ...(typeof data.message === 'string' ? { message: data.message } : {}),
    ...(typeof data.moreDataAvailable === 'boolean' ? { moreDataAvailable: data.moreDataAvailable } : {}),
    ...(fetching ? { fetching } : {}),
  };
}

/** Checks a message from the extension (in the webview): the page renders only what it recognises. */
export function parseToWebview(data: unknown): ToWebview {
  assertTypedMessage(data, MessageError);
  switch (data.type) {
    case 'results':
      return resultsOf(data);
    case 'append':
      return { type: 'append', runId: str(data, 'runId', 100), table: tableOf(data.table, 'append.table') };
    case 'arrived':
      return arrivedOf(data);
    case 'rows.filtered':
      return filteredOf(data);
    case 'rows.cells':
      return {
        type: 'rows.cells',
        runId: str(data, 'runId', 100),
        id: requestId(data),
        table: tableOf(data.table, 'rows.cells.table'),
      };
    case 'rows.event': {
      const index = data.index;
      if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0)
        throw new MessageError('rows.event.index must be a row index');
      return {
        type: 'rows.event',
        runId: str(data, 'runId', 100),
        id: requestId(data),
        index,
        eventJson: str(data, 'eventJson', 50_000_000),
      };
    }
    case 'rows.fields':
      return {
        type: 'rows.fields',
        runId: str(data, 'runId', 100),
        id: requestId(data),
        paths: pathsOf(data.paths, 'rows.fields.paths'),
      };
    case 'rows.unavailable':
      return {
        type: 'rows.unavailable',
        runId: str(data, 'runId', 100),
        id: requestId(data),
        message: str(data, 'message', 1000),
      };
    case 'status':
      return statusOf(data);
    case 'notKept':
      return { type: 'notKept' };
    case 'running':
      return {
        type: 'running',
        title: str(data, 'title'),
        ...(typeof data.message === 'string' && data.message.length <= 1000 ? { message: data.message } : {}),
        ...(typeof data.query === 'string' && data.query.length <= MAX_QUERY_TEXT ? { query: data.query } : {}),
      };
    case 'failed':
      return {
        type: 'failed',
        title: str(data, 'title'),
        message: str(data, 'message'),
        cancelled: data.cancelled === true,
      };
    case 'querybar.lists':
      return { type: 'querybar.lists', ...queryBarListsOf(data) };
    default:
      throw new MessageError(`unknown message type "${data.type.slice(0, 50)}"`);
  }
}
