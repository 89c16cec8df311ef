// What exporting a run writes: the whole result set, in the order and columns the page shows, under a
// file name that says what it holds and when. Pure.
import { EXPORT_EXTENSIONS, exportResults, type ExportFormat } from './export';
import { defaultColumns, discoverColumns, fieldName, timeField, type ColumnSpec, type ResultKind } from './fields';
import { sortIndices, sortNewestFirst, type SortDirection } from './table';

/** "udm-results-2026-01-02T03-04-05.csv": a name every file system takes. */
export function exportFileName(kind: ResultKind, format: ExportFormat, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return `${kind === 'udm' ? 'udm-results' : kind}-${stamp}.${EXPORT_EXTENSIONS[format]}`;
}

/** How the page asks for an export: in its sort (else newest first), every field or the shown columns. */
export interface ExportOptions {
  sort?: { column: ColumnSpec; direction: SortDirection };
  allColumns?: boolean;
}

/** The export options of a page message, checked; `fail` makes the error for a malformed one. */
export function exportOptionsOf(
  data: Record<string, unknown>,
  columnOf: (value: unknown) => ColumnSpec,
  fail: (message: string) => Error,
): ExportOptions {
  const s = data.sort as { column?: unknown; direction?: unknown } | undefined;
  if (s !== undefined && (typeof s !== 'object' || s === null || (s.direction !== 'asc' && s.direction !== 'desc')))
    throw fail('export.sort must be {column, direction: asc|desc}');
  if (data.allColumns !== undefined && typeof data.allColumns !== 'boolean')
    throw fail('export.allColumns must be a boolean');
  return {
    ...(s ? { sort: { column: columnOf(s.column), direction: s.direction as SortDirection } } : {}),
    ...(data.allColumns === true ? { allColumns: true } : {}),
  };
}

/**
 * The export's text, in the order the page shows (its sort, stable over the order the rows came, as
 * the page sorts; else newest first) and with its columns (no columns chosen means the kind's
 * default ones), or every field the rows have.
 */
export function exportRunText(
  kind: ResultKind,
  rows: readonly unknown[],
  format: ExportFormat,
  columns: readonly ColumnSpec[],
  options: ExportOptions = {},
): string {
  const path = timeField(kind);
  let ordered: readonly unknown[] = path ? sortNewestFirst(rows, path) : rows;
  if (options.sort) {
    const order = sortIndices(rows, Uint32Array.from(rows.keys()), options.sort.column, options.sort.direction);
    ordered = Array.from(order, (i) => rows[i]);
  }
  const chosen = options.allColumns
    ? discoverColumns(rows).map((id) => ({ id, label: fieldName(id, kind) }))
    : columns.length
      ? columns
      : defaultColumns(kind);
  return exportResults(format, ordered, chosen);
}
