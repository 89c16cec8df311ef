// What the results page keeps with VS Code across a window reload: the columns chosen per kind of
// result, and the run shown with how the user looked at it.
import type { RunInfo } from '../../core/secops/messages';
import type { ColumnSpec, ResultKind } from '../../core/secops/results/fields';
import { post, state, vscode, type RestoreState } from './state';

/** Columns the user chose, per kind of result, so the next run of that kind opens with them. */
export function chosenColumns(kind: ResultKind): ColumnSpec[] | undefined {
  const saved = vscode.getState?.() as { columns?: Record<string, unknown> } | undefined;
  const list = saved?.columns?.[kind];
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const valid = (list as unknown[]).filter(
    (c): c is ColumnSpec =>
      typeof c === 'object' &&
      c !== null &&
      typeof (c as { id?: unknown }).id === 'string' &&
      typeof (c as { label?: unknown }).label === 'string',
  );
  return valid.length ? valid : undefined;
}

export function rememberColumns(kind: ResultKind, chosen: ColumnSpec[] | undefined): void {
  const saved = (vscode.getState?.() as { columns?: Record<string, unknown> } | undefined) ?? {};
  const all = { ...(saved.columns ?? {}) };
  if (chosen) all[kind] = chosen;
  else delete all[kind];
  vscode.setState?.({ ...saved, columns: all });
  // The extension sends the cells of these columns with the next results of this kind.
  post({ type: 'columns', kind, columns: chosen ?? [] });
}

/** Keeps the run shown, how it is sorted and filtered, and `shownTop`, the table's scroll position. */
export function rememberRun(info: RunInfo | undefined, filter: string, shownTop: number): void {
  const saved = (vscode.getState?.() as Record<string, unknown> | undefined) ?? {};
  const { sort, pendingScroll } = state;
  const scrollTop = pendingScroll ?? shownTop;
  const restore: RestoreState | undefined = info && {
    kind: info.kind,
    title: info.title,
    runId: info.runId,
    ...(info.ranAt ? { ranAt: info.ranAt } : {}),
    ...(sort ? { sort: { columnId: sort.column.id, direction: sort.direction } } : {}),
    ...(scrollTop > 0 ? { scrollTop: Math.round(scrollTop) } : {}),
    ...(info.query !== undefined ? { query: info.query } : {}),
    ...(info.startTime && info.endTime ? { startTime: info.startTime, endTime: info.endTime } : {}),
    ...(info.source !== undefined ? { source: info.source } : {}),
    ...(info.pivot ? { pivot: info.pivot } : {}),
    ...(filter ? { filter } : {}),
  };
  vscode.setState?.({ ...saved, restore });
}

export function savedRun(): RestoreState | undefined {
  const r = (vscode.getState?.() as { restore?: unknown } | undefined)?.restore as Partial<RestoreState> | undefined;
  if (!r || typeof r !== 'object' || typeof r.title !== 'string' || typeof r.kind !== 'string') return undefined;
  return r as RestoreState;
}

/** "Restored from the run at <time>": the rows are the kept ones, not a search just now. */
export function restoredNote(info: RunInfo): string {
  const at = info.ranAt ? new Date(info.ranAt) : undefined;
  const when = at && !Number.isNaN(at.getTime()) ? at.toLocaleString() : 'an earlier time';
  return `Restored from the run at ${when}`;
}
