// Query history (last 100 runs per workspace) and saved queries, kept as plain JSON in workspace
// state. Pure functions so the rules (newest first, no duplicates, the cap) are tested in Node.
import { lex } from '../../udm/lexer';
import { redactSecrets } from '../secrets';

export const HISTORY_LIMIT = 100;
export const SAVED_LIMIT = 500;

export interface HistoryEntry {
  query: string;
  /** RFC 3339 time of the run. */
  ranAt: string;
  /** The time range as the user picked it ("Last 24 hours", or the custom window). */
  timeRange: string;
  events?: number;
  /** udmSearch calls the run was charged for (answered by the service, retries included). */
  searches?: number;
  /** The run failed: `events` is absent, `searches` is what the failure cost. */
  failed?: boolean;
}

export interface SavedQuery {
  name: string;
  query: string;
  savedAt: string;
}

/** Whitespace-insensitive identity, so re-running the same query moves it to the top. */
export function queryKey(query: string): string {
  return query.replace(/\s+/g, ' ').trim();
}

/**
 * How a stored query reads in a list: its text without comments (a leading `// why I ran this` would
 * make every entry start alike), on one line. A query of comments only reads as written.
 */
export function queryLabel(query: string): string {
  const { comments } = lex(query);
  let text = '';
  let at = 0;
  for (const c of comments) {
    text += `${query.slice(at, c.start)} `;
    at = c.end;
  }
  text += query.slice(at);
  return queryKey(text) || queryKey(query);
}

export function addToHistory(
  history: readonly HistoryEntry[],
  entry: HistoryEntry,
  limit = HISTORY_LIMIT,
): HistoryEntry[] {
  const key = queryKey(entry.query);
  // Workspace state is a file on disk: a query holding a pasted key string or token stays out of it.
  if (key === '' || redactSecrets(entry.query) !== entry.query) return [...history];
  return [entry, ...history.filter((h) => queryKey(h.query) !== key)].slice(0, limit);
}

export function saveQuery(saved: readonly SavedQuery[], name: string, query: string, now: Date): SavedQuery[] {
  const trimmed = name.trim();
  if (trimmed === '') throw new Error('A saved query needs a name.');
  if (trimmed.length > 200) throw new Error('Keep the name under 200 characters.');
  if (queryKey(query) === '') throw new Error('There is no query to save.');
  if (redactSecrets(query) !== query)
    throw new Error('The query holds what looks like a key string or token; remove it before saving.');
  const entry: SavedQuery = { name: trimmed, query, savedAt: now.toISOString() };
  const rest = saved.filter((s) => s.name.toLowerCase() !== trimmed.toLowerCase());
  if (rest.length >= SAVED_LIMIT) throw new Error(`At most ${SAVED_LIMIT} saved queries; delete some first.`);
  return [...rest, entry].sort((a, b) => a.name.localeCompare(b.name));
}

/** Renames a saved query; refuses a name another saved query already has. */
export function renameSaved(saved: readonly SavedQuery[], from: string, to: string): SavedQuery[] {
  const trimmed = to.trim();
  if (trimmed === '') throw new Error('A saved query needs a name.');
  if (trimmed.length > 200) throw new Error('Keep the name under 200 characters.');
  if (!saved.some((s) => s.name === from)) throw new Error(`There is no saved query "${from}".`);
  if (saved.some((s) => s.name !== from && s.name.toLowerCase() === trimmed.toLowerCase()))
    throw new Error(`A saved query is already called "${trimmed}"; pick another name.`);
  return saved.map((s) => (s.name === from ? { ...s, name: trimmed } : s)).sort((a, b) => a.name.localeCompare(b.name));
}

export function removeSaved(saved: readonly SavedQuery[], name: string): SavedQuery[] {
  return saved.filter((s) => s.name !== name);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Reads a list from workspace state, keeping at most `limit` well-formed entries. */
function readList<T>(
  value: unknown,
  wellFormed: (v: Record<string, unknown>) => boolean,
  copy: (v: Record<string, unknown>) => T,
  limit: number,
): T[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((v: unknown): v is Record<string, unknown> => isRecord(v) && wellFormed(v))
    .map(copy)
    .slice(0, limit);
}

/** Reads what workspace state holds, dropping anything malformed rather than failing. */
export function readHistory(value: unknown): HistoryEntry[] {
  return readList(
    value,
    (h) => typeof h.query === 'string' && typeof h.ranAt === 'string' && typeof h.timeRange === 'string',
    (h) => ({
      query: h.query as string,
      ranAt: h.ranAt as string,
      timeRange: h.timeRange as string,
      ...(typeof h.events === 'number' ? { events: h.events } : {}),
      ...(typeof h.searches === 'number' && Number.isInteger(h.searches) && h.searches >= 0
        ? { searches: h.searches }
        : {}),
      ...(h.failed === true ? { failed: true } : {}),
    }),
    HISTORY_LIMIT,
  );
}

export function readSaved(value: unknown): SavedQuery[] {
  return readList(
    value,
    (s) => typeof s.name === 'string' && typeof s.query === 'string' && typeof s.savedAt === 'string',
    (s) => ({ name: s.name as string, query: s.query as string, savedAt: s.savedAt as string }),
    SAVED_LIMIT,
  );
}
