// API keys in the editor (seed 001): the keys tree and every cloudbench.keys.* command.
import * as vscode from 'vscode';
import { checkRequest, formatCheckReport } from '../../core/apikeys/check';
import { ApiKeysClient, EtagConflictError, daysLeftToUndelete, explainKeysError } from '../../core/apikeys/client';
import { summarizeRestrictions } from '../../core/apikeys/describe';
import { UNDELETE_WINDOW_DAYS, type ApiKey } from '../../core/apikeys/types';
import { CancelledError, GoogleApiError, briefError, describeError, isCancellation } from '../../core/google/errors';
import { OperationTrackingError } from '../../core/lro';
import { safeText } from '../../core/display';
import { formatKeyName, parseKeyName } from '../../core/names';
import { registerCommand } from '../../platform/commands';
import { toAbortSignal } from '../../platform/disposables';
import { getLogger } from '../../platform/log';
import { activateOperations } from '../operations';
import { getOperationsRegistry } from '../operations/registry';
import type { Services } from '../services';
import { RestrictionEditor } from './editor';
import { askCreateRequest, askSimulatedRequest } from './inputs';
import {
  DeletedGroupNode,
  KeyNode,
  KeysModel,
  KeysTreeProvider,
  LoadMoreNode,
  describeKeysFailure,
  keyIdOf,
  type KeysTreeNode,
} from './tree';

const log = getLogger('keys');
const CHECK_SCHEME = 'cloudbench-key-check';

/** A failure with the API Keys explanation attached (missing role, org policy, location). */
class ExplainedError extends Error {
  constructor(
    message: string,
    readonly cause: unknown,
  ) {
    super(message);
  }
}

/** Awaits a VS Code thenable and attaches the API Keys explanation to its failure. */
async function explained<T>(work: Thenable<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw explain(err);
  }
}

function explain(err: unknown): unknown {
  if (isCancellation(err)) return err;
  const explanation = explainKeysError(err);
  if (!explanation) return err;
  // The same words as the keys tree's row for this failure.
  return new ExplainedError(describeKeysFailure(err), err);
}

/** A key named so that keys sharing a display name are told apart: "Maps key" (maps-web), or the ID. */
function keyRef(key: ApiKey): string {
  const id = keyIdOf(key.name);
  // Shown in notifications and dialogs: the display name is the key owner's text.
  return safeText(key.displayName && key.displayName !== id ? `"${key.displayName}" (${id})` : id);
}

export function activateKeys(context: vscode.ExtensionContext, services: Services): void {
  activateOperations(context);

  const client = (): ApiKeysClient => {
    const connection = services.connection();
    // The override, else apikeys.<universe domain> (or its mTLS host).
    const target = connection.restEndpoint('apikeys');
    return new ApiKeysClient({
      baseUrl: target.baseUrl,
      tokens: connection.cloudTokens(target.baseUrl),
      ...(target.certSource ? { clientCert: target.certSource } : {}),
      retry: connection.settings.retry,
      timeoutMs: connection.settings.timeoutMs,
      onRetry: (method, err, attempt, delay) =>
        log.warn(`${method}: retry ${attempt} in ${delay} ms after ${describeError(err)}`),
    });
  };

  const provider = new KeysTreeProvider(() => {
    const project = services.connection().project;
    // Signed out, or not known yet: no model, so the tree is empty and its welcome view shows the
    // fixes or the loading state.
    if (!project || services.signedIn() !== true) return undefined;
    const c = client();
    // Days left to undelete count on the service's clock (its Date header), not this machine's.
    return new KeysModel(project, c, () => c.serverNow(), services.connection().settings.pageSize);
  });
  context.subscriptions.push(
    services.onDidChangeSignedIn(() => provider.refresh()),
    services.onDidChangeSettings((change) => {
      if (!change.clients && change.changed.has('pageSize')) provider.refresh();
    }),
  );
  const view = vscode.window.createTreeView('cloudbench.keys', { treeDataProvider: provider, showCollapseAll: false });
  context.subscriptions.push(provider, view);
  context.subscriptions.push(
    services.onDidChangeConnection(() => {
      RestrictionEditor.closeAll();
      provider.refresh();
    }),
  );

  const checkReports = new Map<string, string>();
  const checkChanged = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(
    checkChanged,
    vscode.workspace.registerTextDocumentContentProvider(CHECK_SCHEME, {
      onDidChange: checkChanged.event,
      provideTextDocumentContent: (uri) =>
        checkReports.get(uri.path) ?? 'This check report is no longer available; run Check Request again.',
    }),
  );

  /** Runs one key operation with cancellable progress, listed in the Operations view. */
  const runOperation = async <T>(
    title: string,
    resource: string,
    run: (signal: AbortSignal, onOperationName: (name: string) => void) => Promise<T>,
    outcome?: (result: T) => { state: 'succeeded' | 'failed'; detail?: string },
  ): Promise<T> => {
    const registry = getOperationsRegistry();
    const handle = registry.start({
      title,
      resource,
      source: 'keys',
      stopWaiting: () =>
        Promise.resolve(
          'Stopped waiting; the key change goes on on the server. Refresh the API Keys view later to see it.',
        ),
    });
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        async (_progress, token) => {
          const signal = AbortSignal.any([toAbortSignal(token)!, handle.signal]);
          return run(signal, (name) => handle.setOperationName(name));
        },
      );
      const ended = outcome?.(result) ?? { state: 'succeeded' as const };
      handle.finish(ended.state, ended.detail);
      return result;
    } catch (err) {
      if (isCancellation(err))
        handle.finish('cancelled', 'Stopped waiting; the change may still happen on the server.');
      else
        handle.finish(err instanceof OperationTrackingError ? 'lost' : 'failed', describeError(err), briefError(err));
      throw explain(err);
    }
  };

  const editorHost = {
    client,
    runOperation,
    keyChanged: (key: ApiKey) => {
      provider.current?.replace(key);
      provider.redraw();
    },
  };

  const requireProject = async (): Promise<string> => {
    const project = services.connection().project;
    if (project) return project;
    const choice = await vscode.window.showWarningMessage(
      'Choose the Google Cloud project whose API keys to manage first.',
      'Select Project',
    );
    if (choice) await vscode.commands.executeCommand('cloudbench.selectProject');
    throw new CancelledError();
  };

  /** The key a command acts on: the tree node it was invoked on, a key name, or one the user picks. */
  const resolveKey = async (
    arg: unknown,
    want: 'active' | 'deleted' = 'active',
  ): Promise<{ key: ApiKey; deleted: boolean }> => {
    if (arg instanceof KeyNode) return { key: arg.key, deleted: arg.deleted };
    const name = typeof arg === 'string' ? arg : (arg as { key?: { name?: unknown } } | undefined)?.key?.name;
    if (typeof name === 'string') {
      parseKeyName(name);
      const key = await client().getKey(name);
      return { key, deleted: !!key.deleteTime };
    }
    const project = await requireProject();
    const keys = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Listing API keys' },
      async () => {
        const out: ApiKey[] = [];
        for await (const key of client().iterateKeys(project, { showDeleted: want === 'deleted' })) {
          if (want === 'deleted' ? key.deleteTime : !key.deleteTime) out.push(key);
        }
        return out;
      },
    );
    if (keys.length === 0) {
      void vscode.window.showInformationMessage(
        want === 'deleted'
          ? `Project ${safeText(project)} has no keys deleted in the last ${UNDELETE_WINDOW_DAYS} days.`
          : `Project ${safeText(project)} has no API keys.`,
      );
      throw new CancelledError();
    }
    const picked = await vscode.window.showQuickPick(
      keys.map((key) => ({
        label: safeText(key.displayName || keyIdOf(key.name)),
        description: safeText(keyIdOf(key.name)),
        detail: safeText(summarizeRestrictions(key.restrictions), 'plain', 400),
        key,
      })),
      {
        title: want === 'deleted' ? 'Deleted API key' : 'API key',
        placeHolder: 'Choose a key',
        matchOnDescription: true,
      },
    );
    if (!picked) throw new CancelledError();
    return { key: picked.key, deleted: want === 'deleted' };
  };

  const afterChange = (): void => {
    provider.refresh();
  };

  /** Shows a key in the tree (loading further pages if needed) so the user sees what just changed. */
  const reveal = async (name: string, deleted: boolean, focus = false): Promise<boolean> => {
    const node = await provider.findNode(name, deleted);
    if (!node) return false;
    if (node.parent instanceof DeletedGroupNode) await view.reveal(node.parent, { expand: true });
    await view.reveal(node, { select: true, focus });
    return true;
  };

  registerCommand(context, 'cloudbench.keys.refresh', () => {
    provider.refresh();
  });

  registerCommand(context, 'cloudbench.keys.loadMore', async (node?: unknown) => {
    const model = provider.current;
    if (!model) return;
    const parent = node instanceof LoadMoreNode ? node.parent : undefined;
    try {
      await vscode.window.withProgress({ location: { viewId: 'cloudbench.keys' } }, async () => model.loadMore());
    } catch (err) {
      model.activeError = describeKeysFailure(err);
      throw explain(err);
    } finally {
      provider.redraw();
      if (parent) log.debug(`loaded more keys of ${parent.project}`);
    }
  });

  registerCommand(context, 'cloudbench.keys.create', async () => {
    const project = await requireProject();
    const request = await askCreateRequest(project);
    if (!request) return;
    const created = await runOperation(
      `Creating API key${request.displayName ? ` "${safeText(request.displayName)}"` : ''}`,
      `projects/${project}/locations/global/keys`,
      (signal, onName) => client().createKey(project, request, { signal, onOperation: (op) => onName(op.name) }),
    );
    log.info(`created ${created.name}`);
    afterChange();
    void reveal(created.name, false).catch((err) =>
      log.warn(`could not reveal ${created.name}: ${describeError(err)}`),
    );
    let keyString = created.keyString;
    const label = safeText(created.displayName || keyIdOf(created.name));
    const choice = await vscode.window.showInformationMessage(
      `Created API key "${label}" (${safeText(keyIdOf(created.name))}). ${summarizeRestrictions(created.restrictions) === 'unrestricted' ? 'It is unrestricted: add restrictions before using it in production.' : ''}`.trim(),
      'Copy Key String',
      'Edit Restrictions',
    );
    if (choice === 'Copy Key String') {
      keyString ??= await client().getKeyString(created.name);
      await vscode.env.clipboard.writeText(keyString);
      void vscode.window.showInformationMessage(`The key string of "${label}" is on the clipboard.`);
    } else if (choice === 'Edit Restrictions') {
      // The editor belongs to its panel: it disposes itself when the panel closes.
      void RestrictionEditor.show(services.extensionUri, created, editorHost);
    }
  });

  registerCommand(context, 'cloudbench.keys.editRestrictions', async (arg?: unknown) => {
    const { key, deleted } = await resolveKey(arg);
    if (deleted) {
      void vscode.window.showWarningMessage(
        `Key "${safeText(key.displayName || keyIdOf(key.name))}" is deleted; undelete it before changing its restrictions.`,
      );
      return;
    }
    // Start from the server's current state (and etag), not from a tree that may be minutes old.
    const fresh = await explained(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading key' }, () =>
        client().getKey(key.name),
      ),
    );
    // The editor belongs to its panel: it disposes itself when the panel closes.
    void RestrictionEditor.show(services.extensionUri, fresh, editorHost);
  });

  registerCommand(context, 'cloudbench.keys.copyKeyString', async (arg?: unknown) => {
    const { key } = await resolveKey(arg);
    const keyString = await explained(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading key string' }, () =>
        client().getKeyString(key.name),
      ),
    );
    await vscode.env.clipboard.writeText(keyString);
    log.info(`copied the key string of ${key.name} to the clipboard`);
    void vscode.window.showInformationMessage(
      `The key string of "${safeText(key.displayName || keyIdOf(key.name))}" is on the clipboard.`,
    );
  });

  registerCommand(context, 'cloudbench.keys.copyResourceName', async (arg?: unknown) => {
    const { key } = await resolveKey(arg);
    await vscode.env.clipboard.writeText(key.name);
    void vscode.window.showInformationMessage(`Copied ${safeText(key.name)}`);
  });

  registerCommand(context, 'cloudbench.keys.lookUp', async () => {
    const keyString = await vscode.window.showInputBox({
      title: 'Look Up Key',
      prompt:
        'Paste a key string to find the key it belongs to. It is sent only to the API Keys service and is not stored.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) =>
        v.trim() === '' ? 'Paste a key string.' : /\s/.test(v.trim()) ? 'A key string contains no spaces.' : undefined,
    });
    if (!keyString) return;
    const found = await explained(
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Looking up key', cancellable: true },
        async (_p, token) => {
          try {
            return await client().lookupKey(keyString, { signal: toAbortSignal(token)! });
          } catch (err) {
            if (err instanceof GoogleApiError && err.status === 'NOT_FOUND')
              throw new Error(
                'No key with this key string exists (or it was purged more than 30 days after deletion).',
                { cause: err },
              );
            throw err;
          }
        },
      ),
    );
    if (!found.name) {
      void vscode.window.showWarningMessage(
        `This key string belonged to a key of ${safeText(found.parent ?? 'a project')} that has been purged; it cannot be recovered.`,
      );
      return;
    }
    let keyName = found.name;
    let owner = parseKeyName(keyName).project;
    const current = services.connection().project;
    if (current && owner !== current) {
      // LookupKey may name the project by number while settings hold its ID: the same key id in
      // the selected project with the same key string is the same key.
      const candidate = formatKeyName({ project: current, key: parseKeyName(keyName).key });
      const same = await client()
        .getKeyString(candidate)
        .then(
          (s) => s === keyString.trim(),
          () => false,
        );
      if (same) {
        keyName = candidate;
        owner = current;
      }
    }
    if (owner !== current) {
      const choice = await vscode.window.showInformationMessage(
        `The key is ${safeText(keyName)}, in project ${safeText(owner)}, not in the selected project${current ? ` ${safeText(current)}` : ''}.`,
        'Switch to Project',
        'Copy Resource Name',
      );
      if (choice === 'Copy Resource Name') await vscode.env.clipboard.writeText(keyName);
      if (choice !== 'Switch to Project') return;
      await vscode.workspace.getConfiguration('cloudbench').update('project', owner, vscode.ConfigurationTarget.Global);
      provider.refresh();
    }
    const key = await client().getKey(keyName);
    if (!(await reveal(keyName, !!key.deleteTime, true))) {
      void vscode.window.showInformationMessage(`The key is ${safeText(keyName)} ("${safeText(key.displayName)}").`);
      return;
    }
    void vscode.window.showInformationMessage(
      `Found key "${safeText(key.displayName || keyIdOf(key.name))}" (${safeText(keyIdOf(key.name))})${key.deleteTime ? ', which is deleted' : ''}.`,
    );
  });

  registerCommand(context, 'cloudbench.keys.rename', async (arg?: unknown) => {
    const { key } = await resolveKey(arg);
    const displayName = await vscode.window.showInputBox({
      title: `Rename key ${safeText(keyIdOf(key.name))}`,
      prompt: 'Display name (at most 63 characters)',
      value: key.displayName ?? '',
      validateInput: (v) => (v.length > 63 ? `${v.length} characters; the limit is 63.` : undefined),
    });
    if (displayName === undefined || displayName === (key.displayName ?? '')) return;
    try {
      await runOperation(`Renaming key ${safeText(keyIdOf(key.name))}`, key.name, (signal, onName) =>
        client().rename(key.name, displayName, key.etag, { signal, onOperation: (op) => onName(op.name) }),
      );
    } catch (err) {
      if (err instanceof EtagConflictError || (err as { cause?: unknown }).cause instanceof EtagConflictError) {
        afterChange();
        throw new Error(
          'The key was changed by someone else since the list was loaded, so it was not renamed. The list was refreshed; rename it again.',
          { cause: err },
        );
      }
      throw err;
    }
    afterChange();
    void vscode.window.showInformationMessage(
      `Renamed key ${safeText(keyIdOf(key.name))} to "${safeText(displayName)}".`,
    );
  });

  registerCommand(context, 'cloudbench.keys.delete', async (arg?: unknown) => {
    const { key } = await resolveKey(arg);
    const label = keyRef(key);
    const choice = await vscode.window.showWarningMessage(
      `Delete API key ${label}?`,
      {
        modal: true,
        detail: `${safeText(key.name)}\n\nEvery app that uses this key stops working at once. You can undelete it within ${UNDELETE_WINDOW_DAYS} days; after that it is gone for good.`,
      },
      'Delete',
    );
    if (choice !== 'Delete') return;
    try {
      await runOperation(`Deleting key ${safeText(keyIdOf(key.name))}`, key.name, (signal, onName) =>
        client().deleteKey(key.name, key.etag, { signal, onOperation: (op) => onName(op.name) }),
      );
    } catch (err) {
      if ((err as { cause?: unknown }).cause instanceof EtagConflictError || err instanceof EtagConflictError) {
        afterChange();
        throw new Error(
          'The key was changed by someone else since the list was loaded, so it was not deleted. The list was refreshed; check it and delete again.',
          { cause: err },
        );
      }
      throw err;
    }
    RestrictionEditor.close(key.name);
    afterChange();
    void vscode.window.showInformationMessage(
      `Deleted key ${label}. It can be undeleted from "Deleted keys" for ${UNDELETE_WINDOW_DAYS} days.`,
    );
  });

  registerCommand(context, 'cloudbench.keys.undelete', async (arg?: unknown) => {
    const { key } = await resolveKey(arg, 'deleted');
    const label = keyRef(key);
    const left = daysLeftToUndelete(key.deleteTime, provider.current?.now() ?? Date.now());
    if (left !== undefined && left <= 0) {
      void vscode.window.showErrorMessage(
        `Key ${label} was deleted on ${safeText(key.deleteTime)}, more than ${UNDELETE_WINDOW_DAYS} days ago, so it cannot be undeleted. Create a new key instead.`,
      );
      return;
    }
    try {
      await runOperation(`Undeleting key ${safeText(keyIdOf(key.name))}`, key.name, (signal, onName) =>
        client().undeleteKey(key.name, { signal, onOperation: (op) => onName(op.name) }),
      );
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause ?? err;
      if (
        cause instanceof GoogleApiError &&
        cause.status === 'FAILED_PRECONDITION' &&
        /30 days|undelete/i.test(cause.message)
      ) {
        // The key is purged or about to be: the list no longer shows it after a reload.
        afterChange();
        throw new Error(`${cause.message} Create a new key instead.`, { cause: err });
      }
      throw err;
    }
    afterChange();
    void reveal(key.name, false).catch((err) => log.warn(`could not reveal ${key.name}: ${describeError(err)}`));
    void vscode.window.showInformationMessage(
      `Undeleted key ${label}. It can take a few minutes before the key string works again.`,
    );
  });

  registerCommand(context, 'cloudbench.keys.checkRequest', async (arg?: unknown) => {
    const { key } = await resolveKey(arg);
    const request = await askSimulatedRequest(key.restrictions ?? {});
    if (!request) return;
    const result = checkRequest(key.restrictions, request);
    const label = key.displayName || keyIdOf(key.name);
    const path = `/${keyIdOf(key.name)}-check.md`;
    checkReports.set(path, formatCheckReport(label, key.name, request, result));
    const uri = vscode.Uri.from({ scheme: CHECK_SCHEME, path });
    checkChanged.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    await vscode.window.showTextDocument(doc, { preview: true });
    const message = `${result.allowed ? 'Accepted' : 'Refused'}: ${safeText(result.decidedBy, 'plain', 400)}`;
    if (result.allowed) void vscode.window.showInformationMessage(message);
    else void vscode.window.showWarningMessage(message);
  });
}

export type { KeysTreeNode };
