// SecOps search in the editor: Run Query (command, CodeLens, Ctrl+Enter), the time range, the
// udmSearch budget in the status bar, and the pivot commands.
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { analyze } from '../../udm';
import { CancelledError } from '../../core/google/errors';
import { PIVOT_LABELS, PRODUCT_ID, type PivotAction } from '../../core/secops/results/pivots';
import {
  PRESET_LABELS,
  describeTimeRange,
  isTimeRangeSpec,
  parseTimeInput,
  resolveTimeRange,
  type ResolvedWindow,
  type TimePreset,
  type TimeRangeSpec,
} from '../../core/secops/timerange';
import { checkDomain, checkHash, checkIp, checkMac } from '../../core/secops/params';
import {
  addToHistory,
  readHistory,
  readSaved,
  removeSaved,
  renameSaved,
  saveQuery,
  type SavedQuery,
} from '../../core/secops/history';
import { registerCommand } from '../../platform/commands';
import type { Services } from '../services';
import { keptRunsOf } from './keeping';
import { SearchController } from './controller';
import { SearchViewProvider, queryOfNode, type SearchViewNode } from './view';
import { PIVOT_VIEW_TYPE, RESULTS_VIEW_TYPE } from './panel';

const TIME_RANGE_KEY = 'cloudbench.search.timeRange';
const HISTORY_KEY = 'cloudbench.search.history';
const SAVED_KEY = 'cloudbench.search.savedQueries';

/** Set while the feature is active: redraws the Search view after history or saved queries change. */
let refreshSearchView = (): void => undefined;

let shared: { controller: SearchController; timeRange: () => TimeRangeSpec } | undefined;
/** The running search feature: notebooks run cells with its client, rate limiter and budget. */
export function searchFeature(): { controller: SearchController; timeRange: () => TimeRangeSpec } | undefined {
  return shared;
}

export function activateSearch(context: vscode.ExtensionContext, services: Services): void {
  const controller = new SearchController(services, { runs: keptRunsOf(context), state: context.globalState });
  context.subscriptions.push(controller);

  const timeRange = new TimeRangeState(context, services);
  controller.currentWindow = () => resolveTimeRange(timeRange.spec, Date.now());
  controller.confirmQuery = confirmDespiteErrors;
  controller.setTimeRange = (spec) => timeRange.set(spec);
  // Results and pivot panels come back after a window reload with the rows of the run they showed
  // (kept on disk); nothing runs until the user asks.
  for (const [viewType, kind] of [
    [RESULTS_VIEW_TYPE, 'query'],
    [PIVOT_VIEW_TYPE, 'pivot'],
  ] as const) {
    context.subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          context.subscriptions.push(await controller.restorePanel(panel, kind, state));
        },
      }),
    );
  }
  shared = { controller, timeRange: () => timeRange.spec };
  context.subscriptions.push({ dispose: () => (shared = undefined) });

  // ---- status bar -------------------------------------------------------------------------------
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

  // ---- CodeLens ---------------------------------------------------------------------------------
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

  // ---- commands ---------------------------------------------------------------------------------
  const run = async (uri: unknown, selectionOnly: boolean): Promise<void> => {
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
    const window = resolveTimeRange(timeRange.spec, Date.now());
    await controller.runQuery(query, window, services.connection().settings.search.defaultLimit);
  };
  registerCommand(context, 'cloudbench.search.run', (uri?: unknown) => run(uri, false));
  registerCommand(context, 'cloudbench.search.runSelection', (uri?: unknown) => run(uri, true));
  registerCommand(context, 'cloudbench.search.setTimeRange', async (spec?: unknown) => {
    if (isTimeRangeSpec(spec)) {
      resolveTimeRange(spec, Date.now());
      await timeRange.set(spec);
      return;
    }
    const picked = await pickTimeRange(timeRange.spec);
    if (picked) await timeRange.set(picked);
  });
  registerCommand(context, 'cloudbench.search.showIocMatches', async () => {
    await controller.showIocMatches(resolveTimeRange(timeRange.spec, Date.now()));
  });

  // ---- history and saved queries ----------------------------------------------------------------
  context.subscriptions.push(
    controller.onDidRunQuery(({ query, events }) => {
      const history = addToHistory(readHistory(context.workspaceState.get(HISTORY_KEY)), {
        query,
        ranAt: new Date().toISOString(),
        timeRange: describeTimeRange(timeRange.spec),
        events,
      });
      void context.workspaceState.update(HISTORY_KEY, history).then(() => refreshSearchView());
    }),
  );
  const runStored = async (query: string): Promise<void> => {
    await controller.runQuery(
      query,
      resolveTimeRange(timeRange.spec, Date.now()),
      services.connection().settings.search.defaultLimit,
    );
  };
  registerCommand(context, 'cloudbench.search.showHistory', async () => {
    const picked = await pickStoredQuery(context);
    if (!picked) return;
    if (picked.open) {
      const doc = await vscode.workspace.openTextDocument({ content: picked.query, language: 'udm' });
      await vscode.window.showTextDocument(doc);
      return;
    }
    await runStored(picked.query);
  });
  // ---- the Search view ----------------------------------------------------------------------------
  const searchView = new SearchViewProvider(context.workspaceState, { history: HISTORY_KEY, saved: SAVED_KEY });
  refreshSearchView = () => searchView.refresh();
  context.subscriptions.push(
    searchView,
    vscode.window.createTreeView('cloudbench.search', { treeDataProvider: searchView, showCollapseAll: false }),
    { dispose: () => (refreshSearchView = () => undefined) },
  );
  const nodeQuery = (node: unknown): string => {
    const query = queryOfNode(node);
    if (query === undefined) throw new Error('Pick a query in the Search view first.');
    return query;
  };
  registerCommand(context, 'cloudbench.search.view.run', async (node?: unknown) => runStored(nodeQuery(node)));
  registerCommand(context, 'cloudbench.search.view.open', async (node?: unknown) => {
    const doc = await vscode.workspace.openTextDocument({ content: nodeQuery(node), language: 'udm' });
    await vscode.window.showTextDocument(doc);
  });
  registerCommand(context, 'cloudbench.search.view.rename', async (node?: unknown) => {
    const n = node as SearchViewNode | undefined;
    if (n?.kind !== 'saved') throw new Error('Pick a saved query in the Search view first.');
    const saved = readSaved(context.workspaceState.get(SAVED_KEY));
    const name = await vscode.window.showInputBox({
      title: `Rename Saved Query "${safeText(n.saved.name)}"`,
      value: n.saved.name,
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          renameSaved(saved, n.saved.name, v);
          return undefined;
        } catch (err) {
          return safeText((err as Error).message, 'plain', MESSAGE_LIMIT);
        }
      },
    });
    if (name === undefined || name.trim() === n.saved.name) return;
    await context.workspaceState.update(SAVED_KEY, renameSaved(saved, n.saved.name, name));
    searchView.refresh();
  });
  registerCommand(context, 'cloudbench.search.view.delete', async (node?: unknown) => {
    const n = node as SearchViewNode | undefined;
    if (n?.kind !== 'saved') throw new Error('Pick a saved query in the Search view first.');
    const answer = await vscode.window.showWarningMessage(
      `Delete the saved query "${safeText(n.saved.name)}"?`,
      { modal: true },
      'Delete',
    );
    if (answer !== 'Delete') return;
    await context.workspaceState.update(
      SAVED_KEY,
      removeSaved(readSaved(context.workspaceState.get(SAVED_KEY)), n.saved.name),
    );
    searchView.refresh();
  });
  registerCommand(context, 'cloudbench.search.view.refresh', () => searchView.refresh());
  registerCommand(context, 'cloudbench.search.view.save', (node?: unknown) =>
    vscode.commands.executeCommand('cloudbench.search.saveQuery', node),
  );

  registerCommand(context, 'cloudbench.search.saveQuery', async (uri?: unknown) => {
    const fromView = queryOfNode(uri);
    let query: string;
    if (fromView !== undefined) query = fromView.trim();
    else {
      const document = await documentFor(uri);
      const editor = vscode.window.activeTextEditor?.document === document ? vscode.window.activeTextEditor : undefined;
      query = (editor && !editor.selection.isEmpty ? document.getText(editor.selection) : document.getText()).trim();
    }
    if (query === '') throw new Error('The query is empty: there is nothing to save.');
    const saved = readSaved(context.workspaceState.get(SAVED_KEY));
    const name = await vscode.window.showInputBox({
      title: 'Save UDM Query',
      prompt: 'A name for this query (an existing name is replaced)',
      value: query.replace(/\s+/g, ' ').slice(0, 60),
      ignoreFocusOut: true,
      validateInput: (v) =>
        v.trim() === '' ? 'Enter a name.' : v.trim().length > 200 ? 'Keep the name under 200 characters.' : undefined,
    });
    if (name === undefined) return;
    await context.workspaceState.update(SAVED_KEY, saveQuery(saved, name, query, new Date()));
    refreshSearchView();
    void vscode.window.showInformationMessage(
      `Saved the query as "${safeText(name.trim())}". Run it again with "Cloudbench: Run UDM Query from History…".`,
    );
  });

  const pivotCommand = (id: string, title: string, choices: PivotChoice[]): void => {
    registerCommand(context, id, async (value?: unknown, kind?: unknown) => {
      let action: PivotAction | undefined;
      let text: string | undefined;
      if (typeof value === 'string' && value.trim() !== '') {
        text = value.trim();
        action =
          choices.find((c) => c.action === kind)?.action ??
          choices.find((c) => c.validate(text!) === undefined)?.action;
        if (!action) throw new Error(`"${text}" is not a ${choices.map((c) => c.label.toLowerCase()).join(' or ')}.`);
      } else {
        const choice =
          choices.length === 1
            ? choices[0]
            : await vscode.window.showQuickPick(
                choices.map((c) => ({ ...c, description: c.example })),
                { title, placeHolder: 'What do you have?' },
              );
        if (!choice) return;
        text = await vscode.window.showInputBox({
          title: `${title}: ${choice.label}`,
          prompt: choice.prompt,
          placeHolder: choice.example,
          ignoreFocusOut: true,
          validateInput: (v) => choice.validate(v.trim()),
        });
        if (text === undefined) return;
        text = text.trim();
        action = choice.action;
      }
      await controller.pivot(action, text, resolveTimeRange(timeRange.spec, Date.now()));
    });
  };
  pivotCommand('cloudbench.search.listAssets', 'Find Assets for Artifact', [
    choice('assets.domain', 'Domain name', 'evil.example.com', (v) => check(() => checkDomain(v, 'domain'))),
    choice('assets.ip', 'Destination IP address', '203.0.113.9', (v) => check(() => checkIp(v, 'IP address'))),
    choice('assets.md5', 'MD5 hash', '32 hex digits', (v) => check(() => checkHash('md5', v, 'MD5'))),
    choice('assets.sha1', 'SHA-1 hash', '40 hex digits', (v) => check(() => checkHash('sha1', v, 'SHA-1'))),
    choice('assets.sha256', 'SHA-256 hash', '64 hex digits', (v) => check(() => checkHash('sha256', v, 'SHA-256'))),
  ]);
  pivotCommand('cloudbench.search.listAssetEvents', 'Show Events for Asset', [
    choice('assetEvents.hostname', 'Hostname', 'host-a.corp.example', (v) =>
      v === '' || /\s/.test(v) ? 'Enter a hostname without spaces.' : undefined,
    ),
    choice('assetEvents.ip', 'IP address', '10.0.0.5', (v) => check(() => checkIp(v, 'IP address'))),
    choice('assetEvents.mac', 'MAC address', '00:1a:2b:3c:4d:5e', (v) => check(() => checkMac(v, 'MAC address'))),
    choice('assetEvents.productId', 'Asset product ID', 'CS:1234-5678', (v) =>
      PRODUCT_ID.test(v) ? undefined : 'Enter a two-letter type, a colon and the ID, such as CS:1234-5678.',
    ),
  ]);
  pivotCommand('cloudbench.search.iocDetails', 'Show IoC Details', [
    choice('iocDetails.domain', 'Domain name', 'evil.example.com', (v) => check(() => checkDomain(v, 'domain'))),
    choice('iocDetails.ip', 'Destination IP address', '203.0.113.9', (v) => check(() => checkIp(v, 'IP address'))),
  ]);
  pivotCommand('cloudbench.search.assetAliases', 'Show Asset Aliases', [
    choice('assetAliases.hostname', 'Hostname', 'host-a.corp.example', (v) =>
      v === '' || /\s/.test(v) ? 'Enter a hostname without spaces.' : undefined,
    ),
    choice('assetAliases.ip', 'IP address', '10.0.0.5', (v) => check(() => checkIp(v, 'IP address'))),
    choice('assetAliases.mac', 'MAC address', '00:1a:2b:3c:4d:5e', (v) => check(() => checkMac(v, 'MAC address'))),
    choice('assetAliases.productId', 'Asset product ID', '1234 (or CS:1234)', (v) =>
      /^(?:[A-Za-z]{2}:)?\d+$/.test(v) ? undefined : 'Enter the numeric product ID, such as 1234.',
    ),
  ]);
  pivotCommand('cloudbench.search.userAliases', 'Show User Aliases', [
    choice('userAliases.email', 'Email address', 'alice@example.com', (v) =>
      /^[^\s@]+@[^\s@]+$/.test(v) ? undefined : 'Enter an email address.',
    ),
    choice('userAliases.username', 'User name', 'alice', (v) => (v === '' ? 'Enter a user name.' : undefined)),
    choice('userAliases.windowsSid', 'Windows SID', 'S-1-5-21-…', (v) =>
      /^S-\d-\d+(-\d+)*$/i.test(v) ? undefined : 'Enter a Windows SID such as S-1-5-21-1004.',
    ),
    choice('userAliases.employeeId', 'Employee ID', 'E10247', (v) =>
      v === '' || /\s/.test(v) ? 'Enter an employee ID without spaces.' : undefined,
    ),
    choice('userAliases.productObjectId', 'User product object ID', 'a GUID such as 3f2b…', (v) =>
      v === '' || /\s/.test(v) ? 'Enter a product object ID without spaces.' : undefined,
    ),
  ]);
  const eventId = (v: string): string | undefined =>
    /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) ? undefined : 'Enter an event ID (metadata.id, base64).';
  pivotCommand('cloudbench.search.getEvent', 'Open Event by ID', [
    choice('fullEvent', 'Event ID', 'metadata.id (base64)', eventId),
  ]);
  pivotCommand('cloudbench.search.getRawLog', 'Open Raw Log by Event ID', [
    choice('rawLog', 'Event ID', 'metadata.id (base64)', eventId),
  ]);
}

interface PivotChoice extends vscode.QuickPickItem {
  action: PivotAction;
  example: string;
  prompt: string;
  validate(value: string): string | undefined;
}

function choice(
  action: PivotAction,
  label: string,
  example: string,
  validate: (v: string) => string | undefined,
): PivotChoice {
  return { action, label, example, prompt: `${PIVOT_LABELS[action]}: enter the ${label.toLowerCase()}`, validate };
}

function check(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The first line that is not blank or a comment: where the CodeLens sits. */
function firstQueryLine(document: vscode.TextDocument): number | undefined {
  for (let i = 0; i < document.lineCount; i++) {
    const text = document.lineAt(i).text.trim();
    if (text !== '' && !text.startsWith('//')) return i;
  }
  return document.lineCount > 0 ? 0 : undefined;
}

async function documentFor(uri: unknown): Promise<vscode.TextDocument> {
  if (uri instanceof vscode.Uri) return vscode.workspace.openTextDocument(uri);
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new Error('Open a .udm file with the query to run.');
  return editor.document;
}

/** Each search spends one of 360 hourly searches; a query the checker already rejects is worth a question. */
async function confirmDespiteErrors(query: string): Promise<boolean> {
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

type StoredItem = vscode.QuickPickItem & { query?: string; saved?: SavedQuery };

/** Saved queries, then the recent ones; buttons open a query in an editor or save/delete it. */
async function pickStoredQuery(
  context: vscode.ExtensionContext,
): Promise<{ query: string; open: boolean } | undefined> {
  const openButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('go-to-file'),
    tooltip: 'Open in an editor',
  };
  const deleteButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('trash'),
    tooltip: 'Delete this saved query',
  };
  const build = (): StoredItem[] => {
    const saved = readSaved(context.workspaceState.get(SAVED_KEY));
    const history = readHistory(context.workspaceState.get(HISTORY_KEY));
    const items: StoredItem[] = [];
    if (saved.length) items.push({ label: 'Saved', kind: vscode.QuickPickItemKind.Separator });
    for (const s of saved)
      items.push({
        label: `$(star-full) ${safeText(s.name)}`,
        detail: safeText(s.query.replace(/\s+/g, ' '), 'plain', MESSAGE_LIMIT),
        query: s.query,
        saved: s,
        buttons: [openButton, deleteButton],
      });
    if (history.length) items.push({ label: 'Recent', kind: vscode.QuickPickItemKind.Separator });
    for (const h of history) {
      items.push({
        label: safeText(h.query.replace(/\s+/g, ' '), 'plain', MESSAGE_LIMIT),
        description: `${new Date(h.ranAt).toLocaleString()} · ${safeText(h.timeRange)}${h.events !== undefined ? ` · ${h.events.toLocaleString('en-US')} events` : ''}`,
        query: h.query,
        buttons: [openButton],
      });
    }
    return items;
  };
  const pick = vscode.window.createQuickPick<StoredItem>();
  pick.title = 'Run Query from History';
  pick.placeholder = 'Pick a query to run with the current time range';
  pick.matchOnDetail = true;
  pick.items = build();
  if (pick.items.length === 0) {
    pick.dispose();
    void vscode.window.showInformationMessage('No UDM queries run or saved in this workspace yet.');
    return undefined;
  }
  return new Promise((resolve) => {
    let result: { query: string; open: boolean } | undefined;
    const subs: vscode.Disposable[] = [];
    subs.push(
      pick.onDidTriggerItemButton(async (e) => {
        if (e.button === openButton && e.item.query !== undefined) {
          result = { query: e.item.query, open: true };
          pick.hide();
        } else if (e.button === deleteButton && e.item.saved) {
          await context.workspaceState.update(
            SAVED_KEY,
            removeSaved(readSaved(context.workspaceState.get(SAVED_KEY)), e.item.saved.name),
          );
          refreshSearchView();
          pick.items = build();
        }
      }),
    );
    subs.push(
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0];
        if (item?.query !== undefined) result = { query: item.query, open: false };
        pick.hide();
      }),
    );
    subs.push(
      pick.onDidHide(() => {
        for (const s of subs.splice(0)) s.dispose();
        pick.dispose();
        resolve(result);
      }),
    );
    pick.show();
  });
}

class TimeRangeState {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  spec: TimeRangeSpec;

  constructor(
    private readonly context: vscode.ExtensionContext,
    services: Services,
  ) {
    context.subscriptions.push(this.emitter);
    const stored = context.workspaceState.get<unknown>(TIME_RANGE_KEY);
    this.spec = isTimeRangeSpec(stored)
      ? stored
      : { kind: 'preset', preset: services.connection().settings.search.defaultTimeRange };
    // Until the user picks a range in this workspace, the setting decides (also when it changes).
    context.subscriptions.push(
      services.onDidChangeSettings((change) => {
        if (!change.changed.has('search')) return;
        if (isTimeRangeSpec(context.workspaceState.get<unknown>(TIME_RANGE_KEY))) return;
        const preset = services.connection().settings.search.defaultTimeRange;
        if (this.spec.kind === 'preset' && this.spec.preset === preset) return;
        this.spec = { kind: 'preset', preset };
        this.emitter.fire();
      }),
    );
  }

  async set(spec: TimeRangeSpec): Promise<void> {
    this.spec = spec;
    await this.context.workspaceState.update(TIME_RANGE_KEY, spec);
    this.emitter.fire();
  }
}

export async function pickTimeRange(current: TimeRangeSpec): Promise<TimeRangeSpec | undefined> {
  type Item = vscode.QuickPickItem & { spec?: TimeRangeSpec };
  const presets: Item[] = (Object.keys(PRESET_LABELS) as TimePreset[]).map((preset) => ({
    label: PRESET_LABELS[preset],
    spec: { kind: 'preset', preset },
    ...(current.kind === 'preset' && current.preset === preset ? { description: '(current)' } : {}),
  }));
  const custom: Item = {
    label: 'Custom range…',
    detail:
      current.kind === 'custom'
        ? `Current: ${describeTimeRange(current)}`
        : 'Start and end as RFC 3339 times, "now" or offsets like -2h',
  };
  const picked = await vscode.window.showQuickPick<Item>([...presets, custom], {
    title: 'UDM Search Time Range',
    placeHolder: 'Events from…',
  });
  if (!picked) return undefined;
  if (picked.spec) return picked.spec;
  const now = Date.now();
  const start = await vscode.window.showInputBox({
    title: 'Custom time range: start (inclusive)',
    value: current.kind === 'custom' ? current.start : '-2h',
    prompt: 'RFC 3339 (2024-05-01T12:00:00Z), "now", or an offset such as -2h, -30m, -7d',
    ignoreFocusOut: true,
    validateInput: (v) => {
      const r = parseTimeInput(v, now);
      return 'error' in r ? r.error : undefined;
    },
  });
  if (start === undefined) return undefined;
  const startValue = parseTimeInput(start, now);
  if ('error' in startValue) throw new CancelledError();
  const end = await vscode.window.showInputBox({
    title: 'Custom time range: end (exclusive)',
    value: current.kind === 'custom' ? current.end : 'now',
    prompt: 'RFC 3339, "now", or an offset such as -1h',
    ignoreFocusOut: true,
    validateInput: (v) => {
      const r = parseTimeInput(v, now);
      if ('error' in r) return r.error;
      return Date.parse(r.value) <= Date.parse(startValue.value)
        ? `The end must come after the start (${startValue.value}).`
        : undefined;
    },
  });
  if (end === undefined) return undefined;
  const endValue = parseTimeInput(end, now);
  if ('error' in endValue) return undefined;
  return { kind: 'custom', start: startValue.value, end: endValue.value };
}

export type { ResolvedWindow };
