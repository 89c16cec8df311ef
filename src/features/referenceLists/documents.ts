// A reference list opened as a document: `cloudbench-list:/<name>`, one line per entry, comments
// kept. Saving checks the lines here, then has the server verify them, then makes sure nobody
// changed the list since it was opened (showing both versions and asking before replacing their
// change), and only then updates it. A refused save keeps the edit in the editor: nothing is ever lost.
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import { GoogleApiError } from '../../core/google/errors';
import type { ReferenceListDetails } from '../../core/secops/client';
import {
  contentTypeLabel,
  joinReferenceListLines,
  lintReferenceList,
  referenceListEntries,
  splitReferenceListText,
  type LineProblem,
  type ReferenceListContentType,
  type ReferenceListLineError,
} from '../../core/secops/reference-lists';
import type { ReferenceListsModel } from './model';

export const LIST_SCHEME = 'cloudbench-list';
/** Read-only copies of the server's version, the left side of a conflict's comparison. */
export const SERVER_COPY_SCHEME = 'cloudbench-list-server';
const DIAGNOSTIC_SOURCE = 'reference list';

export function listUri(name: string): vscode.Uri {
  return vscode.Uri.parse(`${LIST_SCHEME}:/${name}`);
}

export function listNameOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== LIST_SCHEME && uri.scheme !== SERVER_COPY_SCHEME) return undefined;
  const name = uri.path.replace(/^\/+/, '');
  return name === '' || name.includes('/') ? undefined : name;
}

export type ConflictChoice = 'merge' | 'overwrite' | 'cancel';

/**
 * Asks what to do when the list changed on the server since it was opened; called once both
 * versions are on screen side by side.
 */
export type ConflictPrompt = (
  name: string,
  server: ReferenceListDetails,
  opened: ReferenceListDetails,
) => Promise<ConflictChoice>;

export const MERGE_CHOICE = 'Merge First';
export const OVERWRITE_CHOICE = 'Save Mine';

export const askAboutConflict: ConflictPrompt = async (name, server, opened) => {
  const now = referenceListEntries(server.lines).length;
  const before = referenceListEntries(opened.lines).length;
  const choice = await vscode.window.showWarningMessage(
    `"${safeText(name)}" changed on the server since you opened it: the server's version is on the left, your edit on the right.`,
    {
      modal: true,
      detail: `The server's version has ${now} entries (${before} when you opened it). Merge First does not save: bring what you need from the left into your edit, then save again. Save Mine replaces the server's version with your edit. Your edit stays in the editor either way.`,
    },
    MERGE_CHOICE,
    OVERWRITE_CHOICE,
  );
  return choice === MERGE_CHOICE ? 'merge' : choice === OVERWRITE_CHOICE ? 'overwrite' : 'cancel';
};

interface Opened {
  /** The list as the server had it when it was opened or last saved. */
  base: ReferenceListDetails;
  mtime: number;
}

interface PendingCreate {
  description: string;
  contentType: ReferenceListContentType;
}

/** A save that did not happen; the message says why and what to do. */
export class SaveRefusedError extends Error {
  override readonly name = 'SaveRefusedError';
}

function sameContent(a: ReferenceListDetails, b: ReferenceListDetails): boolean {
  return (
    a.contentType === b.contentType &&
    a.description === b.description &&
    a.lines.length === b.lines.length &&
    a.lines.every((l, i) => l === b.lines[i])
  );
}

/** Problems of the editor: the local checks as you type, and what the server reported on save. */
export class ReferenceListDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('cloudbench-reference-lists');

  dispose(): void {
    this.collection.dispose();
  }

  /** Checks a document's lines for its content type; returns the number of errors. */
  lint(uri: vscode.Uri, type: ReferenceListContentType, lines: readonly string[]): number {
    const problems = lintReferenceList(type, lines);
    this.collection.set(uri, problems.map(toDiagnostic));
    return problems.filter((p) => p.severity === 'error').length;
  }

  /** Adds the server's verification errors to the local ones. */
  addServerErrors(uri: vscode.Uri, errors: readonly ReferenceListLineError[], lines: readonly string[]): void {
    const extra = errors.map((e) => {
      const line = e.lineNumber >= 1 && e.lineNumber <= lines.length ? e.lineNumber - 1 : 0;
      const d = new vscode.Diagnostic(
        new vscode.Range(line, 0, line, lines[line]?.length ?? 0),
        `Server: ${e.errorMessage}`,
        vscode.DiagnosticSeverity.Error,
      );
      d.source = DIAGNOSTIC_SOURCE;
      return d;
    });
    this.collection.set(uri, [...(this.collection.get(uri) ?? []), ...extra]);
  }

  clear(uri: vscode.Uri): void {
    this.collection.delete(uri);
  }
}

function toDiagnostic(p: LineProblem): vscode.Diagnostic {
  const d = new vscode.Diagnostic(
    new vscode.Range(p.line, p.start, p.line, Math.max(p.end, p.start)),
    p.message,
    p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  d.source = DIAGNOSTIC_SOURCE;
  return d;
}

function notFound(uri: vscode.Uri, err: unknown): Error {
  if (err instanceof GoogleApiError && err.status === 'NOT_FOUND') return vscode.FileSystemError.FileNotFound(uri);
  return err instanceof Error ? err : new Error(String(err));
}

export class ReferenceListFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly opened = new Map<string, Opened>();
  private readonly pending = new Map<string, PendingCreate>();
  /** The server's version shown on the left of a conflict comparison. */
  private readonly serverCopies = new Map<string, string>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changeEmitter.event;
  private clock = 0;

  constructor(
    private readonly model: ReferenceListsModel,
    private readonly diagnostics: ReferenceListDiagnostics,
    private readonly prompt: ConflictPrompt = askAboutConflict,
    private readonly showComparison: (server: vscode.Uri, mine: vscode.Uri, title: string) => Thenable<unknown> = (
      server,
      mine,
      title,
    ) => vscode.commands.executeCommand('vscode.diff', server, mine, title),
  ) {}

  dispose(): void {
    this.changeEmitter.dispose();
  }

  /** Strictly increasing times, so every save looks newer than the last to the editor. */
  private tick(): number {
    this.clock = Math.max(Date.now(), this.clock + 1);
    return this.clock;
  }

  /** A list the user is creating: the document starts empty and its first save creates it. */
  startCreate(name: string, description: string, contentType: ReferenceListContentType): vscode.Uri {
    this.pending.set(name, { description, contentType });
    return listUri(name);
  }

  isPendingCreate(name: string): boolean {
    return this.pending.has(name);
  }

  /** The content type a document's lines are checked against, when it is known. */
  contentTypeOf(uri: vscode.Uri): ReferenceListContentType | undefined {
    const name = listNameOf(uri);
    if (!name) return undefined;
    return this.pending.get(name)?.contentType ?? this.opened.get(name)?.base.contentType;
  }

  /** Text of the server's version saved for a comparison. */
  serverCopy(uri: vscode.Uri): string | undefined {
    const name = listNameOf(uri);
    return name === undefined ? undefined : this.serverCopies.get(name);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const name = this.nameOf(uri);
    if (this.pending.has(name)) return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: 0 };
    const open = this.opened.get(name) ?? (await this.fetch(uri, name));
    return {
      type: vscode.FileType.File,
      ctime: 0,
      mtime: open.mtime,
      size: Buffer.byteLength(joinReferenceListLines(open.base.lines), 'utf8'),
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const name = this.nameOf(uri);
    if (this.pending.has(name)) return new Uint8Array();
    // Always the server's current version: opening again or reverting shows what is there now.
    const open = await this.fetch(uri, name);
    return Buffer.from(joinReferenceListLines(open.base.lines), 'utf8');
  }

  private async fetch(uri: vscode.Uri, name: string): Promise<Opened> {
    let list: ReferenceListDetails;
    try {
      list = await this.model.getClient().getReferenceList(name);
    } catch (err) {
      throw notFound(uri, err);
    }
    const before = this.opened.get(name);
    const open: Opened = {
      base: list,
      mtime: before && sameContent(before.base, list) ? before.mtime : (before?.mtime ?? this.tick()),
    };
    this.opened.set(name, open);
    return open;
  }

  /**
   * Everything a save checks before it changes the server: the lines here, then by the server, then
   * whether someone else changed the list (showing both versions and asking). Throws
   * SaveRefusedError with what to do; resolves when a save of `text` may go ahead. Cloudbench's own
   * save runs this before VS Code writes the document, so a refusal is Cloudbench's message and the
   * document simply stays dirty.
   */
  async checkSave(uri: vscode.Uri, text: string): Promise<void> {
    const name = this.nameOf(uri);
    const lines = splitReferenceListText(text);
    await this.check(uri, name, lines);
    this.approved.set(name, text);
  }

  /** The text a checkSave just let through, per list: its write does not ask the server twice. */
  private readonly approved = new Map<string, string>();

  private async check(uri: vscode.Uri, name: string, lines: string[]): Promise<ReferenceListContentType> {
    const pending = this.pending.get(name);
    const opened = this.opened.get(name);
    const type = pending?.contentType ?? opened?.base.contentType;
    if (!type) throw new SaveRefusedError(`Not saved: open "${name}" from the Reference Lists view first.`);

    // 1. The checks of the editor.
    const localErrors = this.diagnostics.lint(uri, type, lines);
    if (localErrors > 0)
      throw new SaveRefusedError(
        `Not saved: ${localErrors} line${localErrors > 1 ? 's are' : ' is'} not valid for a list of ${contentTypeLabel(type).toLowerCase()}. Fix the errors shown in the Problems view, then save again.`,
      );

    // 2. The server's verification, before anything is changed.
    const client = this.model.getClient();
    const verdict = await client.verifyReferenceList(type, lines);
    if (!verdict.success) {
      this.diagnostics.addServerErrors(uri, verdict.errors, lines);
      const first = verdict.errors[0];
      const where = first && first.lineNumber > 0 ? `line ${first.lineNumber}: ` : '';
      throw new SaveRefusedError(
        `Not saved: the server refused ${verdict.errors.length} line${verdict.errors.length > 1 ? 's' : ''} (${where}${safeText(first?.errorMessage ?? 'invalid list')}). Fix them and save again.`,
      );
    }

    // 3. An existing list: was it changed by someone else since it was opened?
    if (!pending) await this.checkConflict(uri, name, opened!);
    return type;
  }

  private async checkConflict(uri: vscode.Uri, name: string, opened: Opened): Promise<void> {
    const base = opened.base;
    let server: ReferenceListDetails;
    try {
      server = await this.model.getClient().getReferenceList(name);
    } catch (err) {
      if (err instanceof GoogleApiError && err.status === 'NOT_FOUND')
        throw new SaveRefusedError(
          `Not saved: "${name}" no longer exists on the server. Your lines are still in this editor; create a new list with them.`,
        );
      throw err;
    }
    if (sameContent(server, base)) return;
    // Both versions side by side first, then the question: the choice is made having seen them.
    this.serverCopies.set(name, joinReferenceListLines(server.lines));
    await this.showComparison(
      vscode.Uri.parse(`${SERVER_COPY_SCHEME}:/${name}`),
      uri,
      `${name}: server's version ↔ your edit`,
    );
    const choice = await this.prompt(name, server, base);
    if (choice === 'merge') {
      // The user has seen the server's version: saving the merged text next time is their call.
      this.opened.set(name, { base: server, mtime: opened.mtime });
      throw new SaveRefusedError(
        `Not saved: "${name}" changed on the server since you opened it. Merge what you need from the server's version (left) into your edit (right), then save again.`,
      );
    }
    if (choice !== 'overwrite')
      throw new SaveRefusedError(
        `Not saved: "${name}" changed on the server since you opened it. Your edit is still in the editor.`,
      );
    // Replacing the server's version is the user's choice: it is the base the save goes over.
    this.opened.set(name, { base: server, mtime: opened.mtime });
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const name = this.nameOf(uri);
    const text = Buffer.from(content).toString('utf8');
    const lines = splitReferenceListText(text);
    const approved = this.approved.get(name) === text;
    this.approved.delete(name);
    // Saved another way than Cloudbench's save (Save All, the File menu): the same checks here; a
    // refusal then reaches the editor's own message, still keeping the edit.
    const type = approved ? this.contentTypeOf(uri) : await this.check(uri, name, lines);
    if (!type) throw new SaveRefusedError(`Not saved: open "${name}" from the Reference Lists view first.`);
    const client = this.model.getClient();
    const pending = this.pending.get(name);

    // A new list.
    if (pending) {
      let created: ReferenceListDetails;
      try {
        created = await client.createReferenceList({
          name,
          description: pending.description,
          contentType: pending.contentType,
          lines,
        });
      } catch (err) {
        if (err instanceof GoogleApiError && err.status === 'ALREADY_EXISTS')
          throw new SaveRefusedError(
            `Not saved: a list named "${name}" already exists on the server. Your lines are still in this editor: copy them, open "${name}" from the Reference Lists view to add them there, or create the list under another name.`,
          );
        throw err;
      }
      this.pending.delete(name);
      this.opened.set(name, { base: created, mtime: this.tick() });
      this.diagnostics.lint(uri, type, lines);
      this.model.remember(created);
      return;
    }

    // An existing list, checked against the server's version just now.
    const server = this.opened.get(name)!.base;
    const updated = await client.updateReferenceList({
      name,
      lines,
      ...(server.contentType !== type ? { contentType: type } : {}),
    });
    this.opened.set(name, { base: updated, mtime: this.tick() });
    this.diagnostics.lint(uri, type, lines);
    this.model.remember(updated);
  }

  private nameOf(uri: vscode.Uri): string {
    const name = listNameOf(uri);
    if (!name) throw vscode.FileSystemError.FileNotFound(uri);
    return name;
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('Reference lists have no folders.');
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions('The reference-list API has no delete: a list cannot be removed.');
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('The reference-list API cannot rename a list.');
  }
}
