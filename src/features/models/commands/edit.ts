// Edit Model… / Edit Version…: display name, description and labels, each step prefilled with what
// the service holds now (read fresh, with its etag), labels checked against Google's rules as they
// are typed; sent as one UpdateModel whose mask names only the changed fields. A change made by
// someone else meanwhile (the etag no longer matches: ABORTED) is shown, never overwritten.
import * as vscode from 'vscode';
import { MESSAGE_LIMIT, safeText } from '../../../core/display';
import {
  descriptionProblem,
  displayNameProblem,
  editableFields,
  updateModelRequest,
  type EditLevel,
  type EditableFields,
} from '../../../core/models/edit';
import { formatLabels, parseLabels } from '../../../core/models/labels';
import type { Model } from '../../../core/models/types';
import { GoogleApiError } from '../../../core/google/errors';
import { needClient, nodeOf, toProto3Json, type ModelsContext } from '../context';
import { V1BETA1 } from '../details-documents';
import { modelRef, splitVersion } from '../presentation';
import { ModelNode, VersionNode, type ModelsNode } from '../tree';

const LABELS_PROMPT =
  'key=value, separated by commas. Keys start with a lowercase letter; keys and values hold lowercase letters, digits, "_" and "-" (international characters too), at most 63 characters each; at most 64 labels. Empty: no labels.';

/** The input steps; undefined when the user left (Escape). */
async function askFields(title: string, level: EditLevel, before: EditableFields): Promise<EditableFields | undefined> {
  const steps = level === 'model' ? 3 : 2;
  let step = 0;
  const ask = (what: string, value: string, prompt: string, check: (v: string) => string | undefined) =>
    vscode.window.showInputBox({
      title: `${title} (${++step}/${steps}): ${what}`,
      value,
      prompt,
      ignoreFocusOut: true,
      validateInput: check,
    });
  let displayName: string | undefined;
  if (level === 'model') {
    displayName = await ask('display name', before.displayName ?? '', 'Up to 128 characters; Enter keeps it.', (v) =>
      displayNameProblem(v),
    );
    if (displayName === undefined) return undefined;
  }
  const description = await ask(
    level === 'model' ? 'description' : 'version description',
    before.description,
    'Enter keeps it; empty clears it.',
    descriptionProblem,
  );
  if (description === undefined) return undefined;
  const labelsText = await ask('labels', formatLabels(before.labels), LABELS_PROMPT, (v) => parseLabels(v).problem);
  if (labelsText === undefined) return undefined;
  const labels = parseLabels(labelsText);
  // validateInput refused anything else; a value that slips past it is still never sent.
  if (labels.problem !== undefined) throw new Error(labels.problem);
  return { ...(displayName !== undefined ? { displayName } : {}), description, labels: labels.labels };
}

const FIELD_WORDS: Record<string, string> = {
  display_name: 'display name',
  description: 'description',
  version_description: 'version description',
  labels: 'labels',
};

/** The ABORTED answer to a stale etag: nothing was written; offer to start again from what is there now. */
async function showConflict(ctx: ModelsContext, node: ModelNode | VersionNode, what: string, err: GoogleApiError) {
  const again = 'Edit Again';
  const answer = await vscode.window.showWarningMessage(
    `${what} was changed by someone else after Cloudbench read it; your edit was NOT saved, so their change is kept.`,
    {
      modal: true,
      detail: `${safeText(err.message, 'plain', MESSAGE_LIMIT)}\n\nEdit Again reads it anew and starts from what it holds now.`,
    },
    again,
  );
  await ctx.provider.refreshModel(splitVersion(node.resourceName).model);
  if (answer === again) await editResource(ctx, node);
}

async function editResource(ctx: ModelsContext, node: ModelNode | VersionNode): Promise<void> {
  const c = needClient(ctx);
  const level: EditLevel = node instanceof VersionNode ? 'version' : 'model';
  const name = node.resourceName;
  const modelName = splitVersion(name).model;
  const current: Model = await vscode.window.withProgress(
    { location: { viewId: 'cloudbench.models' }, title: 'Reading…' },
    () => c.getModel({ name }),
  );
  const ref = modelRef(modelName, current.displayName);
  const what = level === 'model' ? `Model ${ref}` : `Version ${safeText(current.versionId)} of model ${ref}`;
  const before = editableFields(current, level);
  const after = await askFields(
    level === 'model' ? `Edit Model ${ref}` : `Edit Version ${safeText(current.versionId)}`,
    level,
    before,
  );
  if (!after) return;
  const request = updateModelRequest(name, level, before, after, current.etag || undefined);
  if (!request) {
    void vscode.window.showInformationMessage(`${what}: nothing changed, nothing was sent.`);
    return;
  }
  let updated: Model;
  try {
    updated = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Saving ${what}…` },
      () => c.updateModel({ request }),
    );
  } catch (err) {
    if (err instanceof GoogleApiError && err.status === 'ABORTED') return showConflict(ctx, node, what, err);
    throw err;
  }
  await ctx.provider.refreshModel(modelName);
  // Open details of what changed show the new fields (a model change shows in its versions too).
  ctx.details.refreshOpen(name, toProto3Json(`${V1BETA1}.Model`, updated));
  const fields = request.updateMask.paths.map((p) => FIELD_WORDS[p] ?? p).join(', ');
  void vscode.window.showInformationMessage(`${what}: updated ${fields}.`);
}

export async function editModel(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  await editResource(ctx, nodeOf(node, ModelNode));
}

export async function editVersion(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  await editResource(ctx, nodeOf(node, VersionNode));
}
