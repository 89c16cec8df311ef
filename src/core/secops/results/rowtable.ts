// The compact form in which result rows travel to the results page: for each row only its time and
// the text of the columns the table shows, as typed arrays and one UTF-8 block. The events stay in
// the extension host (ResultRows), which answers what needs the whole event: the quick filter, the
// detail pane, the column chooser's field list and the cells of a newly chosen column. A 10,000-row
// answer is about 13 MB of JSON and about 0.8 MB as a table, and an ArrayBuffer crosses from the
// extension host to the page without being escaped, re-parsed and cloned as JSON on the way.
import {
  collect,
  discoverColumns,
  eventRoot,
  scalarText,
  timeField,
  timeReader,
  type ColumnSpec,
  type ResultKind,
} from './fields';
import { FieldResolver, SearchIndex, filterIndices } from './table';
import type { FromWebview, RowTable, SearchedFields, ToWebview } from '../messages';

// The protocol owns the shapes that travel; they are re-exported for the modules that build them.
export type { RowTable, SearchedFields } from '../messages';

/** Cells longer than this are cut (with "…"): the table shows 200 characters and a tooltip 1,000. */
export const CELL_MAX = 1000;

/** One key per column as the table reads it (its path and its fallbacks). */
export function columnKey(column: ColumnSpec): string {
  return JSON.stringify([column.id, ...(column.fallbacks ?? [])]);
}

type Reader = (row: unknown) => string;

/** `cellText` for one column with its paths split once (the same text, without the per-cell work). */
export function cellReader(column: ColumnSpec): Reader {
  const paths = [column.id, ...(column.fallbacks ?? [])].map((p) => (p === '' ? [] : p.split('.')));
  const values: unknown[] = [];
  return (row) => {
    for (const segs of paths) {
      values.length = 0;
      collect(row, segs, 0, values);
      if (values.length === 1) return scalarText(values[0]);
      if (values.length > 1) return values.map(scalarText).join(', ');
    }
    return '';
  };
}

const encoder = new TextEncoder();

/** What a RowTable carries before its cells are encoded: each row's time and each column's texts. */
export interface TableParts {
  times: Float64Array;
  /** One array of row texts per column. */
  cells: string[][];
}

/**
 * The times and cell texts of `rows[from..to)` for `columns`; `knownTimes` are the rows' times when
 * already read (as timeReader reads them), one per row of the range.
 */
export function tableParts(
  rows: readonly unknown[],
  kind: ResultKind,
  columns: readonly ColumnSpec[],
  from = 0,
  to = rows.length,
  knownTimes?: ArrayLike<number>,
): TableParts {
  const count = Math.max(0, to - from);
  const times = new Float64Array(count);
  const path = timeField(kind);
  if (knownTimes) {
    if (knownTimes.length !== count) throw new Error('the times given do not cover the rows');
    times.set(knownTimes);
  } else if (path) {
    const time = timeReader(path);
    for (let i = 0; i < count; i++) times[i] = time(rows[from + i]);
  } else {
    times.fill(Number.NaN);
  }
  const cells = columns.map((column) => {
    const read = cellReader(column);
    const out = new Array<string>(count);
    for (let i = 0; i < count; i++) {
      const text = read(rows[from + i]);
      out[i] = text.length > CELL_MAX ? `${text.slice(0, CELL_MAX)}…` : text;
    }
    return out;
  });
  return { times, cells };
}

/** The RowTable of parts built for `columns`. */
export function encodeTable(parts: TableParts, columns: readonly ColumnSpec[]): RowTable {
  return {
    count: parts.times.length,
    times: parts.times,
    columns: columns.map((c) => ({ ...c })),
    // A plain Uint8Array (never a Node Buffer): VS Code sends typed arrays it recognises as binary.
    cells: encoder.encode(JSON.stringify(parts.cells)),
  };
}

/** The table of `rows[from..to)` for `columns` (the arguments of tableParts), encoded. */
export function buildTable(...args: Parameters<typeof tableParts>): RowTable {
  const [, , columns] = args;
  return encodeTable(tableParts(...args), columns);
}

/** The cell texts of a table, checked: one array of `count` strings per column. */
export function decodeCells(table: RowTable): string[][] {
  let cells: unknown;
  try {
    cells = JSON.parse(new TextDecoder().decode(table.cells));
  } catch {
    throw new Error('the table cells are not valid JSON');
  }
  if (
    !Array.isArray(cells) ||
    cells.length !== table.columns.length ||
    !cells.every((c) => Array.isArray(c) && c.length === table.count && c.every((t) => typeof t === 'string'))
  ) {
    throw new Error('the table cells do not match its columns and rows');
  }
  return cells as string[][];
}

/**
 * The rows of one run, held where they arrived (the extension host): the compact tables sent to the
 * page, and the answers about whole events it asks for.
 */
export class ResultRows {
  private index: SearchIndex | undefined;
  private fieldList: string[] | undefined;

  constructor(
    readonly kind: ResultKind,
    private rowList: readonly unknown[],
  ) {}

  get rows(): readonly unknown[] {
    return this.rowList;
  }

  /** The rows after an append (the earlier rows keep their positions and their search texts). */
  setRows(rows: readonly unknown[]): void {
    this.rowList = rows;
    this.index?.setRows(rows);
    this.fieldList = undefined;
  }

  table(columns: readonly ColumnSpec[], from = 0, to = this.rowList.length): RowTable {
    return buildTable(this.rowList, this.kind, columns, from, to);
  }

  /**
   * Every leaf path in the rows (up to discoverColumns' bound): the fields the filter knows by name,
   * its suggestions and the column chooser's choices.
   */
  fields(): string[] {
    this.fieldList ??= discoverColumns(this.rowList);
    return this.fieldList;
  }

  /** The quick filter's search texts of the rows, made as far as done so far. */
  private searchIndex(): SearchIndex {
    this.index ??= new SearchIndex(this.rowList);
    this.index.setRows(this.rowList);
    return this.index;
  }

  /**
   * Makes the quick filter's search texts of more rows, for at most about `budgetMs`: done ahead, a
   * slice at a time, the first filter of a large table only matches. Answers whether all are made.
   */
  prepareFilter(budgetMs: number): boolean {
    return this.searchIndex().buildUntil(performance.now() + budgetMs);
  }

  /** Positions of the rows matching a quick filter, and what its field terms searched. */
  filter(filter: string, columns: readonly ColumnSpec[]): { indices: Uint32Array; searched: SearchedFields[] } {
    const resolver = new FieldResolver(eventRoot(this.kind), columns, this.fields());
    const index = this.searchIndex();
    return { indices: filterIndices(this.rowList, filter, index, resolver), searched: resolver.describe(filter) };
  }

  /** The whole event of a row as JSON text, or undefined when there is no such row. */
  event(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.rowList.length) return undefined;
    return JSON.stringify(this.rowList[index]);
  }
}

export type RowsRequest = Extract<FromWebview, { type: 'rows.filter' | 'rows.cells' | 'rows.event' | 'rows.fields' }>;

export function isRowsRequest(message: FromWebview): message is RowsRequest {
  return (
    message.type === 'rows.filter' ||
    message.type === 'rows.cells' ||
    message.type === 'rows.event' ||
    message.type === 'rows.fields'
  );
}

/** The answer to a page's question about the rows of a run (`rows` undefined: the run is not held). */
export function answerRowsRequest(rows: ResultRows | undefined, request: RowsRequest): ToWebview {
  const { runId, id } = request;
  if (!rows)
    return {
      type: 'rows.unavailable',
      runId,
      id,
      message: 'These results are no longer held; run the query again.',
    };
  switch (request.type) {
    case 'rows.filter': {
      const { indices, searched } = rows.filter(request.filter, request.columns);
      return { type: 'rows.filtered', runId, id, count: rows.rows.length, indices, searched };
    }
    case 'rows.cells':
      return { type: 'rows.cells', runId, id, table: rows.table(request.columns) };
    case 'rows.fields':
      return { type: 'rows.fields', runId, id, paths: rows.fields() };
    case 'rows.event': {
      const eventJson = rows.event(request.index);
      return eventJson === undefined
        ? { type: 'rows.unavailable', runId, id, message: `There is no row ${request.index} in these results.` }
        : { type: 'rows.event', runId, id, index: request.index, eventJson };
    }
  }
}
