// The results panel's query bar completes and checks with the UDM language service the language
// server runs (src/udm/service.ts), inside the page itself: a key in the bar reaches the suggest
// widget without a trip through the extension host. Same functions, same options as the server, so
// the bar completes and checks like the editor. Free of `vscode` and of the DOM: the query bar's
// bundle runs it, and the tests run it in Node.
import type { CompileOptions } from '../../udm';
import { knownListMap, type KnownReferenceList } from '../../udm/reference-lists';
import { complete, toLspDiagnostics, UdmDocument } from '../../udm/service';
import type { CompletionItem, Diagnostic, Position } from 'vscode-languageserver-types';

/**
 * What the extension host knows of the reference lists, as the language server gets it: the lists
 * the Reference Lists view knows (`knownLists`: name, type, size, preview), why they could not be
 * loaded (`listsUnavailable`), and lists given with their entries (`referenceLists`).
 */
export interface QueryBarLists {
  referenceLists?: Record<string, string[]>;
  knownLists?: KnownReferenceList[];
  listsUnavailable?: string;
}

/**
 * The server's compile options for these lists (src/server/main.ts): known lists win over bare
 * entries; an unknown `%name` is then an error, or a warning when they could not be loaded.
 */
export function queryBarOptions(lists: QueryBarLists): CompileOptions {
  const { referenceLists, knownLists, listsUnavailable } = lists;
  if (knownLists)
    return { knownLists: knownListMap(knownLists), ...(listsUnavailable !== undefined ? { listsUnavailable } : {}) };
  return referenceLists ? { referenceLists } : {};
}

/** The names `%` completes, with their details when the lists are known (as the server offers them). */
function listsForCompletion(lists: QueryBarLists): readonly KnownReferenceList[] | string[] {
  return lists.knownLists ?? (lists.referenceLists ? Object.keys(lists.referenceLists) : []);
}

/**
 * The bar's one document: one analysis per text, shared by completion and diagnostics, redone when
 * the text or the lists change.
 */
export class QueryBarService {
  private lists: QueryBarLists = {};
  private version = 0;
  private readonly doc = new UdmDocument('', 0, {});

  constructor(lists: QueryBarLists = {}) {
    this.setLists(lists);
  }

  setLists(lists: QueryBarLists): void {
    this.lists = lists;
    this.doc.setOptions(queryBarOptions(lists));
  }

  completions(text: string, position: Position): CompletionItem[] {
    return complete(this.analysis(text), position, listsForCompletion(this.lists));
  }

  diagnostics(text: string): Diagnostic[] {
    return toLspDiagnostics(this.analysis(text));
  }

  private analysis(text: string): UdmDocument['analysis'] {
    if (text !== this.doc.text) this.doc.update(text, ++this.version);
    return this.doc.analysis;
  }
}
