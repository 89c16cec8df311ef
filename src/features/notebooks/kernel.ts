// The UDM notebook kernel: runs UDM cells one at a time through the search's client, rate limiter
// and budget (statistical cells through the statistics fetch), shows each cell's time range and
// limit, and answers the renderer's row actions.
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { analyze } from '../../udm';
import { describeError, isCancellation } from '../../core/google/errors';
import { UDM_SEARCH_MAX_LIMIT } from '../../core/secops/client';
import { isPivotAction } from '../../core/secops/results/pivots';
import {
  describeTimeRange,
  resolveTimeRange,
  type ResolvedWindow,
  type TimeRangeSpec,
} from '../../core/secops/timerange';
import { compileStatistics } from '../../udm/stats';
import { keepStatistics, keepResults, keepRowsSetting, type KeptOutput } from '../../core/notebook/format';
import { getLogger } from '../../platform/log';
import type { Services } from '../services';
import { NOTEBOOK_TYPE, UDM_LANGUAGE, cellSettings, notebookTimeRange, outputFor } from './convert';

const log = getLogger('notebooks');
export const CONTROLLER_ID = 'cloudbench.udm-notebook';
export const RENDERER_ID = 'cloudbench.udm-results';

/** The notebook controller and what its cell runs need. */
export interface Kernel {
  readonly services: Services;
  readonly controller: vscode.NotebookController;
  /** The execution order of the last cell run. */
  order: number;
}

/** The time range a cell runs over: its own, else the notebook's, else the search time range. */
export function effectiveTimeRange(
  services: Services,
  cell: vscode.NotebookCell,
): {
  spec: TimeRangeSpec;
  from: 'cell' | 'notebook' | 'search';
} {
  const own = cellSettings(cell.metadata).timeRange;
  if (own) return { spec: own, from: 'cell' };
  const nb = notebookTimeRange(cell.notebook.metadata);
  if (nb) return { spec: nb, from: 'notebook' };
  return { spec: services.search.require().timeRange(), from: 'search' };
}

function queryErrors(query: string): string[] {
  try {
    return analyze(query)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
  } catch {
    return [];
  }
}

const keepRows = (): number =>
  keepRowsSetting(vscode.workspace.getConfiguration('cloudbench.notebook').get<unknown>('keepRows'));

/** The only kernel for UDM notebooks: preferred, so Run needs no kernel pick first. */
export function createKernel(context: vscode.ExtensionContext, services: Services): Kernel {
  const controller = vscode.notebooks.createNotebookController(CONTROLLER_ID, NOTEBOOK_TYPE, 'UDM Search');
  controller.supportedLanguages = [UDM_LANGUAGE];
  controller.supportsExecutionOrder = true;
  controller.description = 'Runs UDM cells with the SecOps Search API';
  context.subscriptions.push(controller);
  const prefer = (doc: vscode.NotebookDocument): void => {
    if (doc.notebookType === NOTEBOOK_TYPE)
      controller.updateNotebookAffinity(doc, vscode.NotebookControllerAffinity.Preferred);
  };
  vscode.workspace.notebookDocuments.forEach(prefer);
  context.subscriptions.push(vscode.workspace.onDidOpenNotebookDocument(prefer));
  const kernel: Kernel = { services, controller, order: 0 };
  controller.executeHandler = async (cells) => {
    // One at a time, in order: later steps of a hunt often read what earlier ones found, and the
    // hourly budget is spent predictably.
    for (const cell of cells) {
      if (cell.kind !== vscode.NotebookCellKind.Code) continue;
      await runCell(kernel, cell);
    }
  };
  return kernel;
}

/** Runs one UDM cell and keeps its bounded output in the notebook. */
export async function runCell(kernel: Kernel, cell: vscode.NotebookCell): Promise<void> {
  const { controller, services } = kernel;
  const execution = controller.createNotebookCellExecution(cell);
  execution.executionOrder = ++kernel.order;
  const started = Date.now();
  execution.start(started);
  await execution.clearOutput();
  const fail = async (message: string): Promise<void> => {
    const kept: KeptOutput = { kind: 'error', ranAt: new Date(started).toISOString(), message };
    await execution.replaceOutput(outputFor(kept));
    execution.end(false, Date.now());
  };
  const query = cell.document.getText().trim();
  if (query === '') {
    await fail('The cell is empty: write a UDM search such as metadata.event_type = "USER_LOGIN".');
    return;
  }
  const errors = queryErrors(query);
  if (errors.length > 0) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    await fail(`The query has errors, so no search was spent: ${errors[0]}${more}. Fix it and run the cell again.`);
    return;
  }
  const abort = new AbortController();
  const sub = execution.token.onCancellationRequested(() => abort.abort());
  try {
    const search = services.search.require();
    const { spec } = effectiveTimeRange(services, cell);
    const window = resolveTimeRange(spec, started);
    const settings = cellSettings(cell.metadata);
    const limit = Math.min(UDM_SEARCH_MAX_LIMIT, settings.limit ?? services.connection().settings.search.defaultLimit);
    const client = search.controller.getClient();
    const referenceLists = services.referenceLists.entries() ?? {};
    const stats = compileStatistics(query, { referenceLists });
    if (stats) {
      // The same fetch as the statistics view: one search, the rest only when approved and within
      // the hourly budget; what stops it early leaves a table marked partial. The table computes
      // in a worker, so a long one never freezes the editor and the cell's Stop ends it.
      const statistics = services.statistics.require();
      const { fetched, result } = await statistics.table({
        client,
        query,
        compiled: stats,
        window,
        referenceLists,
        signal: abort.signal,
      });
      const kept = keepStatistics(
        {
          ranAt: new Date(started).toISOString(),
          durationMs: Date.now() - started,
          query,
          window: { start: window.start, end: window.end },
          eventsFetched: fetched.events.length,
          searches: fetched.searches,
          ...(fetched.partial || execution.token.isCancellationRequested
            ? { partial: fetched.partial ?? 'cancelled before every event was fetched' }
            : {}),
          timeZone: result.timeZone,
          columns: result.columns,
          rows: result.rows,
          warnings: result.warnings,
        },
        keepRows(),
      );
      await execution.replaceOutput(outputFor(kept));
      execution.end(!kept.partial, Date.now());
      return;
    }
    const response = await client.udmSearch(
      { query, startTime: window.startMs, endTime: window.endMs, limit },
      abort.signal,
    );
    if (execution.token.isCancellationRequested) throw new vscode.CancellationError();
    const kept = keepResults(
      {
        ranAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        query,
        window: { start: window.start, end: window.end },
        moreDataAvailable: response.moreDataAvailable,
        events: response.events,
      },
      keepRows(),
    );
    await execution.replaceOutput(outputFor(kept));
    execution.end(true, Date.now());
    log.info(`cell ${cell.index + 1}: ${response.events.length} events in ${Date.now() - started} ms`);
  } catch (err) {
    if (execution.token.isCancellationRequested || isCancellation(err)) {
      await fail('Cancelled: the search was stopped and nothing was kept. Run the cell again to retry.');
      return;
    }
    log.failure(`cell ${cell.index + 1}`, err);
    await fail(describeError(err));
  } finally {
    sub.dispose();
  }
}

/** The time range and the event limit of each UDM cell, in its status bar. */
export function registerCellStatusBar(context: vscode.ExtensionContext, services: Services): void {
  const statusEmitter = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    statusEmitter,
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType === NOTEBOOK_TYPE) statusEmitter.fire();
    }),
    vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, {
      onDidChangeCellStatusBarItems: statusEmitter.event,
      provideCellStatusBarItems(cell) {
        if (cell.kind !== vscode.NotebookCellKind.Code) return [];
        const items: vscode.NotebookCellStatusBarItem[] = [];
        const args = [cell.notebook.uri, cell.index];
        try {
          const { spec, from } = effectiveTimeRange(services, cell);
          const range = new vscode.NotebookCellStatusBarItem(
            `$(calendar) ${safeText(describeTimeRange(spec))}`,
            vscode.NotebookCellStatusBarAlignment.Right,
          );
          range.tooltip =
            from === 'cell'
              ? "This cell's own time range. Click to change it."
              : from === 'notebook'
                ? "The notebook's time range. Click to give this cell its own."
                : 'The search time range (the notebook has none). Click to give this cell its own.';
          range.command = {
            title: 'Set Cell Time Range',
            command: 'cloudbench.notebook.setCellTimeRange',
            arguments: args,
          };
          items.push(range);
        } catch {
          // Search did not start: nothing to show.
        }
        const own = cellSettings(cell.metadata).limit;
        const limit = own ?? services.connection().settings.search.defaultLimit;
        const limitItem = new vscode.NotebookCellStatusBarItem(
          `$(list-ordered) ≤ ${limit.toLocaleString('en-US')} events`,
          vscode.NotebookCellStatusBarAlignment.Right,
        );
        limitItem.tooltip = own
          ? "This cell's own event limit. Click to change it."
          : 'The default event limit (cloudbench.search.defaultLimit). Click to give this cell its own.';
        limitItem.command = { title: 'Set Cell Limit', command: 'cloudbench.notebook.setCellLimit', arguments: args };
        items.push(limitItem);
        return items;
      },
    }),
  );
}

/** Row actions (pivots) from the results renderer. */
export function answerRenderer(context: vscode.ExtensionContext, services: Services): void {
  const messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  context.subscriptions.push(
    messaging.onDidReceiveMessage(({ message }) => {
      const m = message as { type?: unknown; action?: unknown; value?: unknown; start?: unknown; end?: unknown };
      if (m?.type !== 'pivot' || !isPivotAction(m.action) || typeof m.value !== 'string' || m.value.length > 4096) {
        log.warn('ignored a malformed message from the notebook renderer');
        return;
      }
      const window = windowOf(m.start, m.end);
      const action = m.action;
      const value = m.value;
      void (async () => {
        try {
          const search = services.search.require();
          await search.controller.pivot(action, value, window ?? search.controller.currentWindow());
        } catch (err) {
          if (!isCancellation(err))
            void vscode.window.showErrorMessage(
              `Notebook row action failed: ${safeText(describeError(err), 'plain', MESSAGE_LIMIT)}`,
            );
        }
      })();
    }),
  );
}

function windowOf(start: unknown, end: unknown): ResolvedWindow | undefined {
  if (typeof start !== 'string' || typeof end !== 'string') return undefined;
  const startMs = Date.parse(start);
  const endMs = Date.parse(end);
  return Number.isFinite(startMs) && Number.isFinite(endMs) && startMs < endMs
    ? { startMs, endMs, start, end }
    : undefined;
}
