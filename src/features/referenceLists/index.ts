// Reference lists in the editor: the Reference Lists view, lists opened as documents validated as
// you type and saved safely, creating a list, and Go to Definition from `%name` in a UDM query or a
// YARA-L rule.
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { splitReferenceListText } from '../../core/secops/reference-lists';
import type { Feature, FeatureStart } from '../../platform/command-table';
import { setViewState } from '../../platform/model-tree';
import type { Services } from '../services';
import { REFERENCE_LISTS_COMMANDS, type ReferenceListsContext } from './commands';
import {
  LIST_SCHEME,
  ReferenceListDiagnostics,
  ReferenceListFileSystem,
  SERVER_COPY_SCHEME,
  listUri,
} from './documents';
import { SERVED_LANGUAGES } from '../shared/languages';
import { ReferenceListsModel } from './model';
import { ReferenceListsTreeProvider, STATE_CONTEXT_KEY, VIEW_ID } from './tree';

/** True while the active editor shows a reference list. */
const ACTIVE_LIST_CONTEXT = 'cloudbench.referenceLists.activeEditor';

/** Contributed in package.json with its defaults (files.autoSave off). */
const LIST_LANGUAGE_ID = 'cloudbench-reference-list';

function activateReferenceLists(
  context: vscode.ExtensionContext,
  services: Services,
): FeatureStart<ReferenceListsContext> {
  const model = new ReferenceListsModel(services);
  const diagnostics = new ReferenceListDiagnostics();
  const files = new ReferenceListFileSystem(model, diagnostics);
  const provider = new ReferenceListsTreeProvider(model);
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: provider, showCollapseAll: false });
  context.subscriptions.push(
    model,
    diagnostics,
    files,
    provider,
    view,
    vscode.workspace.registerFileSystemProvider(LIST_SCHEME, files, { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(SERVER_COPY_SCHEME, {
      onDidChange: files.onDidChangeServerCopy,
      provideTextDocumentContent: (uri) => files.serverCopy(uri) ?? '',
    }),
  );

  // ---- view states --------------------------------------------------------------------------------
  const showState = (): void => {
    const state = model.current;
    // Lists not asked for yet read as loading: the view asks for them as soon as it shows.
    const kind = state.kind === 'idle' ? 'loading' : state.kind;
    setViewState(STATE_CONTEXT_KEY, kind, state.kind === 'ready' && state.lists.length === 0);
    view.message =
      state.kind === 'error'
        ? `Could not load the reference lists: ${safeText(state.message, 'plain', MESSAGE_LIMIT)}`
        : undefined;
  };
  context.subscriptions.push(
    model.onDidChange(showState),
    services.onDidChangeConnection(() => model.reset()),
  );

  // ---- validation as you type ---------------------------------------------------------------------
  const lint = (document: vscode.TextDocument): void => {
    if (document.uri.scheme !== LIST_SCHEME) return;
    // The list language: `//` comments, no auto-closed brackets in patterns, and no auto save (every
    // save writes to the server).
    if (document.languageId !== LIST_LANGUAGE_ID && !document.isClosed) {
      void vscode.languages.setTextDocumentLanguage(document, LIST_LANGUAGE_ID).then(undefined, () => undefined);
      return;
    }
    const type = files.contentTypeOf(document.uri);
    if (type) diagnostics.lint(document.uri, type, splitReferenceListText(document.getText()));
  };
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(lint),
    vscode.workspace.onDidChangeTextDocument((e) => lint(e.document)),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === LIST_SCHEME) diagnostics.clear(d.uri);
    }),
  );
  for (const document of vscode.workspace.textDocuments) lint(document);

  // Queries and rules complete and check `%name` from the known lists: load them once either is open,
  // whichever comes first (a rule opened first in a window gets them as a query would).
  const loadForQueries = (document: vscode.TextDocument): void => {
    if (SERVED_LANGUAGES.has(document.languageId)) void model.ensureLoaded();
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(loadForQueries));
  for (const document of vscode.workspace.textDocuments) loadForQueries(document);

  // ---- Go to Definition from %name, in a query or a rule ------------------------------------------
  context.subscriptions.push(
    vscode.languages.registerDefinitionProvider(
      [...SERVED_LANGUAGES].map((language) => ({ language })),
      {
        async provideDefinition(document, position) {
          const range = document.getWordRangeAtPosition(position, /%[A-Za-z0-9_]+/);
          if (!range) return undefined;
          const name = document.getText(range).slice(1);
          await model.ensureLoaded();
          if (model.current.kind === 'ready' && !model.find(name)) return undefined;
          const link: vscode.LocationLink = {
            originSelectionRange: range,
            targetUri: listUri(name),
            targetRange: new vscode.Range(0, 0, 0, 0),
          };
          return [link];
        },
      },
    ),
  );

  // Ctrl+S reaches the list's save (cloudbench.referenceLists.save) only in a list editor.
  const updateActiveList = (editor: vscode.TextEditor | undefined): void =>
    void vscode.commands.executeCommand('setContext', ACTIVE_LIST_CONTEXT, editor?.document.uri.scheme === LIST_SCHEME);
  updateActiveList(vscode.window.activeTextEditor);
  context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(updateActiveList));
  return { ctx: { model, files, lint } };
}

/** The Reference Lists view, list documents, Go to Definition from `%name` (queries and rules), and their commands. */
export const referenceListsFeature: Feature<ReferenceListsContext, Services> = {
  name: 'Reference lists',
  commands: REFERENCE_LISTS_COMMANDS,
  activate: activateReferenceLists,
};
