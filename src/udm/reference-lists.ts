/**
 * What the language service knows of the reference lists a query may name with `%name`.
 * The extension fetches them from the SecOps reference-list API and hands them to the language
 * server; the language service completes, checks and hovers `%name` from this table.
 */
export type ReferenceListContentType = 'CONTENT_TYPE_DEFAULT_STRING' | 'REGEX' | 'CIDR';

export interface KnownReferenceList {
  /** The list's name as written after `%`. */
  readonly name: string;
  readonly contentType: ReferenceListContentType;
  /** Number of entries (comment and blank lines excluded). */
  readonly size: number;
  readonly description?: string;
  /** The first few entries, for hover. */
  readonly preview: readonly string[];
  /** RFC 3339 time of the last update, when the API gave one. */
  readonly updateTime?: string;
}

/** Known lists by name; `undefined` means the names are not known, so nothing is flagged. */
export type KnownReferenceLists = ReadonlyMap<string, KnownReferenceList> | undefined;

const CONTENT_TYPES: readonly string[] = ['CONTENT_TYPE_DEFAULT_STRING', 'REGEX', 'CIDR'];

/** Checks one entry received from outside (the extension host, a message); false when malformed. */
export function isKnownReferenceList(value: unknown): value is KnownReferenceList {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === 'string' &&
    /^[A-Za-z0-9_]+$/.test(v.name) &&
    typeof v.contentType === 'string' &&
    CONTENT_TYPES.includes(v.contentType) &&
    typeof v.size === 'number' &&
    Number.isInteger(v.size) &&
    v.size >= 0 &&
    (v.description === undefined || typeof v.description === 'string') &&
    Array.isArray(v.preview) &&
    v.preview.every((p) => typeof p === 'string') &&
    (v.updateTime === undefined || typeof v.updateTime === 'string')
  );
}

/** The table the language service looks names up in. */
export function knownListMap(lists: readonly KnownReferenceList[]): Map<string, KnownReferenceList> {
  return new Map(lists.map((l) => [l.name, l]));
}

/** How many entries hover shows. */
export const PREVIEW_SIZE = 5;

/** What the language service knows of lists given with their entries (the sandbox, tests). */
export function knownFromEntries(lists: Record<string, readonly string[]>): Map<string, KnownReferenceList> {
  const out = new Map<string, KnownReferenceList>();
  for (const [name, entries] of Object.entries(lists)) {
    const lines = entries.filter((e) => e.trim() !== '' && !e.trim().startsWith('//'));
    out.set(name, {
      name,
      contentType: 'CONTENT_TYPE_DEFAULT_STRING',
      size: lines.length,
      preview: lines.slice(0, PREVIEW_SIZE),
    });
  }
  return out;
}

export function contentTypeLabel(t: ReferenceListContentType): string {
  return t === 'REGEX' ? 'regex' : t === 'CIDR' ? 'CIDR' : 'string';
}
