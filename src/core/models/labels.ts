// Labels of Google Cloud resources, checked before they are sent: Google's documented requirements
// ("Requirements for labels"): at most 64 labels; keys 1-63 characters, values 0-63; keys and
// values hold only lowercase letters, numeric characters, underscores and dashes, in UTF-8, with
// international characters allowed; keys start with a lowercase letter or international character;
// a key appears once. Lengths count characters (code points), not UTF-16 units or bytes.

export const MAX_LABELS = 64;
export const MAX_LABEL_LENGTH = 63;

/** Lowercase letters (any script), letters without case (international), digits, "_" and "-". */
const LABEL_CHAR = /^[\p{Ll}\p{Lo}\p{N}_-]$/u;
const KEY_START = /^[\p{Ll}\p{Lo}]$/u;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/u;

function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** How a character is named in a message: printable ones quoted, the rest by code point. */
function shownChar(ch: string): string {
  return CONTROL.test(ch) || /\s/u.test(ch) ? codePoint(ch) : `"${ch}" (${codePoint(ch)})`;
}

/** What is wrong with a label key, in a sentence; undefined when it follows the rules. */
export function labelKeyProblem(key: string): string | undefined {
  const chars = [...key];
  if (chars.length === 0) return 'A label key cannot be empty.';
  if (chars.length > MAX_LABEL_LENGTH)
    return `Label key "${chars.slice(0, 20).join('')}…" has ${chars.length} characters; keys have at most ${MAX_LABEL_LENGTH}.`;
  const bad = chars.find((c) => !LABEL_CHAR.test(c));
  if (bad)
    return `Label key ${quoted(key)} contains ${shownChar(bad)}; keys hold only lowercase letters, digits, "_" and "-" (international characters are allowed).`;
  if (!KEY_START.test(chars[0]))
    return `Label key ${quoted(key)} starts with ${shownChar(chars[0])}; keys start with a lowercase letter or an international character.`;
  return undefined;
}

/** What is wrong with a label value, in a sentence; undefined when it follows the rules (empty is fine). */
export function labelValueProblem(key: string, value: string): string | undefined {
  const chars = [...value];
  if (chars.length > MAX_LABEL_LENGTH)
    return `The value of ${quoted(key)} has ${chars.length} characters; values have at most ${MAX_LABEL_LENGTH}.`;
  const bad = chars.find((c) => !LABEL_CHAR.test(c));
  if (bad)
    return `The value of ${quoted(key)} contains ${shownChar(bad)}; values hold only lowercase letters, digits, "_" and "-" (international characters are allowed).`;
  return undefined;
}

/** A key or value for a message: control characters never reach the screen as themselves. */
function quoted(text: string): string {
  const shown = [...text]
    .slice(0, 40)
    .map((c) => (CONTROL.test(c) ? codePoint(c) : c))
    .join('');
  return `"${shown}${[...text].length > 40 ? '…' : ''}"`;
}

/** The first problem of a whole set of labels; undefined when Google's rules all hold. */
export function labelsProblem(labels: Record<string, string>): string | undefined {
  const keys = Object.keys(labels);
  if (keys.length > MAX_LABELS) return `${keys.length} labels; a resource has at most ${MAX_LABELS}.`;
  for (const key of keys) {
    const problem = labelKeyProblem(key) ?? labelValueProblem(key, labels[key]);
    if (problem) return problem;
  }
  return undefined;
}

export type ParsedLabels =
  { labels: Record<string, string>; problem?: undefined } | { problem: string; labels?: undefined };

/**
 * Labels typed as "key=value, key2=value2" (a key alone has an empty value; spaces around the
 * parts are ignored; an empty text is no labels), checked against Google's rules.
 */
export function parseLabels(text: string): ParsedLabels {
  const control = [...text].find((c) => CONTROL.test(c) && c !== '\t');
  if (control) return { problem: `The labels contain the control character ${codePoint(control)}; remove it.` };
  const labels: Record<string, string> = Object.create(null) as Record<string, string>;
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 1 && parts[0] === '') return { labels: {} };
  for (const [i, part] of parts.entries()) {
    if (!part) return { problem: `Label ${i + 1} is empty; remove the extra comma.` };
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1).trim();
    const problem = labelKeyProblem(key) ?? labelValueProblem(key, value);
    if (problem) return { problem };
    if (Object.prototype.hasOwnProperty.call(labels, key))
      return { problem: `Label key "${key}" appears twice; a key is unique on a resource.` };
    labels[key] = value;
    if (Object.keys(labels).length > MAX_LABELS)
      return { problem: `More than ${MAX_LABELS} labels; a resource has at most ${MAX_LABELS}.` };
  }
  return { labels: { ...labels } };
}

/** "env=prod, team=risk": the form parseLabels reads, keys sorted. */
export function formatLabels(labels: Record<string, string> | undefined): string {
  return Object.keys(labels ?? {})
    .sort()
    .map((k) => (labels![k] ? `${k}=${labels![k]}` : k))
    .join(', ');
}

export function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  return (
    ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b ?? {}, k) && a![k] === b![k])
  );
}
