// Running queries: the query of an editor (or its selection), the time range, IoC matches.
import { safeText, MESSAGE_LIMIT } from '../../../core/display';
import * as vscode from 'vscode';
import { isTimeRangeSpec, resolveTimeRange } from '../../../core/secops/timerange';
import { analyze } from '../../../udm';
import { pickTimeRange } from '../../shared/time-range';
import type { SearchContext } from './context';

/** Runs the query of `uri` (else the active editor), or only its selection. */
async function runDocument(ctx: SearchContext, uri: unknown, selectionOnly: boolean): Promise<void> {
  const document = await documentFor(uri);
  const editor = vscode.window.activeTextEditor?.document === document ? vscode.window.activeTextEditor : undefined;
  let text = document.getText();
  if (editor && !editor.selection.isEmpty && (selectionOnly || uri === undefined))
    text = document.getText(editor.selection);
  else if (selectionOnly) throw new Error('Select the part of the query to run first.');
  const query = text.trim();
  if (query === '')
    throw new Error('The query is empty: write a UDM search such as metadata.event_type = "NETWORK_DNS".');
  if (!(await confirmDespiteErrors(query))) return;
  const window = resolveTimeRange(ctx.timeRange.spec, Date.now());
  await ctx.controller.runQuery(query, window, ctx.services.connection().settings.search.defaultLimit);
}

/** Run Query: the whole query (the selection when run from the keyboard with one). */
export function runQuery(ctx: SearchContext, uri?: unknown): Promise<void> {
  return runDocument(ctx, uri, false);
}

export function runSelection(ctx: SearchContext, uri?: unknown): Promise<void> {
  return runDocument(ctx, uri, true);
}

/** Sets the time range: the one given (a CodeLens, a test), else the one the user picks. */
export async function setTimeRange(ctx: SearchContext, spec?: unknown): Promise<void> {
  if (isTimeRangeSpec(spec)) {
    resolveTimeRange(spec, Date.now());
    await ctx.timeRange.set(spec);
    return;
  }
  const picked = await pickTimeRange(ctx.timeRange.spec);
  if (picked) await ctx.timeRange.set(picked);
}

export async function showIocMatches(ctx: SearchContext): Promise<void> {
  await ctx.controller.showIocMatches(resolveTimeRange(ctx.timeRange.spec, Date.now()));
}

export async function documentFor(uri: unknown): Promise<vscode.TextDocument> {
  if (uri instanceof vscode.Uri) return vscode.workspace.openTextDocument(uri);
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new Error('Open a .udm file with the query to run.');
  return editor.document;
}

/** Each search spends one of 360 hourly searches; a query the checker already rejects is worth a question. */
export async function confirmDespiteErrors(query: string): Promise<boolean> {
  let errors: string[];
  try {
    errors = analyze(query)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
  } catch {
    return true;
  }
  if (errors.length === 0) return true;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  const answer = await vscode.window.showWarningMessage(
    `The query has errors: ${safeText(errors[0], 'plain', MESSAGE_LIMIT)}${more}. Running it spends one of the hourly UDM searches.`,
    { modal: true },
    'Run Anyway',
  );
  return answer === 'Run Anyway';
}
