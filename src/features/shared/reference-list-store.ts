// What is known of the reference lists, held for every UDM input: the language server (completion,
// checks, hover), the results panel's query bar, statistics and notebook cells. The Reference Lists
// view fills it; the language client hands each change to the server.
import * as vscode from 'vscode';
import { isKnownReferenceListsParams, isReferenceLists, type KnownReferenceListsParams } from '../../server/protocol';
import type { KnownReferenceList } from '../../udm/reference-lists';

export class ReferenceListStore implements vscode.Disposable {
  private lists: Record<string, string[]> | undefined;
  private knownLists: KnownReferenceList[] | undefined;
  private loadError: string | undefined;
  private readonly listsEmitter = new vscode.EventEmitter<Record<string, string[]>>();
  private readonly knownEmitter = new vscode.EventEmitter<KnownReferenceListsParams>();
  /** The entries changed (setEntries). */
  readonly onDidChangeEntries = this.listsEmitter.event;
  /** What is known of the lists changed (setKnown). */
  readonly onDidChangeKnown = this.knownEmitter.event;

  dispose(): void {
    this.listsEmitter.dispose();
    this.knownEmitter.dispose();
  }

  /** The entries of each list by name, so `in %name` is checked and evaluated the same everywhere. */
  entries(): Record<string, string[]> | undefined {
    return this.lists;
  }

  setEntries(lists: Record<string, string[]>): void {
    if (!isReferenceLists(lists)) throw new Error('reference lists must map names to arrays of strings');
    this.lists = lists;
    this.listsEmitter.fire(lists);
  }

  /** What is known of each list (name, type, size, description, preview); each call replaces the last. */
  known(): readonly KnownReferenceList[] | undefined {
    return this.knownLists;
  }

  /** Why the lists could not be loaded, when setKnown was told so. */
  knownError(): string | undefined {
    return this.loadError;
  }

  setKnown(lists: readonly KnownReferenceList[], loadError?: string): void {
    const params: KnownReferenceListsParams = {
      lists: lists.map((l) => ({ ...l, preview: [...l.preview] })),
      ...(loadError !== undefined ? { loadError } : {}),
    };
    if (!isKnownReferenceListsParams(params))
      throw new Error('reference lists need a name (letters, digits, _), a contentType, a size and a preview');
    this.knownLists = params.lists;
    this.loadError = loadError;
    this.knownEmitter.fire(params);
  }
}
