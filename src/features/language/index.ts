import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  TransportKind,
  type CloseHandlerResult,
  type ErrorHandlerResult,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { registerCommand } from '../../platform/commands';
import { getLogger, showLogs } from '../../platform/log';
import {
  KNOWN_REFERENCE_LISTS_NOTIFICATION,
  REFERENCE_LISTS_NOTIFICATION,
  isKnownReferenceListsParams,
  isReferenceLists,
  type KnownReferenceListsParams,
  type ReferenceListsParams,
  type UdmInitializationOptions,
} from '../../server/protocol';
import type { KnownReferenceList } from '../../udm/reference-lists';
import type { Services } from '../services';

const log = getLogger('udm-language');

export const UDM_LANGUAGE_ID = 'udm';
/** The client id; vscode-languageclient reads `<id>.trace.server`, i.e. cloudbench.trace.server. */
const CLIENT_ID = 'cloudbench';
const TRACE_CHANNEL_NAME = 'Cloudbench UDM Language Server Trace';

/** How many crashes within RESTART_WINDOW_MS are tolerated before the server stays down. */
const MAX_RESTARTS = 4;
const RESTART_WINDOW_MS = 3 * 60 * 1000;

export const STARTER_QUERY = `// UDM search: conditions on UDM fields; lines are ANDed.
metadata.event_type = "USER_LOGIN"
security_result.action = "BLOCK"
`;

let client: LanguageClient | undefined;
let starting: Promise<void> | undefined;
let traceChannel: vscode.LogOutputChannel | undefined;
let referenceLists: Record<string, string[]> | undefined;
let knownReferenceLists: KnownReferenceList[] | undefined;
let knownReferenceListsError: string | undefined;
const crashTimes: number[] = [];

/** The reference lists the language server was given, so other UDM inputs check them the same way. */
export function getReferenceLists(): Record<string, string[]> | undefined {
  return referenceLists;
}

/**
 * Tells the language server which reference lists exist with their entries, so `in %name` is checked
 * and completed. Safe to call before the server runs; the lists are handed over when it starts.
 */
export function setReferenceLists(lists: Record<string, string[]>): void {
  if (!isReferenceLists(lists)) throw new Error('reference lists must map names to arrays of strings');
  referenceLists = lists;
  if (client?.isRunning()) {
    const params: ReferenceListsParams = { lists };
    void client.sendNotification(REFERENCE_LISTS_NOTIFICATION, params);
  }
}

/**
 * Tells the language server what is known of the reference lists (name, type, size, description,
 * preview), so `%` completes them, an unknown `%name` is a warning and hover describes the list.
 * Each call replaces the previous table. Safe to call before the server runs: the lists are handed
 * over when it starts (and again after a restart).
 */
export function setKnownReferenceLists(lists: readonly KnownReferenceList[], loadError?: string): void {
  const params: KnownReferenceListsParams = {
    lists: lists.map((l) => ({ ...l, preview: [...l.preview] })),
    ...(loadError !== undefined ? { loadError } : {}),
  };
  if (!isKnownReferenceListsParams(params))
    throw new Error('reference lists need a name (letters, digits, _), a contentType, a size and a preview');
  knownReferenceLists = params.lists;
  knownReferenceListsError = loadError;
  if (client?.isRunning()) void client.sendNotification(KNOWN_REFERENCE_LISTS_NOTIFICATION, params);
}

/** What setKnownReferenceLists was last given (for other UDM inputs such as the results panel's query bar). */
export function getKnownReferenceLists(): readonly KnownReferenceList[] | undefined {
  return knownReferenceLists;
}

/** Why the lists could not be loaded, when setKnownReferenceLists was told so. */
export function getKnownReferenceListsError(): string | undefined {
  return knownReferenceListsError;
}

function createClient(context: vscode.ExtensionContext): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  traceChannel ??= vscode.window.createOutputChannel(TRACE_CHANNEL_NAME, { log: true });
  // Read when the client starts, so a restart hands over the latest lists too.
  const initializationOptions = (): UdmInitializationOptions => ({
    ...(referenceLists ? { referenceLists } : {}),
    ...(knownReferenceLists ? { knownReferenceLists } : {}),
    ...(knownReferenceListsError !== undefined ? { knownReferenceListsError } : {}),
  });
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: UDM_LANGUAGE_ID, scheme: 'file' },
      { language: UDM_LANGUAGE_ID, scheme: 'untitled' },
      // Virtual workspaces (e.g. a repository opened without cloning): the server needs only the text.
      { language: UDM_LANGUAGE_ID, scheme: 'vscode-vfs' },
      { language: UDM_LANGUAGE_ID, scheme: 'vscode-notebook-cell' },
      // YARA-L rule files: the same server, which analyses them as rules.
      { language: 'yaral', scheme: 'file' },
      { language: 'yaral', scheme: 'untitled' },
      { language: 'yaral', scheme: 'vscode-vfs' },
    ],
    traceOutputChannel: traceChannel,
    initializationOptions,
    initializationFailedHandler: (error) => {
      log.error('UDM language server failed to initialize', error);
      void vscode.window
        .showErrorMessage(
          'The UDM language server could not start; completion and checks are off. Run "Cloudbench: Restart UDM Language Server" to try again.',
          'Show Logs',
        )
        .then((choice) => choice && showLogs());
      return false;
    },
    errorHandler: {
      error: (error, _message, count): ErrorHandlerResult => {
        log.error(`UDM language server connection error (${count ?? 0})`, error);
        return { action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true };
      },
      closed: (): CloseHandlerResult => {
        const now = Date.now();
        crashTimes.push(now);
        while (crashTimes.length && now - crashTimes[0] > RESTART_WINDOW_MS) crashTimes.shift();
        if (crashTimes.length <= MAX_RESTARTS) {
          log.warn(`UDM language server stopped; restarting (${crashTimes.length} in the last 3 minutes)`);
          return { action: CloseAction.Restart, handled: true };
        }
        log.error(`UDM language server stopped ${crashTimes.length} times in 3 minutes; not restarting`);
        return {
          action: CloseAction.DoNotRestart,
          message:
            'The UDM language server keeps stopping. Run "Cloudbench: Restart UDM Language Server" after checking the logs.',
          handled: false,
        };
      },
    },
  };
  return new LanguageClient(CLIENT_ID, 'Cloudbench UDM Language Server', serverOptions, clientOptions);
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  if (client) return;
  if (starting) return starting;
  starting = (async () => {
    const c = createClient(context);
    client = c;
    try {
      await c.start();
      log.info('UDM language server started');
      if (referenceLists)
        void c.sendNotification(REFERENCE_LISTS_NOTIFICATION, { lists: referenceLists } satisfies ReferenceListsParams);
      // Lists set while the server was starting missed the initialization options.
      if (knownReferenceLists)
        void c.sendNotification(KNOWN_REFERENCE_LISTS_NOTIFICATION, {
          lists: knownReferenceLists,
          ...(knownReferenceListsError !== undefined ? { loadError: knownReferenceListsError } : {}),
        } satisfies KnownReferenceListsParams);
    } catch (err) {
      client = undefined;
      log.error('UDM language server did not start', err);
      throw err;
    } finally {
      starting = undefined;
    }
  })();
  return starting;
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop().catch((err: unknown) => log.warn(`stopping the UDM language server: ${String(err)}`));
}

export function activateLanguage(context: vscode.ExtensionContext, _services: Services): void {
  const isUdm = (doc: vscode.TextDocument): boolean => doc.languageId === UDM_LANGUAGE_ID || doc.languageId === 'yaral';
  const startIfNeeded = (doc: vscode.TextDocument): void => {
    if (!isUdm(doc) || client || starting) return;
    startClient(context).catch(() => {
      // Already reported by initializationFailedHandler or logged above.
    });
  };

  // Start with the first UDM document (the extension may have activated for a tree view instead).
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(startIfNeeded));
  for (const doc of vscode.workspace.textDocuments) startIfNeeded(doc);

  registerCommand(context, 'cloudbench.udm.newQuery', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: UDM_LANGUAGE_ID, content: STARTER_QUERY });
    const editor = await vscode.window.showTextDocument(doc);
    const end = doc.lineAt(doc.lineCount - 1).range.end;
    editor.selection = new vscode.Selection(end, end);
  });

  registerCommand(context, 'cloudbench.udm.restartServer', async () => {
    crashTimes.length = 0;
    if (client) {
      log.info('restarting the UDM language server');
      await client.restart();
    } else {
      await startClient(context);
    }
    void vscode.window.setStatusBarMessage('UDM language server restarted', 3000);
  });

  context.subscriptions.push({ dispose: () => void stopClient() });
}
