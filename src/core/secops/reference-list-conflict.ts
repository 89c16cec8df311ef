// What a save of a reference list would do to someone else's change. A list is compared by its
// content (the v2 lists API has no ETag): the server's lines now, the lines the edit started from,
// and the lines about to be sent. A save may go ahead without a question only when every line the
// server gained since is still in the edit and every line it lost is not back; anything else would
// silently undo a colleague's change.

/** The lines a save sends: never a blank or whitespace-only line (the API would keep it as an empty entry). */
export function linesToSend(lines: readonly string[]): string[] {
  return lines.filter((l) => l.trim() !== '');
}

function counts(lines: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of linesToSend(lines)) m.set(l, (m.get(l) ?? 0) + 1);
  return m;
}

/** Lines of `a` not in `b`, counted (a line twice in `a` and once in `b` is one extra). */
function extra(a: readonly string[], b: readonly string[]): string[] {
  const left = counts(b);
  const out: string[] = [];
  for (const l of linesToSend(a)) {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else out.push(l);
  }
  return out;
}

/** What changed on the server since the edit started: lines it gained and lines it lost. */
export interface ServerChange {
  added: string[];
  removed: string[];
}

export function serverChange(startedFrom: readonly string[], server: readonly string[]): ServerChange {
  return { added: extra(server, startedFrom), removed: extra(startedFrom, server) };
}

/**
 * The part of the server's change a save of `mine` would undo: copies of a line the server gained
 * that `mine` lacks, and copies of a line it lost that `mine` still holds. Empty when the edit
 * already includes the server's change (it was merged), so saving loses nothing of it.
 */
export function changeUndoneBy(
  startedFrom: readonly string[],
  server: readonly string[],
  mine: readonly string[],
): ServerChange {
  const [b, s, m] = [counts(startedFrom), counts(server), counts(mine)];
  const undone: ServerChange = { added: [], removed: [] };
  for (const line of new Set([...b.keys(), ...s.keys()])) {
    const [inBase, onServer, inMine] = [b.get(line) ?? 0, s.get(line) ?? 0, m.get(line) ?? 0];
    if (onServer > inBase && inMine < onServer)
      for (let i = 0; i < Math.min(onServer - inMine, onServer - inBase); i++) undone.added.push(line);
    if (onServer < inBase && inMine > onServer)
      for (let i = 0; i < Math.min(inMine - onServer, inBase - onServer); i++) undone.removed.push(line);
  }
  return undone;
}

export function isEmptyChange(change: ServerChange): boolean {
  return change.added.length === 0 && change.removed.length === 0;
}

/** "10.99.0.0/16, 10.98.0.0/16 and 3 more": a change's lines for a message, never the whole list. */
export function describeLines(lines: readonly string[], shown = 3): string {
  if (lines.length === 0) return 'none';
  const head = lines.slice(0, shown).map((l) => (l.length > 80 ? `${l.slice(0, 79)}…` : l));
  const more = lines.length - head.length;
  return more > 0 ? `${head.join(', ')} and ${more} more` : head.join(', ');
}

/**
 * The server's version as text shaped like the edit: the same final newline or none, so a comparison
 * shows only the lines that differ (never a removed blank line the edit does not have).
 */
export function serverTextLike(serverLines: readonly string[], mineText: string): string {
  const body = serverLines.join('\n');
  return serverLines.length > 0 && /\r?\n$/.test(mineText) ? `${body}\n` : body;
}
