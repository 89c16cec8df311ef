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
