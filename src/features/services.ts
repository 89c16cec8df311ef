import { dirname, basename, join } from 'node:path';
import { safeText, MESSAGE_LIMIT } from '../core/display';
import * as vscode from 'vscode';
import {
  CLOUD_PLATFORM_SCOPE,
  SECOPS_SCOPE,
  configuredUniverse,
  gcloudConfigDir,
  googleTokenSource,
  sandboxTokenSource,
  type TokenSource,
} from '../core/google/credentials';
import { planRestEndpoint, type EndpointOptions, type EndpointPlan, type RestService } from '../core/google/endpoints';
import { TokenPolicy, parseDestination } from '../core/google/token-policy';
import { isLoopbackEndpoint, isLoopbackHost } from '../core/loopback';
import { OperationsRegistry } from './operations/registry';
import { askTokenHostConsent } from './trust/consent';
import { ReferenceListStore } from './shared/reference-list-store';
import type { ResolvedWindow, TimeRangeSpec } from '../core/secops/timerange';
import type { SecOpsClient } from '../core/secops/client';
import type { ResultKind } from '../core/secops/results/fields';
import type { PivotAction } from '../core/secops/results/pivots';
import type { CompiledStatistics, StatsResult } from '../udm/stats';
import type { FetchedEvents } from './shared/statistics-fetch';
import type { SecOpsDocuments } from './shared/documents';
import { readSettings, type CloudbenchSettings, type EndpointKind, type SettingProblem } from '../platform/settings';
import { afterActivation } from '../platform/after-activation';
import { getLogger } from '../platform/log';
import {
  compareSettings,
  droppedSettingMessage,
  droppedSettings,
  reliedOn,
  type ReliedOn,
  type SettingsChange,
} from './settings-change';

const log = getLogger('connection');

/** What every feature needs to reach its service: project, endpoints and credentials, from settings. */
export interface Connection {
  readonly settings: CloudbenchSettings;
  readonly project: string | undefined;
  /** True when the endpoints point at the local sandbox (loopback). */
  readonly sandbox: boolean;
  /**
   * The endpoint override for a service, or undefined for Google's default. Throws
   * InvalidSettingError when the override is set but unusable: a typo must never send calls
   * (deletes included) to production instead of the endpoint the user meant.
   */
  endpoint(kind: EndpointKind): string | undefined;
  /** Tokens for Vertex AI and API Keys calls to `endpoint` (sandbox token for loopback). */
  cloudTokens(endpoint: string | undefined): TokenSource;
  /** Tokens for the SecOps Search API (its own service-account file and scope). */
  secopsTokens(endpoint: string | undefined): TokenSource;
  /**
   * Endpoint rules for the Vertex AI gRPC client: the override, the universe domain and the mTLS
   * settings (the location comes from each call). Throws InvalidSettingError like endpoint().
   */
  modelsEndpointOptions(): Omit<EndpointOptions, 'location'>;
  /**
   * Where API Keys, Resource Manager or SecOps calls go: the override, else the host in the universe domain (with the
   * SecOps region and the mTLS rules). Throws InvalidSettingError for an unusable override.
   */
  restEndpoint(service: RestService): EndpointPlan & { baseUrl: string };
  /** Decides which hosts may receive a Google credential (the universe's hosts and the user's allow-list). */
  readonly tokenPolicy: TokenPolicy;
}

/** What a REST service client (API Keys, Resource Manager, SecOps) needs from the connection. */
export interface RestClientSettings {
  baseUrl: string;
  tokens: TokenSource;
  clientCert?: NonNullable<EndpointPlan['certSource']>;
  retry: CloudbenchSettings['retry'];
  timeoutMs: number;
}

/**
 * The host, credentials (SecOps' own for `secops`), client certificate, retry policy and timeout
 * for `service`. Throws InvalidSettingError like Connection.restEndpoint().
 */
export function restClientSettings(connection: Connection, service: RestService): RestClientSettings {
  const target = connection.restEndpoint(service);
  const tokens =
    service === 'secops' ? connection.secopsTokens(target.baseUrl) : connection.cloudTokens(target.baseUrl);
  return {
    baseUrl: target.baseUrl,
    tokens,
    ...(target.certSource ? { clientCert: target.certSource } : {}),
    retry: connection.settings.retry,
    timeoutMs: connection.settings.timeoutMs,
  };
}

export class InvalidSettingError extends Error {
  override readonly name = 'InvalidSettingError';
}

export interface Services {
  readonly extensionUri: vscode.Uri;
  connection(): Connection;
  readonly onDidChangeConnection: vscode.Event<Connection>;
  /** Problems in the current settings, each naming its setting. */
  settingProblems(): SettingProblem[];
  /**
   * Fires for every cloudbench.* change, with what changed. onDidChangeConnection fires only when
   * the change touches the clients (endpoints, credentials, project, retry policy …), so a page-size
   * change reloads the trees without rebuilding credentials or clients.
   */
  readonly onDidChangeSettings: vscode.Event<SettingsChange>;
  /**
   * Whether Google credentials give a token (true on the sandbox); undefined while the connection
   * is being checked (at start and after a credentials or endpoint change).
   */
  signedIn(): boolean | undefined;
  setSignedIn(value: boolean | undefined): void;
  /** Fires when signedIn() changes: signed-out trees empty themselves so their welcome view shows. */
  readonly onDidChangeSignedIn: vscode.Event<boolean | undefined>;
  /**
   * Cloudbench itself is about to unset these settings (Stop Local Sandbox restoring the user's
   * values): their disappearance is expected and not warned about.
   */
  expectUnset(settings: readonly string[]): void;
  /** What is known of the reference lists (filled by the Reference Lists view), for every UDM input. */
  readonly referenceLists: ReferenceListStore;
  /** The long-running operations started in this window (Models and API Keys), for the Operations view. */
  readonly operations: OperationsRegistry;
  /** The running search (notebooks and statistics run through its client, rate limiter and budget). */
  readonly search: Provided<SearchService>;
  /** Runs a query with statistical sections (match:, outcome: …) as a statistical search. */
  readonly statistics: Provided<StatisticsService>;
}

/** What other features use of the search controller: its client and budget, its runs and panels. */
export interface SearchRunner {
  getClient(): SecOpsClient;
  /** The time range searches run over now. */
  currentWindow(): ResolvedWindow;
  runQuery(query: string, window: ResolvedWindow, limit: number): Promise<unknown>;
  /** Tells the search's listeners (history, status) of a run made elsewhere (a statistical search). */
  recordRun(query: string, window: ResolvedWindow, outcome: { events?: number; searches: number }): void;
  /** Shows rows in a results panel of their own. */
  showRows(kind: ResultKind, title: string, rows: unknown[], extra?: { window?: ResolvedWindow }): unknown;
  pivot(action: PivotAction, value: string, window: ResolvedWindow): Promise<void>;
  /** The read-only documents a run opens (an event's JSON). */
  readonly documents: SecOpsDocuments;
}

/** What the search feature offers the others. */
export interface SearchService {
  readonly controller: SearchRunner;
  /** The time range searches run over now. */
  timeRange(): TimeRangeSpec;
}

/** A statistical query's table as a notebook cell asks for it. */
export interface StatisticsTableRequest {
  client: SecOpsClient;
  query: string;
  compiled: CompiledStatistics;
  window: ResolvedWindow;
  referenceLists: Record<string, string[]>;
  signal: AbortSignal;
}

/** What the statistics feature offers the search: a statistical query runs in its view. */
export interface StatisticsService {
  /** Runs `query` as a statistical search; false when it has no statistical section (a plain search). */
  run(controller: SearchRunner, query: string, window: ResolvedWindow): Promise<boolean>;
  /**
   * The table of a statistical query (a notebook cell): its events fetched as the statistics view
   * fetches them, then computed off the editor's thread; stops on `signal`.
   */
  table(request: StatisticsTableRequest): Promise<{ fetched: FetchedEvents; result: StatsResult }>;
}

/**
 * A service one feature provides and others use. Features start in any order, so users look it up
 * when they need it (a command, a cell run), never while starting; it is empty until its feature
 * has started, and again once it stops or if it failed to.
 */
export class Provided<T> {
  private value: T | undefined;

  constructor(private readonly feature: string) {}

  /** Makes `value` the service until the returned disposable is disposed. */
  provide(value: T): vscode.Disposable {
    this.value = value;
    return new vscode.Disposable(() => {
      if (this.value === value) this.value = undefined;
    });
  }

  get(): T | undefined {
    return this.value;
  }

  /** The service, or an error that says its feature did not start. */
  require(): T {
    if (this.value === undefined)
      throw new Error(`${this.feature} did not start; see the Cloudbench log (Cloudbench: Show Logs).`);
    return this.value;
  }
}

/** The context key the views' welcome content follows: "checking", "signedIn" or "signedOut". */
export const CONNECTION_CONTEXT_KEY = 'cloudbench.connection';
const RELIED_ON_KEY = 'cloudbench.connection.reliedOn';

export function createServices(context: vscode.ExtensionContext): Services {
  const emitter = new vscode.EventEmitter<Connection>();
  const settingsEmitter = new vscode.EventEmitter<SettingsChange>();
  context.subscriptions.push(emitter, settingsEmitter);
  const connections = new ConnectionFactory();
  let { connection: current, problems } = connections.build();

  // A credentials file fixed, replaced or created on disk (gcloud writes the ADC file at login) is
  // read again by the token sources; the watcher makes the trees and the signed-in state follow.
  const credentialFiles = watchCredentialFiles(() => {
    // Like a credentials setting change: sign-in is checked again and the clients rebuilt.
    settingsEmitter.fire({ changed: new Set(['credentialsFile']), credentials: true, clients: true });
    emitter.fire(current);
  });
  // Watching files costs a round trip to the editor per file: it starts once activation has returned.
  afterActivation(context, 'watching the credentials files', () => credentialFiles.watch(current.settings));
  context.subscriptions.push(credentialFiles);
  const dropped = droppedSettingsWarner(context);
  dropped.warn(context.globalState.get<ReliedOn>(RELIED_ON_KEY) ?? {}, current.settings);

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('cloudbench')) return;
      if (
        e.affectsConfiguration('cloudbench.credentialsFile') ||
        e.affectsConfiguration('cloudbench.secops.credentialsFile')
      )
        connections.tokenCache.clear();
      if (e.affectsConfiguration('cloudbench.allowedTokenHosts') || e.affectsConfiguration('cloudbench.endpoints'))
        connections.tokenPolicy.reset();
      const before = new Set(problems.map((p) => `${p.setting}\n${p.message}`));
      const previous = current;
      ({ connection: current, problems } = connections.build());
      const change = compareSettings(previous.settings, current.settings);
      if (change.changed.size === 0) return;
      log.info(`settings changed: ${[...change.changed].join(', ')}`);
      if (change.credentials) credentialFiles.watch(current.settings);
      for (const p of problems) {
        if (!before.has(`${p.setting}\n${p.message}`)) void showSettingProblem(p);
      }
      dropped.warn(reliedOn(previous.settings), current.settings);
      settingsEmitter.fire(change);
      if (change.clients) emitter.fire(current);
    }),
  );

  const signedIn = signedInState(context);
  const referenceLists = new ReferenceListStore();
  context.subscriptions.push(referenceLists);
  const operations = new OperationsRegistry(context.workspaceState);
  context.subscriptions.push(operations);

  return {
    extensionUri: context.extensionUri,
    referenceLists,
    operations,
    search: new Provided<SearchService>('SecOps search'),
    statistics: new Provided<StatisticsService>('Statistical search'),
    connection: () => current,
    onDidChangeConnection: emitter.event,
    onDidChangeSettings: settingsEmitter.event,
    settingProblems: () => problems,
    ...signedIn,
    expectUnset: (settings) => dropped.expect(settings),
  };
}

/** Builds the Connection from the settings, with one token policy and token cache for the session. */
class ConnectionFactory {
  /** Google token sources by their options (cleared when a credentials file setting changes). */
  readonly tokenCache = new Map<string, TokenSource>();
  private readonly sandboxTokens = sandboxTokenSource();
  private settingsNow: CloudbenchSettings | undefined;
  // One policy for the session, so a host the user declined is not asked about again on every refresh.
  readonly tokenPolicy = new TokenPolicy({
    universeDomain: () => configuredUniverse(this.settingsNow?.universeDomain),
    allowedHosts: () => this.settingsNow?.allowedTokenHosts ?? [],
    askConsent: askTokenHostConsent,
  });

  /** The connection of the current settings, and the problems found reading them. */
  build(): { connection: Connection; problems: SettingProblem[] } {
    const read = readSettings();
    for (const p of read.problems) log.warn(`${p.setting}: ${p.message}`);
    const { settings } = read;
    this.settingsNow = settings;
    const endpoints = [
      settings.endpoints.models,
      settings.endpoints.apiKeys,
      settings.endpoints.secops,
      settings.endpoints.resourceManager,
    ].filter((e): e is string => !!e);
    const refuseInvalid = (kind: EndpointKind): void => {
      const invalid = settings.invalidEndpoints[kind];
      if (invalid) throw new InvalidSettingError(`${invalid} Fix the setting; nothing was sent.`);
    };
    const connection: Connection = {
      settings,
      project: settings.project,
      sandbox: endpoints.length > 0 && endpoints.every(isLoopbackEndpoint),
      endpoint: (kind) => {
        refuseInvalid(kind);
        return settings.endpoints[kind];
      },
      cloudTokens: (endpoint) =>
        this.byDestination(endpoint, () =>
          this.googleTokens(settings, settings.credentialsFile, CLOUD_PLATFORM_SCOPE, 'cloudbench.credentialsFile'),
        ),
      secopsTokens: (endpoint) =>
        this.byDestination(endpoint, () =>
          settings.secops.credentialsFile
            ? this.googleTokens(
                settings,
                settings.secops.credentialsFile,
                SECOPS_SCOPE,
                'cloudbench.secops.credentialsFile',
              )
            : this.googleTokens(settings, settings.credentialsFile, SECOPS_SCOPE, 'cloudbench.credentialsFile'),
        ),
      tokenPolicy: this.tokenPolicy,
      modelsEndpointOptions: () => {
        refuseInvalid('models');
        return {
          ...(settings.endpoints.models ? { apiEndpoint: settings.endpoints.models } : {}),
          ...(settings.universeDomain ? { universeDomain: settings.universeDomain } : {}),
          ...mtlsOptions(settings),
        };
      },
      restEndpoint: (service) => {
        const kind = service === 'apikeys' ? 'apiKeys' : service === 'resourcemanager' ? 'resourceManager' : 'secops';
        refuseInvalid(kind);
        const override = settings.endpoints[kind];
        return planRestEndpoint(service, {
          ...(override ? { override } : {}),
          ...(service === 'secops' ? { region: settings.secops.region } : {}),
          ...(settings.universeDomain ? { universeDomain: settings.universeDomain } : {}),
          ...mtlsOptions(settings),
        });
      },
    };
    return { connection, problems: read.problems };
  }

  private googleTokens(
    settings: CloudbenchSettings,
    keyFile: string | undefined,
    scope: string,
    setting: string,
  ): TokenSource {
    const secops = scope === SECOPS_SCOPE;
    const options = {
      scopes: [scope],
      setting,
      service: secops ? ('secops' as const) : ('cloud' as const),
      // The quota project bills Vertex AI and API Keys; the SecOps instance is not billed through it.
      sendQuotaProject: !secops,
      ...(keyFile ? { keyFile } : {}),
      ...(settings.project && !secops ? { projectId: settings.project } : {}),
      ...(settings.universeDomain ? { universeDomain: settings.universeDomain } : {}),
      ...(settings.quotaProject ? { quotaProject: settings.quotaProject } : {}),
    };
    const cacheKey = JSON.stringify(options);
    let source = this.tokenCache.get(cacheKey);
    if (!source) {
      source = googleTokenSource({ ...options, policy: this.tokenPolicy });
      this.tokenCache.set(cacheKey, source);
    }
    return source;
  }

  /**
   * Chooses by where each request really goes: loopback (the sandbox) gets the sandbox token only,
   * everything else Google credentials, which the token policy checks for that destination.
   */
  private byDestination(hint: string | undefined, google: () => TokenSource): TokenSource {
    const loopbackHint = !!hint && isLoopbackEndpoint(hint);
    return {
      kind: loopbackHint ? 'sandbox' : 'google',
      getAccessToken: (destination, signal) => {
        const parsed = parseDestination(destination);
        return 'host' in parsed && isLoopbackHost(parsed.host)
          ? this.sandboxTokens.getAccessToken(destination, signal)
          : google().getAccessToken(destination, signal);
      },
      // The quota project and the description belong to the Google credentials, not the sandbox.
      requestHeaders: (signal) =>
        loopbackHint ? Promise.resolve({}) : (google().requestHeaders?.(signal) ?? Promise.resolve({})),
      ...(loopbackHint ? {} : { describe: (signal?: AbortSignal) => google().describe!(signal) }),
    };
  }
}

/** Watches the credentials files the settings name (and gcloud's ADC file) for changes on disk. */
function watchCredentialFiles(changed: () => void): { watch(settings: CloudbenchSettings): void; dispose(): void } {
  const watchers: vscode.Disposable[] = [];
  const dispose = (): void => {
    for (const w of watchers.splice(0)) w.dispose();
  };
  const watch = (s: CloudbenchSettings): void => {
    dispose();
    const files = new Set(
      [
        s.credentialsFile,
        s.secops.credentialsFile,
        process.env['GOOGLE_APPLICATION_CREDENTIALS'],
        join(gcloudConfigDir(), 'application_default_credentials.json'),
      ].filter((f): f is string => !!f),
    );
    for (const file of files) {
      try {
        const watcher = vscode.workspace.createFileSystemWatcher(
          new vscode.RelativePattern(vscode.Uri.file(dirname(file)), basename(file)),
        );
        const onChange = (): void => {
          log.info(`credentials file changed on disk: ${file}`);
          changed();
        };
        watchers.push(
          watcher,
          watcher.onDidChange(onChange),
          watcher.onDidCreate(onChange),
          watcher.onDidDelete(onChange),
        );
      } catch (err) {
        log.debug(`cannot watch ${file}: ${(err as Error).message}`);
      }
    }
  };
  return { watch, dispose };
}

/**
 * A setting the connection relied on that is gone (also since the last session: an editor that
 * drops a machine setting from User settings at a reload) is said once, with what is used now.
 */
function droppedSettingsWarner(context: vscode.ExtensionContext): {
  warn(before: ReliedOn, now: CloudbenchSettings): void;
  expect(settings: readonly string[]): void;
} {
  const expectedUnset = new Set<string>();
  const warned = new Set<string>();
  return {
    warn: (before, settings) => {
      for (const dropped of droppedSettings(before, settings)) {
        if (expectedUnset.delete(dropped.setting) || warned.has(dropped.setting)) continue;
        warned.add(dropped.setting);
        log.warn(droppedSettingMessage(dropped, false));
        void vscode.window
          .showWarningMessage(droppedSettingMessage(dropped, vscode.env.remoteName !== undefined), 'Open Settings')
          .then((choice) =>
            choice ? vscode.commands.executeCommand('workbench.action.openSettings', dropped.setting) : undefined,
          );
      }
      const now = reliedOn(settings);
      for (const setting of warned) if (now[setting] !== undefined) warned.delete(setting);
      void context.globalState.update(RELIED_ON_KEY, now);
    },
    expect: (settings) => {
      for (const setting of settings) expectedUnset.add(setting);
      // Also for the next start, should the window close before the change event arrives.
      const stored = { ...(context.globalState.get<ReliedOn>(RELIED_ON_KEY) ?? {}) };
      for (const setting of settings) delete stored[setting];
      void context.globalState.update(RELIED_ON_KEY, stored);
    },
  };
}

/** Whether Cloudbench is signed in, mirrored in the context keys the welcome views follow. */
function signedInState(
  context: vscode.ExtensionContext,
): Pick<Services, 'signedIn' | 'setSignedIn' | 'onDidChangeSignedIn'> {
  let signedIn: boolean | undefined;
  const signedInEmitter = new vscode.EventEmitter<boolean | undefined>();
  context.subscriptions.push(signedInEmitter);
  // String values: a when clause `key == false` also matches an unset key, which would show the
  // signed-out welcome before anything was checked.
  const showState = (): Thenable<unknown> =>
    vscode.commands.executeCommand(
      'setContext',
      CONNECTION_CONTEXT_KEY,
      signedIn === undefined ? 'checking' : signedIn ? 'signedIn' : 'signedOut',
    );
  void showState();
  return {
    signedIn: () => signedIn,
    setSignedIn: (value) => {
      if (value === signedIn) return;
      signedIn = value;
      void showState();
      if (value !== undefined) void vscode.commands.executeCommand('setContext', 'cloudbench.signedIn', value);
      signedInEmitter.fire(value);
    },
    onDidChangeSignedIn: signedInEmitter.event,
  };
}

function mtlsOptions(settings: CloudbenchSettings): Pick<EndpointOptions, 'mtlsEndpoint' | 'useClientCertificate'> {
  return {
    ...(settings.mtls.endpoint ? { mtlsEndpoint: settings.mtls.endpoint } : {}),
    ...(settings.mtls.clientCertificate !== undefined ? { useClientCertificate: settings.mtls.clientCertificate } : {}),
  };
}

/** Tells the user about one unusable setting, with a way straight to it. */
export async function showSettingProblem(problem: SettingProblem): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    `Cloudbench setting ${problem.setting}: ${safeText(problem.message, 'plain', MESSAGE_LIMIT)}`,
    'Open Settings',
  );
  if (choice) await vscode.commands.executeCommand('workbench.action.openSettings', problem.setting);
}
