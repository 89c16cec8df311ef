// Reference lists in the editor: the Reference Lists view, lists opened as documents validated as
// you type and saved safely, creating a list, and Go to Definition from `%name` in a UDM query.
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import {
  REFERENCE_LIST_CONTENT_TYPES,
  checkReferenceListName,
  contentTypeLabel,
  splitReferenceListText,
  type ReferenceListContentType,
} from '../../core/secops/reference-lists';
import { registerCommand } from '../../platform/commands';
import type { Services } from '../services';
import {
  LIST_SCHEME,
  ReferenceListDiagnostics,
  ReferenceListFileSystem,
  SERVER_COPY_SCHEME,
  SaveRefusedError,
  listUri,
} from './documents';

/** Saves a list through its checks; bound to Ctrl+S / Cmd+S in list editors. */
const SAVE_COMMAND = 'cloudbench.referenceLists.save';
/** True while the active editor shows a reference list. */
const ACTIVE_LIST_CONTEXT = 'cloudbench.referenceLists.activeEditor';
import { ReferenceListsModel } from './model';
import { OPEN_COMMAND, ReferenceListItem, ReferenceListsTreeProvider, STATE_CONTEXT_KEY, VIEW_ID } from './tree';

/** Contributed in package.json with its defaults (files.autoSave off). */
const LIST_LANGUAGE_ID = 'cloudbench-reference-list';

const TYPE_DETAILS: Record<ReferenceListContentType, string> = {
  CONTENT_TYPE_DEFAULT_STRING: 'Exact values such as host names, user names or domains (`in %list`)',
  REGEX: 'RE2 regular expressions (`in regex %list`)',
  CIDR: 'IPv4 and IPv6 ranges such as 10.0.0.0/8 (`in cidr %list`)',
};

const ENTRY_WORD: Record<ReferenceListContentType, string> = {
  CONTENT_TYPE_DEFAULT_STRING: 'value',
  REGEX: 'regular expression',
  CIDR: 'CIDR range',
};

export function activateReferenceLists(context: vscode.ExtensionContext, services: Services): void {
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
      provideTextDocumentContent: (uri) => files.serverCopy(uri) ?? '',
    }),
  );

  // ---- view states --------------------------------------------------------------------------------
  const showState = (): void => {
    const state = model.current;
    const key =
      state.kind === 'ready'
        ? state.lists.length === 0
          ? 'empty'
          : 'ready'
        : state.kind === 'error'
          ? 'error'
          : 'loading';
    void vscode.commands.executeCommand('setContext', STATE_CONTEXT_KEY, key);
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

  // Queries complete and check `%name` from the known lists: load them once a query is open.
  const loadForQueries = (document: vscode.TextDocument): void => {
    if (document.languageId === 'udm') void model.ensureLoaded();
  };
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(loadForQueries));
  for (const document of vscode.workspace.textDocuments) loadForQueries(document);

  // ---- Go to Definition from %name ------------------------------------------------------------------
  context.subscriptions.push(
    vscode.languages.registerDefinitionProvider(
      { language: 'udm' },
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

  // ---- commands -----------------------------------------------------------------------------------
  registerCommand(context, 'cloudbench.referenceLists.refresh', () => model.refresh());
  // Ctrl+S in a list: checked before VS Code writes, so a refusal (invalid lines, Merge First) is
  // Cloudbench's own message and the document stays dirty, never VS Code's "Failed to save" toast.
  // Ctrl+S reaches the list's save also while the focus is in another part (the Problems view).
  const updateActiveList = (editor: vscode.TextEditor | undefined): void =>
    void vscode.commands.executeCommand('setContext', ACTIVE_LIST_CONTEXT, editor?.document.uri.scheme === LIST_SCHEME);
  updateActiveList(vscode.window.activeTextEditor);
  context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(updateActiveList));
  registerCommand(context, SAVE_COMMAND, async () => {
    const document = vscode.window.activeTextEditor?.document;
    if (document?.uri.scheme !== LIST_SCHEME) {
      await vscode.commands.executeCommand('workbench.action.files.save');
      return;
    }
    try {
      await files.checkSave(document.uri, document.getText());
    } catch (err) {
      if (!(err instanceof SaveRefusedError)) throw err;
      void vscode.window.showErrorMessage(err.message);
      return;
    }
    await document.save();
  });

  registerCommand(context, OPEN_COMMAND, async (arg?: unknown) => {
    const name =
      arg instanceof ReferenceListItem ? arg.list.name : typeof arg === 'string' ? arg : await pickList(model);
    if (!name) return;
    const document = await vscode.workspace.openTextDocument(listUri(name));
    await vscode.window.showTextDocument(document, { preview: false });
  });

  registerCommand(context, 'cloudbench.referenceLists.create', async () => {
    await model.ensureLoaded();
    const name = await vscode.window.showInputBox({
      title: 'Create Reference List (1/3): Name',
      prompt: 'Letters, digits and underscores; queries name it as %name.',
      placeHolder: 'blocked_domains',
      ignoreFocusOut: true,
      validateInput: (value) =>
        checkReferenceListName(value) ??
        (model.find(value) ? `A list named "${value}" already exists: pick another name.` : undefined),
    });
    if (name === undefined) return;
    const description = await vscode.window.showInputBox({
      title: `Create Reference List (2/3): Description of %${name}`,
      prompt: 'What the list holds and who maintains it.',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'A reference list needs a description.' : undefined),
    });
    if (description === undefined) return;
    const picked = await vscode.window.showQuickPick(
      REFERENCE_LIST_CONTENT_TYPES.map((type) => ({
        label: contentTypeLabel(type),
        description: type,
        detail: TYPE_DETAILS[type],
        type,
      })),
      { title: `Create Reference List (3/3): Content type of %${name}`, ignoreFocusOut: true },
    );
    if (!picked) return;
    const uri = files.startCreate(name, description.trim(), picked.type);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    lint(document);
    void vscode.window.showInformationMessage(
      `Write one ${ENTRY_WORD[picked.type]} per line (lines starting with // are comments), then save to create %${name}.`,
    );
  });
}

async function pickList(model: ReferenceListsModel): Promise<string | undefined> {
  await model.ensureLoaded();
  const state = model.current;
  if (state.kind !== 'ready') {
    void vscode.window.showErrorMessage(
      state.kind === 'error'
        ? `Could not load the reference lists: ${safeText(state.message, 'plain', MESSAGE_LIMIT)}`
        : 'The reference lists are still loading.',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    state.lists.map((l) => ({
      label: safeText(l.name),
      description: contentTypeLabel(l.contentType),
      detail: safeText(l.description, 'plain', MESSAGE_LIMIT),
      name: l.name,
    })),
    { title: 'Open Reference List', matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.name;
}
