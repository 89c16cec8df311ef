// What exporting a run writes: the whole result set, newest first like the page shows it, under a
// file name that says what it holds and when. Pure.
import { EXPORT_EXTENSIONS, exportResults, type ExportFormat } from './export';
import { defaultColumns, timeField, type ColumnSpec, type ResultKind } from './fields';
import { sortNewestFirst } from './table';

/** "udm-results-2026-01-02T03-04-05.csv": a name every file system takes. */
export function exportFileName(kind: ResultKind, format: ExportFormat, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return `${kind === 'udm' ? 'udm-results' : kind}-${stamp}.${EXPORT_EXTENSIONS[format]}`;
}

/** The export's text; no columns chosen means the kind's default columns. */
export function exportRunText(
  kind: ResultKind,
  rows: readonly unknown[],
  format: ExportFormat,
  columns: readonly ColumnSpec[],
): string {
  const path = timeField(kind);
  return exportResults(
    format,
    path ? sortNewestFirst(rows, path) : rows,
    columns.length ? columns : defaultColumns(kind),
  );
}
