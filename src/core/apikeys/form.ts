// The restrictions editor's text boxes as data: one entry a line, each remembered with its line,
// malformed lines reported (never trimmed into something else), and every problem placed on the
// field and line it comes from. No DOM and no vscode, so it is unit-tested in Node.
import type { AndroidApplication } from './types';
import type { Problem } from './validation';

/** A list box of the editor: its element id, the restrictions path it fills, and its name in messages. */
export interface FormField {
  id: string;
  pathPrefix: string;
  name: string;
}

/** A problem as the Problems box and the field show it: "Android apps, line 3: …". */
export interface PlacedProblem {
  fieldId: string;
  text: string;
  /** The line (1-based) of the field the problem is on, when it is about one line. */
  line?: number;
}

/**
 * Problems in the order the form reads: field by field (in `fieldOrder`), a field's own problems
 * before its lines', lines top to bottom; lines that could not be read and lines the validation
 * refused are interleaved by line, not listed as two runs (5, 2, 3, 4).
 */
export function inFormOrder<T extends PlacedProblem>(problems: readonly T[], fieldOrder: readonly string[]): T[] {
  const rank = (id: string): number => {
    const i = fieldOrder.indexOf(id);
    return i < 0 ? fieldOrder.length : i;
  };
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p.fieldId) - rank(b.p.fieldId) || (a.p.line ?? 0) - (b.p.line ?? 0) || a.i - b.i)
    .map(({ p }) => p);
}

export type LineParse<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * One line of the Android box: a package name and a SHA-1 fingerprint, separated by spaces, a comma
 * or a semicolon. Any other number of parts is an error: dropping a word would save something else
 * than what was typed.
 */
export function parseAndroidAppLine(text: string): LineParse<AndroidApplication> {
  const parts = text
    .trim()
    .split(/[\s,;]+/)
    .filter(Boolean);
  if (parts.length === 2) return { ok: true, value: { packageName: parts[0], sha1Fingerprint: parts[1] } };
  const example = 'e.g. com.example.app DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09';
  if (parts.length === 1)
    return {
      ok: false,
      message: `"${text.trim()}" is only one part: write the package name, a space, then the SHA-1 certificate fingerprint (${example}).`,
    };
  return {
    ok: false,
    message: `"${text.trim()}" has ${parts.length} parts; a line holds exactly a package name and a SHA-1 certificate fingerprint (${example}).`,
  };
}

/** "Android apps, line 3: …" for a problem of a list entry; "Android apps: …" for the list itself. */
export function placeProblem(
  problem: Problem,
  fields: readonly FormField[],
  lineOf: ReadonlyMap<string, readonly number[]>,
  fallback: FormField,
): PlacedProblem {
  const field =
    fields.find((f) => problem.path.startsWith(f.pathPrefix)) ??
    fields.find((f) => problem.path === f.pathPrefix.split('.')[0]) ??
    fallback;
  const index = problem.path.startsWith(field.pathPrefix)
    ? /^\[(\d+)\]/.exec(problem.path.slice(field.pathPrefix.length))
    : null;
  const line = index ? lineOf.get(field.pathPrefix)?.[Number(index[1])] : undefined;
  return { fieldId: field.id, text: lineProblem(field, line, problem.message), ...(line ? { line } : {}) };
}

/** The text of a problem on `field` (and `line`, 1-based, when known). */
export function lineProblem(field: FormField, line: number | undefined, message: string): string {
  return `${field.name}${line ? `, line ${line}` : ''}: ${message}`;
}
