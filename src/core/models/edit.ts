// Edit Model / Edit Version: the UpdateModel request that changes only what the user changed.
// A model update names the model (fields display_name, description, labels); a version update names
// the version with "@<id>" (fields version_description, labels); one request never mixes the two
// (reference A.2, "UpdateModel semantics"). The etag read with the model goes along, so a change
// made meanwhile by someone else is refused by the service (ABORTED) instead of overwritten.
import { sameLabels } from './labels';
import type { Model } from './types';

export type EditLevel = 'model' | 'version';

/** What the edit dialog shows and the user may change. */
export interface EditableFields {
  /** Model level only. */
  displayName?: string;
  /** The model's description, or the version's version_description. */
  description: string;
  labels: Record<string, string>;
}

export function editableFields(model: Model, level: EditLevel): EditableFields {
  return level === 'model'
    ? {
        displayName: model.displayName ?? '',
        description: model.description ?? '',
        labels: { ...(model.labels ?? {}) },
      }
    : { description: model.versionDescription ?? '', labels: { ...(model.labels ?? {}) } };
}

export interface UpdateModelCall {
  model: Model;
  updateMask: { paths: string[] };
}

/**
 * The UpdateModel request for `after` against `before` (both from editableFields of the same read),
 * or undefined when nothing changed. `name` is the model's name (model level) or "<model>@<version>".
 */
export function updateModelRequest(
  name: string,
  level: EditLevel,
  before: EditableFields,
  after: EditableFields,
  etag?: string,
): UpdateModelCall | undefined {
  const model: Model = { name, ...(etag ? { etag } : {}) };
  const paths: string[] = [];
  if (level === 'model' && after.displayName !== undefined && after.displayName !== before.displayName) {
    paths.push('display_name');
    model.displayName = after.displayName;
  }
  if (after.description !== before.description) {
    paths.push(level === 'model' ? 'description' : 'version_description');
    if (level === 'model') model.description = after.description;
    else model.versionDescription = after.description;
  }
  if (!sameLabels(before.labels, after.labels)) {
    paths.push('labels');
    model.labels = { ...after.labels };
  }
  return paths.length ? { model, updateMask: { paths } } : undefined;
}

/** Longest display name the service takes (reference A.3: up to 128 UTF-8 characters). */
export const MAX_DISPLAY_NAME = 128;

export function displayNameProblem(text: string): string | undefined {
  if (!text.trim()) return 'A model needs a display name.';
  const length = [...text].length;
  if (length > MAX_DISPLAY_NAME) return `${length} characters; a display name has at most ${MAX_DISPLAY_NAME}.`;
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f-\u009f]/u.exec(text);
  if (control)
    return `The display name contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}.`;
  return undefined;
}

export function descriptionProblem(text: string): string | undefined {
  // Line breaks are fine in a description; other control characters are not.
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u.exec(text);
  return control
    ? `The description contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}.`
    : undefined;
}
