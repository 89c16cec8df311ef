// The pivot commands: what SecOps knows about an artifact, an asset, a user or an event, asked
// for by value (a results row, a notebook row) or entered by the user.
import * as vscode from 'vscode';
import { PIVOT_LABELS, PRODUCT_ID, type PivotAction } from '../../../core/secops/results/pivots';
import { checkDomain, checkHash, checkIp, checkMac } from '../../../core/secops/params';
import { resolveTimeRange } from '../../../core/secops/timerange';
import type { CommandTable } from '../../../platform/command-table';
import type { SearchContext } from './context';

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

const eventId = (v: string): string | undefined =>
  /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) ? undefined : 'Enter an event ID (metadata.id, base64).';

const ipProblem = (v: string): string | undefined => check(() => checkIp(v, 'IP address'));

const LIST_ASSETS_CHOICES: PivotChoice[] = [
  choice('assets.domain', 'Domain name', 'evil.example.com', (v) => check(() => checkDomain(v, 'domain'))),
  choice('assets.ip', 'Destination IP address', '203.0.113.9', ipProblem),
  choice('assets.md5', 'MD5 hash', '32 hex digits', (v) => check(() => checkHash('md5', v, 'MD5'))),
  choice('assets.sha1', 'SHA-1 hash', '40 hex digits', (v) => check(() => checkHash('sha1', v, 'SHA-1'))),
  choice('assets.sha256', 'SHA-256 hash', '64 hex digits', (v) => check(() => checkHash('sha256', v, 'SHA-256'))),
];

const hostnameProblem = (v: string): string | undefined =>
  v === '' || /\s/.test(v) ? 'Enter a hostname without spaces.' : undefined;
const macProblem = (v: string): string | undefined => check(() => checkMac(v, 'MAC address'));

const LIST_ASSET_EVENTS_CHOICES: PivotChoice[] = [
  choice('assetEvents.hostname', 'Hostname', 'host-a.corp.example', hostnameProblem),
  choice('assetEvents.ip', 'IP address', '10.0.0.5', ipProblem),
  choice('assetEvents.mac', 'MAC address', '00:1a:2b:3c:4d:5e', macProblem),
  choice('assetEvents.productId', 'Asset product ID', 'CS:1234-5678', (v) =>
    PRODUCT_ID.test(v) ? undefined : 'Enter a two-letter type, a colon and the ID, such as CS:1234-5678.',
  ),
];

const IOC_DETAILS_CHOICES: PivotChoice[] = [
  choice('iocDetails.domain', 'Domain name', 'evil.example.com', (v) => check(() => checkDomain(v, 'domain'))),
  choice('iocDetails.ip', 'Destination IP address', '203.0.113.9', ipProblem),
];

const ASSET_ALIASES_CHOICES: PivotChoice[] = [
  choice('assetAliases.hostname', 'Hostname', 'host-a.corp.example', hostnameProblem),
  choice('assetAliases.ip', 'IP address', '10.0.0.5', ipProblem),
  choice('assetAliases.mac', 'MAC address', '00:1a:2b:3c:4d:5e', macProblem),
  choice('assetAliases.productId', 'Asset product ID', '1234 (or CS:1234)', (v) =>
    /^(?:[A-Za-z]{2}:)?\d+$/.test(v) ? undefined : 'Enter the numeric product ID, such as 1234.',
  ),
];

const USER_ALIASES_CHOICES: PivotChoice[] = [
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
];

const GET_EVENT_CHOICES: PivotChoice[] = [choice('fullEvent', 'Event ID', 'metadata.id (base64)', eventId)];

const GET_RAW_LOG_CHOICES: PivotChoice[] = [choice('rawLog', 'Event ID', 'metadata.id (base64)', eventId)];

/**
 * Runs a pivot on `value` (of `kind`, else the first kind it fits), or asks what the user has and
 * for its value.
 */
async function pivot(
  ctx: SearchContext,
  title: string,
  choices: PivotChoice[],
  value: unknown,
  kind: unknown,
): Promise<void> {
  let action: PivotAction | undefined;
  let text: string | undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    text = value.trim();
    action =
      choices.find((c) => c.action === kind)?.action ?? choices.find((c) => c.validate(text!) === undefined)?.action;
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
  await ctx.controller.pivot(action, text, resolveTimeRange(ctx.timeRange.spec, Date.now()));
}

/** A pivot command: `title` over `choices`, for the value and kind given (or asked for). */
const pivotCommand =
  (title: string, choices: Parameters<typeof pivot>[2]) =>
  (ctx: SearchContext, value?: unknown, kind?: unknown): Promise<void> =>
    pivot(ctx, title, choices, value, kind);

export const listAssets = pivotCommand('Find Assets for Artifact', LIST_ASSETS_CHOICES);
export const listAssetEvents = pivotCommand('Show Events for Asset', LIST_ASSET_EVENTS_CHOICES);
export const iocDetails = pivotCommand('Show IoC Details', IOC_DETAILS_CHOICES);
export const assetAliases = pivotCommand('Show Asset Aliases', ASSET_ALIASES_CHOICES);
export const userAliases = pivotCommand('Show User Aliases', USER_ALIASES_CHOICES);
export const getEvent = pivotCommand('Open Event by ID', GET_EVENT_CHOICES);
export const getRawLog = pivotCommand('Open Raw Log by Event ID', GET_RAW_LOG_CHOICES);

export const PIVOT_COMMANDS: CommandTable<SearchContext> = {
  'cloudbench.search.listAssets': listAssets,
  'cloudbench.search.listAssetEvents': listAssetEvents,
  'cloudbench.search.iocDetails': iocDetails,
  'cloudbench.search.assetAliases': assetAliases,
  'cloudbench.search.userAliases': userAliases,
  'cloudbench.search.getEvent': getEvent,
  'cloudbench.search.getRawLog': getRawLog,
};
