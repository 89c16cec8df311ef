// The Reference Lists feature's commands: refresh the view, open, create, and the checked save
// bound to Ctrl+S / Cmd+S in list editors.
import * as vscode from 'vscode';
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import {
  REFERENCE_LIST_CONTENT_TYPES,
  checkReferenceListName,
  contentTypeLabel,
  type ReferenceListContentType,
} from '../../core/secops/reference-lists';
import type { CommandTable } from '../../platform/command-table';
import { LIST_SCHEME, listUri, type ReferenceListFileSystem } from './documents';
import type { ReferenceListsModel } from './model';
import { OPEN_COMMAND, ReferenceListItem } from './tree';

/** Saves a list through its checks; bound to Ctrl+S / Cmd+S in list editors. */
export const SAVE_COMMAND = 'cloudbench.referenceLists.save';

export interface ReferenceListsContext {
  readonly model: ReferenceListsModel;
  readonly files: ReferenceListFileSystem;
  /** Checks a list document as it is typed. */
  lint(document: vscode.TextDocument): void;
}

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

export function refreshLists(ctx: ReferenceListsContext): unknown {
  return ctx.model.refresh();
}

/**
 * Ctrl+S in a list, also while the focus is in another part (the Problems view): the editor's own
 * save of the list document, so it goes through exactly what File > Save, Save All, auto save and
 * the editor's Retry go through (the file system's writeFile: checks, the conflict question, and a
 * refusal the editor reports and clears once the list is saved or reverted).
 */
export async function saveList(_ctx: ReferenceListsContext): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  if (document?.uri.scheme !== LIST_SCHEME) {
    await vscode.commands.executeCommand('workbench.action.files.save');
    return;
  }
  await document.save();
}

/** Opens a list: the view's row, a name, or one picked from the loaded lists. */
export async function openList(ctx: ReferenceListsContext, arg?: unknown): Promise<void> {
  const name =
    arg instanceof ReferenceListItem ? arg.list.name : typeof arg === 'string' ? arg : await pickList(ctx.model);
  if (!name) return;
  const document = await vscode.workspace.openTextDocument(listUri(name));
  await vscode.window.showTextDocument(document, { preview: false });
}

/** Asks for a name, a description and a content type, then opens the new list to fill and save. */
export async function createList(ctx: ReferenceListsContext): Promise<void> {
  const { model } = ctx;
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
  const uri = ctx.files.startCreate(name, description.trim(), picked.type);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  ctx.lint(document);
  void vscode.window.showInformationMessage(
    `Write one ${ENTRY_WORD[picked.type]} per line (lines starting with // are comments), then save to create %${name}.`,
  );
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

export const REFERENCE_LISTS_COMMANDS: CommandTable<ReferenceListsContext> = {
  'cloudbench.referenceLists.refresh': refreshLists,
  [SAVE_COMMAND]: saveList,
  [OPEN_COMMAND]: openList,
  'cloudbench.referenceLists.create': createList,
};
