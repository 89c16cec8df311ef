// UDM language server: LSP glue over src/udm. Runs with --stdio or --node-ipc (the transport is
// picked from the command line by vscode-languageserver).
import {
  createConnection,
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  NotebookDocuments,
  ProposedFeatures,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
  type CancellationToken,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import type {
  CodeActionParams,
  CompletionParams,
  DefinitionParams,
  DocumentDiagnosticParams,
  DocumentFormattingParams,
  DocumentSymbolParams,
  FoldingRangeParams,
  HoverParams,
  ReferenceParams,
  SemanticTokensDeltaParams,
  SemanticTokensParams,
  SignatureHelpParams,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  SEMANTIC_TOKEN_MODIFIERS,
  SEMANTIC_TOKEN_TYPES,
  UdmDocument,
  codeActions,
  complete,
  documentSymbols,
  foldingRanges,
  format,
  formatRefusal,
  hover,
  semanticTokens,
  signatureHelp,
  toLspDiagnostics,
} from '../udm/service';
import { SemanticTokensResults } from '../udm/ide/semantic-tokens-delta';
import { ChangeTimes, DiagnosticReports, quietPeriod } from './diagnostics-timing';
import { ruleServer } from './yaral';
import type { CompileOptions } from '../udm/index';
import { knownListMap, type KnownReferenceList } from '../udm/reference-lists';
import {
  KNOWN_REFERENCE_LISTS_NOTIFICATION,
  REFERENCE_LISTS_NOTIFICATION,
  isKnownReferenceListsParams,
  isReferenceLists,
  isReferenceListsParams,
  UDM_NOTEBOOK_TYPE,
  type UdmInitializationOptions,
} from './protocol';

// TextDocuments' event types do not survive the node10 module resolution of tsconfig; name them.
type DocumentEvent = { document: TextDocument };

const connection = createConnection(ProposedFeatures.all);
const documents: TextDocuments<TextDocument> = new TextDocuments(TextDocument);
// UDM notebooks arrive through notebook document sync; their UDM cells land in `documents` too,
// so every feature below serves a cell exactly as it serves a `.udm` file.
const notebooks = new NotebookDocuments(documents);
const udmDocs = new Map<string, UdmDocument>();
let referenceLists: Record<string, string[]> | undefined;
/** What the extension told us of the lists (names, types, sizes); undefined: names unknown. */
let knownLists:
  { list: KnownReferenceList[]; byName: Map<string, KnownReferenceList>; loadError: string | undefined } | undefined;
let pushDiagnostics = true;
const pending = new Map<string, NodeJS.Timeout>();
const changeTimes = new ChangeTimes();
const reports = new DiagnosticReports();
const tokenResults = new SemanticTokensResults();

function udmDoc(uri: string): UdmDocument | undefined {
  const doc = documents.get(uri);
  if (!doc) return undefined;
  let u = udmDocs.get(uri);
  const options = compileOptions();
  // A rule file (`yaral`) is analysed as a rule; switching a document's language starts afresh.
  if (!u || u.languageId !== doc.languageId) {
    u = new UdmDocument(doc.getText(), doc.version, options, doc.languageId);
    udmDocs.set(uri, u);
  } else if (u.version !== doc.version) {
    u.update(doc.getText(), doc.version);
  }
  return u;
}

function compileOptions(): CompileOptions {
  // Known lists (from the Reference Lists view) win: an unknown name is an error when they are what
  // the server listed, a warning when they could not be loaded.
  if (knownLists)
    return {
      knownLists: knownLists.byName,
      ...(knownLists.loadError !== undefined ? { listsUnavailable: knownLists.loadError } : {}),
    };
  return referenceLists ? { referenceLists } : {};
}

function setKnownLists(list: KnownReferenceList[], loadError?: string): void {
  knownLists = { list, byName: knownListMap(list), loadError };
}

function optionsChanged(): void {
  const options = compileOptions();
  for (const u of udmDocs.values()) u.setOptions(options);
  for (const doc of documents.all()) schedulePush(doc.uri);
  void connection.languages.diagnostics.refresh().catch(() => undefined);
}

/** Diagnostics follow typing closely but not on every keystroke of a burst: one publish per pause. */
function schedulePush(uri: string): void {
  if (!pushDiagnostics) return;
  const old = pending.get(uri);
  if (old) clearTimeout(old);
  const length = documents.get(uri)?.getText().length ?? 0;
  pending.set(
    uri,
    setTimeout(
      () => {
        pending.delete(uri);
        const u = udmDoc(uri);
        if (!u) return;
        void connection.sendDiagnostics({ uri, version: u.version, diagnostics: toLspDiagnostics(u.analysis) });
      },
      quietPeriod(length, true),
    ),
  );
}

/**
 * The tokens of `uri` once it is still. A large document changing meanwhile answers "content
 * modified": the editor keeps its colours (moved with the edits; the grammar colours new text)
 * and asks again, so a burst of typing costs one classification, after it.
 */
async function semanticTokenData(uri: string, token: CancellationToken): Promise<number[]> {
  const length = documents.get(uri)?.getText().length ?? 0;
  const settled = await changeTimes.settle(uri, quietPeriod(length, false), token, true);
  if (settled === 'changed') throw new ResponseError(LSPErrorCodes.ContentModified, 'The document changed; ask again.');
  if (settled === 'cancelled') throw new ResponseError(LSPErrorCodes.RequestCancelled, 'Cancelled.');
  const u = udmDoc(uri);
  return u ? (ruleServer.semanticTokens(u.analysis) ?? semanticTokens(u.analysis)) : [];
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  const init = (params.initializationOptions ?? {}) as UdmInitializationOptions;
  if (isReferenceLists(init.referenceLists)) referenceLists = init.referenceLists;
  if (init.knownReferenceLists !== undefined) {
    const params = {
      lists: init.knownReferenceLists,
      ...(init.knownReferenceListsError !== undefined ? { loadError: init.knownReferenceListsError } : {}),
    };
    if (isKnownReferenceListsParams(params)) setKnownLists(params.lists, params.loadError);
    else connection.console.warn('Ignored known reference lists with an unexpected shape');
  }
  const canPull = !!params.capabilities.textDocument?.diagnostic;
  // A client that pulls would show pushed diagnostics twice.
  pushDiagnostics = init.pushDiagnostics === true || !canPull;
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      notebookDocumentSync: {
        notebookSelector: [{ notebook: { notebookType: UDM_NOTEBOOK_TYPE }, cells: [{ language: 'udm' }] }],
      },
      completionProvider: { triggerCharacters: ['.', '$', '%', '"', '=', '#'], resolveProvider: false },
      definitionProvider: true,
      referencesProvider: true,
      hoverProvider: true,
      signatureHelpProvider: { triggerCharacters: ['(', ','], retriggerCharacters: [','] },
      documentFormattingProvider: true,
      codeActionProvider: { codeActionKinds: ['quickfix'] },
      foldingRangeProvider: true,
      documentSymbolProvider: true,
      semanticTokensProvider: {
        legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS] },
        full: { delta: true },
      },
      diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
    },
    serverInfo: { name: 'Cloudbench UDM Language Server', version: '0.1.0' },
  };
});

connection.onNotification(REFERENCE_LISTS_NOTIFICATION, (params: unknown) => {
  if (!isReferenceListsParams(params)) {
    connection.console.warn('Ignored reference lists with an unexpected shape');
    return;
  }
  referenceLists = params.lists;
  optionsChanged();
});

connection.onNotification(KNOWN_REFERENCE_LISTS_NOTIFICATION, (params: unknown) => {
  if (!isKnownReferenceListsParams(params)) {
    connection.console.warn(
      'Ignored reference lists with an unexpected shape (expected {lists: [{name, contentType, size, preview}]})',
    );
    return;
  }
  setKnownLists(params.lists, params.loadError);
  optionsChanged();
});

/** The events of TextDocuments used here, typed locally for the same reason as DocumentEvent. */
interface DocumentEvents {
  onDidOpen(listener: (e: DocumentEvent) => void): unknown;
  onDidChangeContent(listener: (e: DocumentEvent) => void): unknown;
  onDidClose(listener: (e: DocumentEvent) => void): unknown;
}
const documentEvents: DocumentEvents = documents;

documentEvents.onDidOpen((e) => schedulePush(e.document.uri));
documentEvents.onDidChangeContent((e) => {
  changeTimes.changed(e.document.uri);
  schedulePush(e.document.uri);
});
documentEvents.onDidClose((e) => {
  udmDocs.delete(e.document.uri);
  changeTimes.forget(e.document.uri);
  reports.forget(e.document.uri);
  tokenResults.forget(e.document.uri);
  const t = pending.get(e.document.uri);
  if (t) clearTimeout(t);
  pending.delete(e.document.uri);
  if (pushDiagnostics) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

connection.languages.diagnostics.on(async (params: DocumentDiagnosticParams, token) => {
  const uri = params.textDocument.uri;
  const length = documents.get(uri)?.getText().length ?? 0;
  // The editor pulls after every change and cancels the pull before: a large document is checked
  // once typing pauses, and a cancelled pull costs nothing. (Cancelled, the editor asks again and
  // keeps the squiggles it shows meanwhile.)
  if ((await changeTimes.settle(uri, quietPeriod(length, false), token)) !== 'still')
    throw new ResponseError(LSPErrorCodes.RequestCancelled, 'The document changed; ask again.');
  const u = udmDoc(uri);
  const items = u ? toLspDiagnostics(u.analysis) : [];
  const { resultId, unchanged } = reports.report(uri, items, params.previousResultId);
  return unchanged
    ? { kind: DocumentDiagnosticReportKind.Unchanged, resultId }
    : { kind: DocumentDiagnosticReportKind.Full, resultId, items };
});

connection.onCompletion((params: CompletionParams) => {
  const u = udmDoc(params.textDocument.uri);
  if (!u) return [];
  const lists = knownLists ? knownLists.list : referenceLists ? Object.keys(referenceLists) : [];
  return ruleServer.completion(u.analysis, params.position, lists) ?? complete(u.analysis, params.position, lists);
});

connection.onHover((params: HoverParams) => {
  const u = udmDoc(params.textDocument.uri);
  if (!u) return null;
  const lists = knownLists ? knownLists.byName : (referenceLists ?? {});
  const rule = ruleServer.hover(u.analysis, params.position, lists);
  return rule !== undefined ? rule : hover(u.analysis, params.position, lists);
});

connection.onSignatureHelp((params: SignatureHelpParams) => {
  const u = udmDoc(params.textDocument.uri);
  return u ? signatureHelp(u.analysis, params.position) : null;
});

connection.onDocumentFormatting((params: DocumentFormattingParams) => {
  const u = udmDoc(params.textDocument.uri);
  if (!u) return [];
  // Say why nothing changes: a Format Document that silently does nothing looks broken.
  const rule = ruleServer.format(u.analysis, params.options);
  const refusal = rule ? rule.refusal : formatRefusal(u.analysis);
  // A notification, not showInformationMessage's request: a client without message requests would
  // answer with an error nobody awaits.
  if (refusal)
    void connection.sendNotification('window/showMessage', { type: 3, message: refusal }).catch(() => undefined);
  return rule ? rule.edits : format(u.analysis, params.options);
});

connection.onCodeAction((params: CodeActionParams) => {
  const u = udmDoc(params.textDocument.uri);
  return u ? codeActions(u.analysis, params.textDocument.uri, params.range) : [];
});

connection.onFoldingRanges((params: FoldingRangeParams) => {
  const u = udmDoc(params.textDocument.uri);
  return u ? (ruleServer.folding(u.analysis) ?? foldingRanges(u.analysis)) : [];
});

connection.onDocumentSymbol((params: DocumentSymbolParams) => {
  const u = udmDoc(params.textDocument.uri);
  return u ? (ruleServer.symbols(u.analysis) ?? documentSymbols(u.analysis)) : [];
});

connection.languages.semanticTokens.on(async (params: SemanticTokensParams, token) =>
  tokenResults.full(params.textDocument.uri, await semanticTokenData(params.textDocument.uri, token)),
);

// After an edit only the tokens around it change: the answer is the edit of the previous one.
connection.languages.semanticTokens.onDelta(async (params: SemanticTokensDeltaParams, token) =>
  tokenResults.delta(
    params.textDocument.uri,
    params.previousResultId,
    await semanticTokenData(params.textDocument.uri, token),
  ),
);

// Event variables and placeholders of rule files.
connection.onDefinition((params: DefinitionParams) => {
  const u = udmDoc(params.textDocument.uri);
  return u ? ruleServer.definition(u.analysis, params.textDocument.uri, params.position) : [];
});

connection.onReferences((params: ReferenceParams) => {
  const u = udmDoc(params.textDocument.uri);
  return u
    ? ruleServer.references(u.analysis, params.textDocument.uri, params.position, params.context.includeDeclaration)
    : [];
});

documents.listen(connection);
notebooks.listen(connection);
connection.listen();
