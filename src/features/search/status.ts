// What a UDM query editor shows around the query: the time range and the udmSearch budget in the
// status bar, and Run Query with the time range as CodeLenses.
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import { describeTimeRange } from '../../core/secops/timerange';
import type { Services } from '../services';
import type { SearchController } from './controller';
import type { TimeRangeState } from '../shared/time-range';

/** The time range and the hourly udmSearch budget, while a query is on screen. */
export function showSearchStatus(
  context: vscode.ExtensionContext,
  services: Services,
  controller: SearchController,
  timeRange: TimeRangeState,
): void {
  const rangeItem = vscode.window.createStatusBarItem(
    'cloudbench.search.timeRange',
    vscode.StatusBarAlignment.Right,
    101,
  );
  rangeItem.name = 'UDM Search Time Range';
  rangeItem.command = 'cloudbench.search.setTimeRange';
  const budgetItem = vscode.window.createStatusBarItem(
    'cloudbench.search.budget',
    vscode.StatusBarAlignment.Right,
    100,
  );
  budgetItem.name = 'UDM Search Budget';
  context.subscriptions.push(rangeItem, budgetItem);

  // The throttled state ends by itself: the item is redrawn then.
  let throttleTimer: ReturnType<typeof setTimeout> | undefined;
  context.subscriptions.push({ dispose: () => clearTimeout(throttleTimer) });
  const updateStatus = (): void => {
    rangeItem.text = `$(calendar) ${safeText(describeTimeRange(timeRange.spec))}`;
    rangeItem.tooltip = 'Time range of UDM searches and pivots. Click to change.';
    const budget = controller.budget();
    clearTimeout(throttleTimer);
    if (budget) {
      const until = budget.blockedUntil;
      const throttled = until !== undefined ? ` · throttled until ${new Date(until).toLocaleTimeString()}` : '';
      budgetItem.text = `$(dashboard) ${budget.remaining}/${budget.limit}${throttled}`;
      const refill = budget.nextRefillAt
        ? ` The next one frees up at ${new Date(budget.nextRefillAt).toLocaleTimeString()}.`
        : '';
      // A 429 says "slow down", not "the hour is spent": the count stays what the searches made it.
      const blocked = until
        ? ` The service asked to slow down (429): it takes searches again from ${new Date(until).toLocaleTimeString()}.`
        : '';
      budgetItem.tooltip = `UDM searches left this hour: ${budget.remaining} of ${budget.limit} (the Search API allows ${budget.limit} per hour).${blocked}${refill}`;
      budgetItem.backgroundColor =
        until !== undefined || budget.remaining < budget.limit * 0.1
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
      if (until !== undefined) throttleTimer = setTimeout(updateStatus, Math.max(0, until - Date.now()) + 50);
    } else {
      budgetItem.text = '$(dashboard) –';
      budgetItem.tooltip = 'UDM search budget unknown: check the SecOps settings.';
    }
    // Visible while a query is on screen, also when the results panel has the focus.
    const show = vscode.window.visibleTextEditors.some((e) => e.document.languageId === 'udm');
    if (show) {
      rangeItem.show();
      budgetItem.show();
    } else {
      rangeItem.hide();
      budgetItem.hide();
    }
  };
  context.subscriptions.push(
    controller.onDidChangeBudget(updateStatus),
    timeRange.onDidChange(updateStatus),
    vscode.window.onDidChangeVisibleTextEditors(updateStatus),
    vscode.workspace.onDidOpenTextDocument(updateStatus),
    services.onDidChangeSettings(updateStatus),
  );
  updateStatus();
}

/** Run Query and the time range above the first line of a query. */
export function showRunLenses(context: vscode.ExtensionContext, timeRange: TimeRangeState): void {
  const lensEmitter = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    lensEmitter,
    timeRange.onDidChange(() => lensEmitter.fire()),
    vscode.languages.registerCodeLensProvider(
      [
        { language: 'udm', scheme: 'file' },
        { language: 'udm', scheme: 'untitled' },
      ],
      {
        onDidChangeCodeLenses: lensEmitter.event,
        provideCodeLenses(document) {
          const line = firstQueryLine(document);
          if (line === undefined) return [];
          const range = new vscode.Range(line, 0, line, 0);
          return [
            new vscode.CodeLens(range, {
              title: '$(play) Run Query',
              command: 'cloudbench.search.run',
              arguments: [document.uri],
              tooltip: 'Run this UDM search (Ctrl+Enter)',
            }),
            new vscode.CodeLens(range, {
              title: `$(calendar) ${safeText(describeTimeRange(timeRange.spec))}`,
              command: 'cloudbench.search.setTimeRange',
              tooltip: 'Change the time range',
            }),
          ];
        },
      },
    ),
  );
}

/** The first line that is not blank or a comment: where the CodeLens sits. */
function firstQueryLine(document: vscode.TextDocument): number | undefined {
  for (let i = 0; i < document.lineCount; i++) {
    const text = document.lineAt(i).text.trim();
    if (text !== '' && !text.startsWith('//')) return i;
  }
  return document.lineCount > 0 ? 0 : undefined;
}
