// Pivots: the follow-up calls a value in the results offers, each a small handler keyed by the call
// it makes (what it asks for is decided in core/secops/results/pivot-requests), run with progress and
// cancel. Listings of rows open a panel of their own; a raw log or a full event opens a document.
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import { decodeLogBytes, type SecOpsClient, type SecOpsMethod } from '../../core/secops/client';
import { pivotRequest, type PivotCall, type PivotRequest } from '../../core/secops/results/pivot-requests';
import { PIVOT_LABELS, type PivotAction } from '../../core/secops/results/pivots';
import type { ResultKind } from '../../core/secops/results/fields';
import type { ResolvedWindow } from '../../core/secops/timerange';
import type { PanelSlot } from './panel';
import type { SearchContext } from './context';
import { eventTitle } from '../shared/documents';
import type { ShownRows } from './run-store';

/** Where a pivot starts from: a row of a run, and the panel a restored pivot runs again in. */
export interface PivotOrigin {
  runId?: string;
  row?: number;
  slot?: PanelSlot;
}

/** What a pivot's handler gets: the request, a client, and how to show what it found. */
interface PivotRun<C extends PivotCall> {
  request: Extract<PivotRequest, { call: C }>;
  value: string;
  window: ResolvedWindow;
  client: SecOpsClient;
  signal: AbortSignal;
  span: { startTime: number; endTime: number };
  context: SearchContext;
  origin: PivotOrigin | undefined;
  quota: <T>(method: SecOpsMethod, call: () => Promise<T>) => Promise<T>;
  /** Shows rows in a pivot panel that says where they came from. */
  show: (kind: ResultKind, title: string, rows: unknown[], extra: ShownRows) => void;
}

type PivotHandlers = { [C in PivotCall]: (run: PivotRun<C>) => Promise<void> };

const HANDLERS: PivotHandlers = {
  assetEvents: async ({ request: { asset }, value, window, client, signal, span, quota, show }) => {
    const res = await quota('ListEvents', () => client.listEvents({ asset, ...span }, signal));
    show('assetEvents', `Events for ${value}`, res.events, {
      uri: res.uri,
      window,
      asset,
      moreDataAvailable: res.moreDataAvailable || res.events.length >= 10_000,
    });
  },
  assets: async ({ request: { artifact }, value, window, client, signal, span, quota, show }) => {
    const res = await quota('ListAssets', () => client.listAssets({ artifact, ...span }, signal));
    show('assets', `Assets for ${value}`, res.assets, { uri: res.uri, window });
  },
  iocDetails: async ({ request: { artifact }, value, client, signal, quota, show }) => {
    const res = await quota('ListIoCDetails', () => client.listIocDetails({ artifact }, signal));
    show('iocDetails', `IoC details for ${value}`, res.sources, { uri: res.uri });
    if (res.sources.length === 0) void vscode.window.showInformationMessage(`No IoC source lists ${safeText(value)}.`);
  },
  assetAliases: async ({ request: { asset }, value, window, client, signal, span, quota, show }) => {
    const res = await quota('ListAssetAliases', () => client.listAssetAliases({ asset, ...span }, signal));
    show('assetAliases', `Aliases of ${value}`, res.aliases, { window });
  },
  userAliases: async ({ request: { user }, value, window, client, signal, span, quota, show }) => {
    const res = await quota('ListUserAliases', () => client.listUserAliases({ user, ...span }, signal));
    show('userAliases', `Aliases of user ${value}`, res.userAliases, { window });
  },
  rawLog: async ({ request: { name }, client, signal, quota, context, origin }) => {
    const res = await quota('GetLog', () => client.getLog(name, signal));
    const text = decodeLogBytes(res.log.logBytes);
    const header = `# Raw log of event ${name}\n# source product: ${res.log.sourceProduct ?? 'unknown'}, type: ${res.log.type ?? 'unknown'}\n\n`;
    await context.documents.open(`Raw log ${eventTitle(rowOf(context, origin), name)}`, 'log', header + text);
  },
  fullEvent: async ({ request: { name }, client, signal, quota, context }) => {
    const res = await quota('GetEvent', () => client.getEvent(name, signal));
    await context.documents.open(`Event ${eventTitle(res.udm, name)}`, 'json', JSON.stringify(res.udm, null, 2));
  },
};

/** Runs a pivot with progress and cancel; `window` bounds the calls that take a time range. */
export async function runPivot(
  context: SearchContext,
  action: PivotAction,
  value: string,
  window: ResolvedWindow,
  origin?: PivotOrigin,
): Promise<void> {
  const client = context.getClient();
  const label = `${PIVOT_LABELS[action]}: ${safeText(value)}`;
  const source = sourceOf(context, origin?.runId);
  const pivot = { action, value };
  const request = pivotRequest(action, value);
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: label, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      const signal = controller.signal;
      const run: PivotRun<PivotCall> = {
        request,
        value,
        window,
        client,
        signal,
        span: { startTime: window.startMs, endTime: window.endMs },
        context,
        origin,
        quota: (method, call) => context.withQuota(method, call, signal, (message) => progress.report({ message })),
        show: (kind, title, rows, extra) =>
          void context.showRows(kind, title, rows, {
            ...extra,
            ...(source ? { source } : {}),
            ...(origin?.slot ? { slot: origin.slot } : {}),
            pivot,
          }),
      };
      try {
        await (HANDLERS[request.call] as (run: PivotRun<PivotCall>) => Promise<void>)(run);
      } finally {
        sub.dispose();
      }
    },
  );
}

/** IoC matches discovered since the window's start. */
export async function showIocMatches(context: SearchContext, window: ResolvedWindow): Promise<void> {
  const client = context.getClient();
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Listing IoC matches', cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        const res = await context.withQuota(
          'ListIoCs',
          () => client.listIocs({ startTime: window.startMs }, controller.signal),
          controller.signal,
          (message) => progress.report({ message }),
        );
        context.showRows('iocMatches', `IoC matches since ${window.start}`, res.matches, {
          window,
          moreDataAvailable: res.moreDataAvailable,
        });
      } finally {
        sub.dispose();
      }
    },
  );
}

/** Where a pivot from a run came from, as its panel says it ("from: <query>"). */
function sourceOf(context: SearchContext, runId: string | undefined): string | undefined {
  const run = runId ? context.store.get(runId) : undefined;
  if (!run) return undefined;
  return `from ${run.info.kind === 'udm' ? `"${run.info.title}"` : run.info.title}`;
}

/** The UDM event of a run's row, for titles. */
function rowOf(context: SearchContext, origin: PivotOrigin | undefined): unknown {
  const run = origin?.runId ? context.store.get(origin.runId) : undefined;
  if (!run || origin?.row === undefined) return undefined;
  const row = run.rows[origin.row] as { udm?: unknown } | undefined;
  return run.info.kind === 'udm' ? row?.udm : row;
}
