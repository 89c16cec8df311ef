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
import {
  changeUndoneBy,
  describeLines,
  isEmptyChange,
  linesToSend,
  serverTextLike,
  type ServerChange,
} from '../../core/secops/reference-list-conflict';
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
 * Asks what to do when saving would undo a change someone else made on the server; called once both
 * versions are on screen in a comparison. `undone` is the part of their change the save would lose.
 */
export type ConflictPrompt = (
  name: string,
  server: ReferenceListDetails,
  opened: ReferenceListDetails,
  undone: ServerChange,
) => Promise<ConflictChoice>;

export const MERGE_CHOICE = 'Merge First';
export const OVERWRITE_CHOICE = 'Save Mine';

/** The comparison's title: which side is which, whether the editor shows it side by side or inline. */
export function comparisonTitle(name: string): string {
  return `${name}: Server (changed by someone else) ↔ Yours`;
}

/** What the server changed that a save would undo, in words that do not depend on the diff's layout. */
export function describeUndone(undone: ServerChange): string {
  const parts: string[] = [];
  if (undone.added.length) parts.push(`added there: ${describeLines(undone.added.map((l) => safeText(l)))}`);
  if (undone.removed.length) parts.push(`removed there: ${describeLines(undone.removed.map((l) => safeText(l)))}`);
  return parts.join('; ');
}

export const askAboutConflict: ConflictPrompt = async (name, server, opened, undone) => {
  const now = referenceListEntries(server.lines).length;
  const before = referenceListEntries(opened.lines).length;
  const choice = await vscode.window.showWarningMessage(
    `"${safeText(name)}" changed on the server since you opened it, and saving yours would undo that change (${describeUndone(undone)}).`,
    {
      modal: true,
      detail: `The comparison "Server (changed by someone else) ↔ Yours" is open: red lines are only in the server's version, green lines only in yours. The server's version has ${now} entries (${before} when you opened it). Merge First does not save: bring the server's lines into yours, then save again. Save Mine replaces the server's version with yours. Your edit stays in the editor either way.`,
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

/**
 * A save that did not happen; the message says why and what to do. Thrown from writeFile, it reaches
 * the editor's save-error notification (with Retry, Save As… and Revert, closed by the editor itself
 * once the document is saved or reverted) as "Unable to write file '…' (<message>)": the empty name
 * keeps an error class name out of that text.
 */
export class SaveRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = '';
  }
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
  private readonly serverCopyEmitter = new vscode.EventEmitter<vscode.Uri>();
  /** A server copy's text changed: an open comparison shows the server's version of this conflict. */
  readonly onDidChangeServerCopy = this.serverCopyEmitter.event;
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
    this.serverCopyEmitter.dispose();
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
   * whether the save would undo someone else's change (showing both versions and asking). Throws
   * SaveRefusedError with what to do; resolves with the content type once the save may go ahead.
   */
  private async check(uri: vscode.Uri, name: string, text: string): Promise<ReferenceListContentType> {
    const lines = splitReferenceListText(text);
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
    const verdict = await client.verifyReferenceList(type, linesToSend(lines));
    if (!verdict.success) {
      // The server numbers the lines sent (no blank ones): point at the document's own lines.
      const documentLine = lines.flatMap((l, i) => (l.trim() === '' ? [] : [i + 1]));
      const errors = verdict.errors.map((e) => ({ ...e, lineNumber: documentLine[e.lineNumber - 1] ?? e.lineNumber }));
      this.diagnostics.addServerErrors(uri, errors, lines);
      const first = errors[0];
      const where = first && first.lineNumber > 0 ? `line ${first.lineNumber}: ` : '';
      throw new SaveRefusedError(
        `Not saved: the server refused ${verdict.errors.length} line${verdict.errors.length > 1 ? 's' : ''} (${where}${safeText(first?.errorMessage ?? 'invalid list')}). Fix them and save again.`,
      );
    }

    // 3. An existing list: would this save undo a change someone else made since it was opened?
    if (!pending) await this.checkConflict(uri, name, opened!, text);
    return type;
  }

  /**
   * Compares the server's version now with the one the edit started from. A change there that the
   * edit already holds (merged) lets the save go ahead; one it would undo is shown beside the edit,
   * then asked about. Merge First and Cancel leave the edit's starting point as it was, so a retry of
   * the same text (the editor's Retry, Save All, File > Save) is asked about again, never let through.
   */
  private async checkConflict(uri: vscode.Uri, name: string, opened: Opened, text: string): Promise<void> {
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
    const undone = changeUndoneBy(base.lines, server.lines, splitReferenceListText(text));
    if (isEmptyChange(undone)) {
      // Everything the server gained or lost is already so in the edit: saving keeps their change.
      this.opened.set(name, { base: server, mtime: opened.mtime });
      return;
    }
    // Both versions first, then the question: the choice is made having seen them.
    this.serverCopies.set(name, serverTextLike(server.lines, text));
    const serverUri = vscode.Uri.parse(`${SERVER_COPY_SCHEME}:/${name}`);
    this.serverCopyEmitter.fire(serverUri);
    await this.showComparison(serverUri, uri, comparisonTitle(name));
    const choice = await this.prompt(name, server, base, undone);
    if (choice === 'merge')
      throw new SaveRefusedError(
        `Not saved: "${name}" changed on the server since you opened it (${describeUndone(undone)}). Bring those lines into your edit from the comparison, then save again.`,
      );
    if (choice !== 'overwrite')
      throw new SaveRefusedError(
        `Not saved: "${name}" changed on the server since you opened it (${describeUndone(undone)}). Your edit is still in the editor.`,
      );
    // Replacing the server's version is the user's choice, made having seen it.
    this.opened.set(name, { base: server, mtime: opened.mtime });
  }

  /**
   * Every save of a list document comes here, whichever way it was started (Ctrl+S, File > Save,
   * Save All, auto save, the editor's Retry): one set of checks and questions for all of them. A
   * refusal throws, so the editor keeps the document dirty with its text.
   */
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const name = this.nameOf(uri);
    const text = Buffer.from(content).toString('utf8');
    const type = await this.check(uri, name, text);
    const lines = linesToSend(splitReferenceListText(text));
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
