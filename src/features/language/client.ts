// The UDM language server's client: started with the first UDM document, restarted after a crash
// (a few times), and handed the reference lists whenever they change.
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
import { getLogger, showLogs } from '../../platform/log';
import {
  KNOWN_REFERENCE_LISTS_NOTIFICATION,
  REFERENCE_LISTS_NOTIFICATION,
  type KnownReferenceListsParams,
  type ReferenceListsParams,
  type UdmInitializationOptions,
} from '../../server/protocol';
import type { ReferenceListStore } from '../shared/reference-list-store';
import { SERVED_LANGUAGES, UDM_LANGUAGE_ID, YARAL_LANGUAGE_ID } from '../shared/languages';

const log = getLogger('udm-language');

export { SERVED_LANGUAGES, UDM_LANGUAGE_ID, YARAL_LANGUAGE_ID };
/** The client id; vscode-languageclient reads `<id>.trace.server`, i.e. cloudbench.trace.server. */
const CLIENT_ID = 'cloudbench';
const TRACE_CHANNEL_NAME = 'Cloudbench UDM Language Server Trace';

/** How many crashes within RESTART_WINDOW_MS are tolerated before the server stays down. */
const MAX_RESTARTS = 4;
const RESTART_WINDOW_MS = 3 * 60 * 1000;

export class UdmLanguageClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private traceChannel: vscode.LogOutputChannel | undefined;
  private readonly crashTimes: number[] = [];
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly lists: ReferenceListStore,
  ) {
    // Lists that change while the server runs go to it at once; before, they go with its start.
    this.subscriptions = [
      lists.onDidChangeEntries((entries) => {
        if (this.client?.isRunning())
          void this.client.sendNotification(REFERENCE_LISTS_NOTIFICATION, {
            lists: entries,
          } satisfies ReferenceListsParams);
      }),
      lists.onDidChangeKnown((params) => {
        if (this.client?.isRunning()) void this.client.sendNotification(KNOWN_REFERENCE_LISTS_NOTIFICATION, params);
      }),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    void this.stop();
  }

  /** Whether the client exists or is being started. */
  get started(): boolean {
    return this.client !== undefined || this.starting !== undefined;
  }

  async start(): Promise<void> {
    if (this.client) return;
    if (this.starting) return this.starting;
    this.starting = (async () => {
      const c = this.create();
      this.client = c;
      try {
        await c.start();
        log.info('UDM language server started');
        this.handOver(c);
      } catch (err) {
        this.client = undefined;
        log.error('UDM language server did not start', err);
        throw err;
      } finally {
        this.starting = undefined;
      }
    })();
    return this.starting;
  }

  /** Restarts the server (or starts it), forgetting the crashes so far. */
  async restart(): Promise<void> {
    this.crashTimes.length = 0;
    if (this.client) {
      log.info('restarting the UDM language server');
      await this.client.restart();
    } else {
      await this.start();
    }
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) await c.stop().catch((err: unknown) => log.warn(`stopping the UDM language server: ${String(err)}`));
  }

  /** Lists set while the server was starting missed the initialization options. */
  private handOver(c: LanguageClient): void {
    const entries = this.lists.entries();
    if (entries)
      void c.sendNotification(REFERENCE_LISTS_NOTIFICATION, { lists: entries } satisfies ReferenceListsParams);
    const known = this.lists.known();
    const loadError = this.lists.knownError();
    if (known)
      void c.sendNotification(KNOWN_REFERENCE_LISTS_NOTIFICATION, {
        lists: [...known],
        ...(loadError !== undefined ? { loadError } : {}),
      } satisfies KnownReferenceListsParams);
  }

  private create(): LanguageClient {
    const module = this.context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
    };
    if (!this.traceChannel) {
      this.traceChannel = vscode.window.createOutputChannel(TRACE_CHANNEL_NAME, { log: true });
      this.context.subscriptions.push(this.traceChannel);
    }
    // Read when the client starts, so a restart hands over the latest lists too.
    const initializationOptions = (): UdmInitializationOptions => {
      const referenceLists = this.lists.entries();
      const knownReferenceLists = this.lists.known();
      const knownReferenceListsError = this.lists.knownError();
      return {
        ...(referenceLists ? { referenceLists } : {}),
        ...(knownReferenceLists ? { knownReferenceLists: [...knownReferenceLists] } : {}),
        ...(knownReferenceListsError !== undefined ? { knownReferenceListsError } : {}),
      };
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { language: UDM_LANGUAGE_ID, scheme: 'file' },
        { language: UDM_LANGUAGE_ID, scheme: 'untitled' },
        // Virtual workspaces (e.g. a repository opened without cloning): the server needs only the text.
        { language: UDM_LANGUAGE_ID, scheme: 'vscode-vfs' },
        { language: UDM_LANGUAGE_ID, scheme: 'vscode-notebook-cell' },
        { language: YARAL_LANGUAGE_ID, scheme: 'file' },
        { language: YARAL_LANGUAGE_ID, scheme: 'untitled' },
        { language: YARAL_LANGUAGE_ID, scheme: 'vscode-vfs' },
      ],
      traceOutputChannel: this.traceChannel,
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
        closed: (): CloseHandlerResult => this.closed(),
      },
    };
    return new LanguageClient(CLIENT_ID, 'Cloudbench UDM Language Server', serverOptions, clientOptions);
  }

  private closed(): CloseHandlerResult {
    const now = Date.now();
    const crashTimes = this.crashTimes;
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
  }
}
