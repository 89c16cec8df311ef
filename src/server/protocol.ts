/**
 * Custom messages between the extension and the UDM language server. Both sides import this file
 * (it has no `vscode` import) and check payloads on arrival.
 */
export const REFERENCE_LISTS_NOTIFICATION = 'cloudbench/udm/referenceLists';

export interface ReferenceListsParams {
  /** list name (without `%`) → entries */
  lists: Record<string, string[]>;
}

export interface UdmInitializationOptions {
  referenceLists?: Record<string, string[]>;
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
