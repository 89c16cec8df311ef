/**
 * Custom messages between the extension and the UDM language server. Both sides import this file
 * (it has no `vscode` import) and check payloads on arrival.
 */
import { isKnownReferenceList, type KnownReferenceList } from '../udm/reference-lists';

export const REFERENCE_LISTS_NOTIFICATION = 'cloudbench/udm/referenceLists';

/**
 * The notebook type of `.udmnb` files. The server announces notebook document sync for its UDM
 * cells, so the client sends those notebooks whole (cells, order, text) instead of loose cell
 * documents.
 */
export const UDM_NOTEBOOK_TYPE = 'cloudbench-udm-notebook';

/**
 * What is known of the reference lists (names, types, sizes, descriptions, a preview): `%`
 * completes these names, an unknown `%name` is a warning, hover shows type, size, description and
 * preview. Sent by the extension whenever the Reference Lists view learns of them; replaces the
 * previous table. An empty array means "no lists exist" (every name is flagged).
 */
export const KNOWN_REFERENCE_LISTS_NOTIFICATION = 'cloudbench/referenceLists';

export interface KnownReferenceListsParams {
  lists: KnownReferenceList[];
  /**
   * Why the lists could not be loaded from the server, when they could not: `lists` is then what
   * was known before (maybe nothing) and an unknown name is a warning. Absent: `lists` is what the
   * server listed, and an unknown name is an error.
   */
  loadError?: string;
}

/** At most this many lists are taken from one notification (the API pages at 1000). */
export const MAX_KNOWN_LISTS = 10000;

export function isKnownReferenceListsParams(value: unknown): value is KnownReferenceListsParams {
  if (!value || typeof value !== 'object') return false;
  const lists = (value as { lists?: unknown }).lists;
  const loadError = (value as { loadError?: unknown }).loadError;
  return (
    Array.isArray(lists) &&
    lists.length <= MAX_KNOWN_LISTS &&
    lists.every(isKnownReferenceList) &&
    (loadError === undefined || (typeof loadError === 'string' && loadError.length <= 2000))
  );
}

export interface ReferenceListsParams {
  /** list name (without `%`) → entries */
  lists: Record<string, string[]>;
}

export interface UdmInitializationOptions {
  referenceLists?: Record<string, string[]>;
  /** What is known of the reference lists when the server starts (see KNOWN_REFERENCE_LISTS_NOTIFICATION). */
  knownReferenceLists?: KnownReferenceList[];
  /** Why the lists could not be loaded, when they could not (see KnownReferenceListsParams.loadError). */
  knownReferenceListsError?: string;
  /** Push diagnostics even when the client can pull them. */
  pushDiagnostics?: boolean;
}

export function isReferenceLists(value: unknown): value is Record<string, string[]> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const [name, entries] of Object.entries(value)) {
    if (!/^[A-Za-z0-9_]+$/.test(name)) return false;
    if (!Array.isArray(entries) || !entries.every((e) => typeof e === 'string')) return false;
  }
  return true;
}

export function isReferenceListsParams(value: unknown): value is ReferenceListsParams {
  return !!value && typeof value === 'object' && isReferenceLists((value as { lists?: unknown }).lists);
}
