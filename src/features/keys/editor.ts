// "Edit Restrictions…": a webview form that starts from the key's current restrictions. The webview
// validates as the user types and shows the replacement diff; this side validates again, sends
// updateMask=restrictions with the etag the form started from, and on an etag conflict hands the
// newer server state back to the form instead of overwriting it. Its life (rendering, "ready", the
// queue, checks on arrival, restore after a reload) is the one PagePanel.
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import type { ApiKeysClient } from '../../core/apikeys/client';
import { RestrictionSession } from '../../core/apikeys/session';
import { parseFromWebview, type EditorKey, type FromWebview, type ToWebview } from '../../core/apikeys/messages';
import type { ApiKey, Restrictions } from '../../core/apikeys/types';
import { validateRestrictions } from '../../core/apikeys/validation';
import { describeError, isCancellation } from '../../core/google/errors';
import { getLogger } from '../../platform/log';
import { OpenPanels } from '../../platform/open-panels';
import { PageMessageError, PagePanel, refusing, type PageSpec } from '../../platform/page-panel';
import { goneSentence, keyGoneBehind, type KeyGone } from './deleted';
import { keyIdOf } from './tree';
import type { FollowOperation } from './context';
import { webviewPanelOptions } from '../../platform/webview';

const log = getLogger('keys');
export const RESTRICTIONS_VIEW_TYPE = 'cloudbench.keys.restrictions';
/** A key's resource name as the page keeps it for a reload (checked: a page's state is untrusted). */
const KEY_NAME = /^projects\/[^/\s]{1,100}\/locations\/[^/\s]{1,63}\/keys\/[^/\s]{1,100}$/;

function restrictionsPage(title: string): PageSpec<FromWebview, ToWebview> {
  return {
    page: {
      bundle: 'keys',
      title: `Restrictions: ${title}`,
      placeholder: '<main id="app" aria-busy="true"><p id="loading">Loading restrictions…</p></main>',
    },
    what: 'the restriction editor',
    parse: refusing(parseFromWebview, 'the restriction editor'),
    malformed: PageMessageError,
    log,
  };
}

/** The key a restriction editor restored after a reload was editing, from what its page kept. */
export function keptKeyName(state: unknown): string | undefined {
  const name = (state as { keyName?: unknown } | null)?.keyName;
  return typeof name === 'string' && KEY_NAME.test(name) ? name : undefined;
}

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
        RESTRICTIONS_VIEW_TYPE,
        `Restrictions: ${safeText(key.displayName || keyIdOf(key.name))}`,
        vscode.ViewColumn.Active,
        webviewPanelOptions(this.extensionUri),
      );
      return new RestrictionEditor(panel, this.extensionUri, key, this.host, closed);
    });
  }

  /**
   * A restriction editor VS Code restored after a reload: the key its page kept is read again from
   * the service (edits not saved are gone, as after closing the tab); without one it closes.
   */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const name = keptKeyName(state);
    let key: ApiKey | undefined;
    try {
      if (name) key = await this.host.client().getKey(name);
    } catch (err) {
      log.warn(`the restriction editor of ${name} was not restored: ${describeError(err)}`);
    }
    if (!key) {
      panel.dispose();
      return;
    }
    const restored = key;
    // Held by the open editors until it closes, and closed with the connection.
    void this.add(
      restored.name,
      (closed) => new RestrictionEditor(panel, this.extensionUri, restored, this.host, closed),
    );
  }
}

export class RestrictionEditor implements vscode.Disposable {
  private readonly page: PagePanel<FromWebview, ToWebview>;
  private key: EditorKey;
  private apiKey: ApiKey;
  private saving = false;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    key: ApiKey,
    private readonly host: EditorHost,
    closed: () => void,
  ) {
    this.apiKey = key;
    this.key = toEditorKey(key);
    this.page = new PagePanel(
      panel,
      extensionUri,
      restrictionsPage(this.key.displayName || this.key.keyId),
      { onMessage: (message) => void this.onMessage(message) },
      closed,
    );
  }

  get panel(): vscode.WebviewPanel {
    return this.page.panel;
  }

  private post(message: ToWebview): void {
    this.page.post(message);
  }

  private async onMessage(message: FromWebview): Promise<void> {
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
    this.page.dispose();
  }
}
