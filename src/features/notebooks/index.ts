// UDM notebooks: `.udmnb` files with Markdown and UDM cells that run through the same search
// client, rate limiter and budget as the rest of Search, keep bounded results in the file, and
// export as a Markdown report.
import { writeFileAtomic } from '../../platform/files';
import { chooseChartFolder } from './export-files';
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
import { computeTable, fetchForStatistics } from '../statistics';
import { getReferenceLists } from '../language';
import {
  keepStatistics,
  keepResults,
  keepRowsSetting,
  parseNotebook,
  serializeNotebook,
  MAX_CELL_LIMIT,
  type KeptOutput,
} from '../../core/notebook/format';
import { registerCommand } from '../../platform/commands';
import { getLogger } from '../../platform/log';
import type { Services } from '../services';
import { pickTimeRange, searchFeature } from '../search';
import { chartFolderName, notebookReport } from './report';
import {
  NOTEBOOK_TYPE,
  UDM_LANGUAGE,
  cellSettings,
  fromNotebookData,
  fromNotebookDocument,
  notebookTimeRange,
  outputFor,
  toNotebookData,
} from './convert';

const log = getLogger('notebooks');
export const CONTROLLER_ID = 'cloudbench.udm-notebook';
export const RENDERER_ID = 'cloudbench.udm-results';

class UdmNotebookSerializer implements vscode.NotebookSerializer {
  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    // A file that is not a notebook is refused (VS Code shows the message and opens nothing), so
    // saving can never overwrite what was there with an empty notebook.
    return toNotebookData(parseNotebook(new TextDecoder().decode(content)));
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    return new TextEncoder().encode(serializeNotebook(fromNotebookData(data)));
  }
}

function searchOrThrow(): NonNullable<ReturnType<typeof searchFeature>> {
  const search = searchFeature();
  if (!search) throw new Error('SecOps search did not start; see the Cloudbench log (Cloudbench: Show Logs).');
  return search;
}

/** The time range a cell runs over: its own, else the notebook's, else the search time range. */
export function effectiveTimeRange(cell: vscode.NotebookCell): {
  spec: TimeRangeSpec;
  from: 'cell' | 'notebook' | 'search';
} {
  const own = cellSettings(cell.metadata).timeRange;
  if (own) return { spec: own, from: 'cell' };
  const nb = notebookTimeRange(cell.notebook.metadata);
  if (nb) return { spec: nb, from: 'notebook' };
  return { spec: searchOrThrow().timeRange(), from: 'search' };
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

export function activateNotebooks(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new UdmNotebookSerializer(), {
      transientOutputs: false,
    }),
  );

  // ---- the controller ---------------------------------------------------------------------------
  const controller = vscode.notebooks.createNotebookController(CONTROLLER_ID, NOTEBOOK_TYPE, 'UDM Search');
  controller.supportedLanguages = [UDM_LANGUAGE];
  controller.supportsExecutionOrder = true;
  controller.description = 'Runs UDM cells with the SecOps Search API';
  context.subscriptions.push(controller);
  // The only kernel for UDM notebooks: preferred, so Run needs no kernel pick first.
  const prefer = (doc: vscode.NotebookDocument): void => {
    if (doc.notebookType === NOTEBOOK_TYPE)
      controller.updateNotebookAffinity(doc, vscode.NotebookControllerAffinity.Preferred);
  };
  vscode.workspace.notebookDocuments.forEach(prefer);
  context.subscriptions.push(vscode.workspace.onDidOpenNotebookDocument(prefer));
  let order = 0;

  const keepRows = (): number =>
    keepRowsSetting(vscode.workspace.getConfiguration('cloudbench.notebook').get<unknown>('keepRows'));

  const runCell = async (cell: vscode.NotebookCell): Promise<void> => {
    const execution = controller.createNotebookCellExecution(cell);
    execution.executionOrder = ++order;
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
      const search = searchOrThrow();
      const { spec } = effectiveTimeRange(cell);
      const window = resolveTimeRange(spec, started);
      const settings = cellSettings(cell.metadata);
      const limit = Math.min(
        UDM_SEARCH_MAX_LIMIT,
        settings.limit ?? services.connection().settings.search.defaultLimit,
      );
      const client = search.controller.getClient();
      const referenceLists = getReferenceLists() ?? {};
      const stats = compileStatistics(query, { referenceLists });
      if (stats) {
        // The same fetch as the statistics view: one search, the rest only when approved and within
        // the hourly budget; what stops it early leaves a table marked partial. The table computes
        // in a worker, so a long one never freezes the editor and the cell's Stop ends it.
        const fetched = await fetchForStatistics(client, stats, window, abort.signal);
        const result = await computeTable(services, query, referenceLists, fetched, abort.signal);
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
  };

  controller.executeHandler = async (cells) => {
    // One at a time, in order: later steps of a hunt often read what earlier ones found, and the
    // hourly budget is spent predictably.
    for (const cell of cells) {
      if (cell.kind !== vscode.NotebookCellKind.Code) continue;
      await runCell(cell);
    }
  };

  // ---- cell status bar: time range and limit ----------------------------------------------------
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
          const { spec, from } = effectiveTimeRange(cell);
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

  // ---- commands ---------------------------------------------------------------------------------
  const cellFrom = (uri: unknown, index: unknown): vscode.NotebookCell | undefined => {
    if (uri instanceof vscode.Uri && typeof index === 'number') {
      const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
      if (nb && index >= 0 && index < nb.cellCount) return nb.cellAt(index);
    }
    const editor = vscode.window.activeNotebookEditor;
    if (!editor || editor.notebook.notebookType !== NOTEBOOK_TYPE) return undefined;
    const sel = editor.selections[0];
    return sel && !sel.isEmpty ? editor.notebook.cellAt(sel.start) : undefined;
  };
  const activeNotebook = (uri: unknown): vscode.NotebookDocument => {
    if (uri instanceof vscode.Uri) {
      const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
      if (nb) return nb;
    }
    const nb = vscode.window.activeNotebookEditor?.notebook;
    if (!nb || nb.notebookType !== NOTEBOOK_TYPE) throw new Error('Open a UDM notebook (.udmnb) first.');
    return nb;
  };
  const updateCell = async (cell: vscode.NotebookCell, patch: Record<string, unknown>): Promise<void> => {
    const metadata: Record<string, unknown> = { ...cell.metadata, ...patch };
    for (const key of Object.keys(patch)) if (patch[key] === undefined) delete metadata[key];
    const edit = new vscode.WorkspaceEdit();
    edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, metadata)]);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('The notebook could not be changed.');
  };

  registerCommand(context, 'cloudbench.notebook.new', async () => {
    const data = new vscode.NotebookData([
      new vscode.NotebookCellData(
        vscode.NotebookCellKind.Markup,
        '# Hunt\n\nWhat are we looking for, and why?',
        'markdown',
      ),
      new vscode.NotebookCellData(
        vscode.NotebookCellKind.Code,
        'metadata.event_type = "USER_LOGIN" AND security_result.action = "BLOCK"',
        UDM_LANGUAGE,
      ),
    ]);
    const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
    await vscode.window.showNotebookDocument(doc);
  });

  registerCommand(context, 'cloudbench.notebook.setTimeRange', async (uri?: unknown) => {
    const nb = activeNotebook(uri);
    const current = notebookTimeRange(nb.metadata) ?? searchOrThrow().timeRange();
    const picked = await pickTimeRange(current);
    if (!picked) return;
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata({ ...nb.metadata, timeRange: picked })]);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('The notebook could not be changed.');
  });

  registerCommand(context, 'cloudbench.notebook.setCellTimeRange', async (uri?: unknown, index?: unknown) => {
    const cell = cellFrom(uri, index);
    if (!cell || cell.kind !== vscode.NotebookCellKind.Code) throw new Error('Select a UDM cell first.');
    const own = cellSettings(cell.metadata).timeRange;
    if (own) {
      const choice = await vscode.window.showQuickPick(
        [
          { label: 'Change this cell’s time range…', id: 'change' },
          { label: 'Use the notebook’s time range', id: 'clear' },
        ],
        { title: 'Cell Time Range', placeHolder: safeText(describeTimeRange(own)) },
      );
      if (!choice) return;
      if (choice.id === 'clear') {
        await updateCell(cell, { timeRange: undefined });
        return;
      }
    }
    const picked = await pickTimeRange(effectiveTimeRange(cell).spec);
    if (picked) await updateCell(cell, { timeRange: picked });
  });

  registerCommand(context, 'cloudbench.notebook.setCellLimit', async (uri?: unknown, index?: unknown) => {
    const cell = cellFrom(uri, index);
    if (!cell || cell.kind !== vscode.NotebookCellKind.Code) throw new Error('Select a UDM cell first.');
    const current = cellSettings(cell.metadata).limit;
    const value = await vscode.window.showInputBox({
      title: 'Cell Event Limit',
      prompt: `Most events this cell asks for (1–${MAX_CELL_LIMIT.toLocaleString('en-US')}); empty uses the default`,
      value: current !== undefined ? String(current) : '',
      validateInput: (v) => {
        const t = v.trim().replace(/[,_]/g, '');
        if (t === '') return undefined;
        const n = Number(t);
        return Number.isInteger(n) && n >= 1 && n <= MAX_CELL_LIMIT
          ? undefined
          : `Enter a whole number from 1 to ${MAX_CELL_LIMIT.toLocaleString('en-US')}.`;
      },
    });
    if (value === undefined) return;
    const t = value.trim().replace(/[,_]/g, '');
    await updateCell(cell, { limit: t === '' ? undefined : Number(t) });
  });

  registerCommand(context, 'cloudbench.notebook.exportMarkdown', async (uri?: unknown) => {
    const nb = activeNotebook(uri);
    const base =
      nb.uri.path
        .split('/')
        .pop()
        ?.replace(/\.udmnb$/i, '') || 'hunt';
    const target = await vscode.window.showSaveDialog({
      title: 'Export Notebook as Markdown',
      filters: { Markdown: ['md'] },
      defaultUri: nb.isUntitled ? undefined : vscode.Uri.joinPath(nb.uri, '..', `${base}.md`),
    });
    if (!target) return;
    const reportName = target.path.split('/').pop()?.replace(/\.md$/i, '') || base;
    const file = fromNotebookDocument(nb);
    const planned = notebookReport(file, base, chartFolderName(reportName));
    // Chart files of an earlier export are replaced only when the user says so.
    const folder = await chooseChartFolder(
      target,
      reportName,
      planned.charts.map((c) => c.file),
    );
    if (folder === undefined) return;
    const report = folder === chartFolderName(reportName) ? planned : notebookReport(file, base, folder);
    const encoder = new TextEncoder();
    // The images first: a report never links to a chart that is not there.
    const folderUri = vscode.Uri.joinPath(target, '..', folder);
    if (report.charts.length > 0) await vscode.workspace.fs.createDirectory(folderUri);
    for (const chart of report.charts)
      await writeFileAtomic(vscode.Uri.joinPath(folderUri, chart.file), encoder.encode(chart.svg));
    await writeFileAtomic(target, encoder.encode(report.markdown));
    const images =
      report.charts.length === 0
        ? ''
        : ` with ${report.charts.length} chart image${report.charts.length === 1 ? '' : 's'} in ${safeText(folder)}`;
    const choice = await vscode.window.showInformationMessage(
      `Exported the notebook to ${safeText(vscode.workspace.asRelativePath(target))}${images}.`,
      'Open',
    );
    if (choice === 'Open') await vscode.window.showTextDocument(target);
  });

  // ---- row actions from the renderer ------------------------------------------------------------
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
          const search = searchOrThrow();
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
