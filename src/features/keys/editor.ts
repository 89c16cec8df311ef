// "Edit Restrictions…": a webview form that starts from the key's current restrictions. The webview
// validates as the user types and shows the replacement diff; this side validates again, sends
// updateMask=restrictions with the etag the form started from, and on an etag conflict hands the
// newer server state back to the form instead of overwriting it.
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import type { ApiKeysClient } from '../../core/apikeys/client';
import { RestrictionSession } from '../../core/apikeys/session';
import { parseFromWebview, type EditorKey, type ToWebview } from '../../core/apikeys/messages';
import type { ApiKey, Restrictions } from '../../core/apikeys/types';
import { validateRestrictions } from '../../core/apikeys/validation';
import { describeError, isCancellation } from '../../core/google/errors';
import { getLogger } from '../../platform/log';
import { OpenPanels } from '../../platform/open-panels';
import { goneSentence, keyGoneBehind, type KeyGone } from './deleted';
import { keyIdOf } from './tree';
import type { FollowOperation } from './context';
import { renderWebviewPage, webviewPanelOptions } from '../../platform/webview';

const log = getLogger('keys');

export function toEditorKey(key: ApiKey): EditorKey {
  const out: EditorKey = {
    name: key.name,
    keyId: keyIdOf(key.name),
    displayName: key.displayName ?? '',
    etag: key.etag ?? '',
    restrictions: key.restrictions ?? {},
  };
  if (key.serviceAccountEmail) out.serviceAccountEmail = key.serviceAccountEmail;
  return out;
}

export interface EditorHost {
  client(): ApiKeysClient;
  /** Runs a key operation with cancellable progress and registers it in the Operations view. */
  runOperation<T>(
    title: string,
    resource: string,
    run: (signal: AbortSignal, follow: FollowOperation) => Promise<T>,
    judge?: (result: T) => { state: 'succeeded' | 'failed'; detail?: string },
  ): Promise<T>;
  /** The tree shows `key` (after an update or a conflict reload). */
  keyChanged(key: ApiKey): void;
  /** The key was found deleted when a change was refused: reload the tree and offer Undelete. */
  keyGone(gone: KeyGone, what: string): void;
}

/** The restriction editors open in a window, one per key; the keys feature holds it. */
export class RestrictionEditors extends OpenPanels<RestrictionEditor> {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: EditorHost,
  ) {
    super();
  }

  /** Opens (or reveals) the editor of `key`. */
  show(key: ApiKey): RestrictionEditor {
    return this.showOrCreate(key.name, (closed) => {
      const panel = vscode.window.createWebviewPanel(
        'cloudbench.keys.restrictions',
        `Restrictions: ${safeText(key.displayName || keyIdOf(key.name))}`,
        vscode.ViewColumn.Active,
        webviewPanelOptions(this.extensionUri),
      );
      return new RestrictionEditor(panel, this.extensionUri, key, this.host, closed);
    });
  }
}

export class RestrictionEditor implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private key: EditorKey;
  private apiKey: ApiKey;
  private saving = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    key: ApiKey,
    private readonly host: EditorHost,
    private readonly closed: () => void,
  ) {
    this.apiKey = key;
    this.key = toEditorKey(key);
    panel.webview.html = renderHtml(panel.webview, extensionUri, this.key.displayName || this.key.keyId);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw)),
    );
  }

  private post(message: ToWebview): void {
    void this.panel.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const message = parseFromWebview(raw);
    if (!message) {
      log.warn('restriction editor: ignored a malformed message from the webview');
      return;
    }
    switch (message.type) {
      case 'ready':
        this.post({ type: 'init', key: this.key });
        return;
      case 'cancel':
        this.panel.dispose();
        return;
      case 'save':
        await this.save(message.restrictions, message.etag);
        return;
    }
  }

  private async save(submitted: Restrictions, etag: string): Promise<void> {
    if (this.saving) return;
    const session = new RestrictionSession(this.host.client(), this.apiKey);
    const invalid = validateRestrictions(submitted, { serviceAccountBound: !!this.key.serviceAccountEmail });
    if (invalid.length > 0) {
      this.post({ type: 'error', message: 'Fix the marked entries; nothing was sent.', problems: invalid });
      return;
    }
    this.saving = true;
    this.post({ type: 'saving' });
    try {
      const outcome = await this.host.runOperation(
        `Update restrictions of key ${this.key.keyId}`,
        this.key.name,
        (signal, follow) => session.save(submitted, etag, { signal, follow }),
        (result) =>
          result.kind === 'saved'
            ? { state: 'succeeded' }
            : {
                state: 'failed',
                detail: result.kind === 'conflict' ? 'not saved: the key changed on the server' : 'nothing sent',
              },
      );
      switch (outcome.kind) {
        case 'invalid':
          this.post({
            type: 'error',
            message: 'Fix the marked entries; nothing was sent.',
            problems: outcome.problems,
          });
          break;
        case 'unchanged':
          this.post({ type: 'error', message: 'Nothing changed; nothing was sent.', problems: [] });
          break;
        case 'saved':
          log.info(`restrictions of ${this.key.name} replaced: ${outcome.changes.join(' ')}`);
          this.setKey(outcome.key);
          this.post({ type: 'saved', key: this.key, changes: outcome.changes });
          break;
        case 'conflict':
          log.info(`restrictions of ${this.key.name} not saved: the key changed on the server (etag conflict)`);
          this.setKey(outcome.key);
          this.post({
            type: 'conflict',
            key: this.key,
            message:
              'Someone changed this key after you opened it, so nothing was saved. The current server state is shown below; start over from it or keep your edits, review what will change, and save again.',
          });
          break;
      }
    } catch (err) {
      if (isCancellation(err)) {
        this.post({
          type: 'error',
          message: 'Cancelled. The key may or may not have changed; reopen the editor to see its state.',
          problems: [],
        });
      } else {
        log.failure(`updating restrictions of ${this.key.name}`, err);
        const gone = await keyGoneBehind(this.host.client(), this.key.name, err);
        if (gone) {
          this.post({ type: 'error', message: goneSentence(gone, 'not saved'), problems: [] });
          this.host.keyGone(gone, 'not saved');
        } else
          this.post({ type: 'error', message: `The server refused the change: ${describeError(err)}`, problems: [] });
      }
    } finally {
      this.saving = false;
    }
  }

  private setKey(key: ApiKey): void {
    this.apiKey = key;
    this.key = toEditorKey(key);
    this.host.keyChanged(key);
  }

  dispose(): void {
    this.closed();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function renderHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  return renderWebviewPage(webview, extensionUri, {
    bundle: 'keys',
    title: `Restrictions: ${title}`,
    placeholder: '<main id="app" aria-busy="true"><p id="loading">Loading restrictions…</p></main>',
  });
}
