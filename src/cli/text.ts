// Text from a repository as the command line prints it. File names, messages and echoed source come
// from files a colleague (or a stranger's pull request) wrote, and the output goes to terminals and
// CI logs: a control character moves the cursor or starts an escape sequence, a line break starts a
// new line that GitHub Actions reads as a workflow command (`::error …`, `##[error]`), a bidi
// control reorders what a reviewer reads. Every such character is printed as a visible `\uXXXX`
// (`\n`, `\r`, `\t` by name), and a line that would still read as a workflow command is defused.

/** C0 and C1 controls, DEL, the line and paragraph separators, bidi controls and invisible marks. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  return NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** One line of text with every unsafe character shown as an escape. */
export function cliText(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** A message from the language service: escaped, and at most `max` characters (… marks the cut). */
export function cliMessage(text: string, max = 300): string {
  const shown = cliText(text);
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

/**
 * The last line of defence for every line the tool writes: GitHub Actions runs a line whose
 * trimmed text starts with `::` as a command, and a `##[` anywhere in it as an old-style one. The
 * colon and the hash become `\u003a` / `\u0023`, escapes that JSON reads back as the same text.
 */
export function defuseWorkflowCommands(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line.replace(/^(\s*):(?=:)/, (_all, space: string) => `${space}\\u003a`).replace(/##\[/g, '#\\u0023['),
    )
    .join('\n');
}

/** Echoed source around a problem: at most this many characters of the line. */
export const SOURCE_WINDOW = 120;

export interface SourceExcerpt {
  /** The shown part of the line, escaped, with … where it was cut. */
  readonly text: string;
  /** 0-based columns in `text` the caret underlines. */
  readonly caretStart: number;
  readonly caretEnd: number;
}

/**
 * The part of `line` around [start, end) (UTF-16 columns) as it is printed: tabs as one space each
 * (so the caret lines up whatever the terminal's tab width), unsafe characters escaped, and at
 * most `width` characters around the caret, with … marks where the line goes on.
 */
export function sourceExcerpt(line: string, start: number, end: number, width = SOURCE_WINDOW): SourceExcerpt {
  // Only a window's worth of the raw line can be shown; an escape is at most six characters long.
  const from = Math.max(0, Math.min(start, line.length) - width);
  const to = Math.min(line.length, Math.max(end, start) + width);
  let text = '';
  let caretStart = -1;
  let caretEnd = -1;
  for (let i = from; i <= to; i++) {
    if (i === start) caretStart = text.length;
    if (i === Math.max(end, start)) caretEnd = text.length;
    if (i === to) break;
    const c = line[i];
    // What defuseWorkflowCommands would change, changed here so the caret stays under its character.
    if (c === ':' && line[i + 1] === ':' && from === 0 && /^\s*$/.test(line.slice(0, i))) text += '\\u003a';
    else if (c === '#' && line[i - 1] === '#' && line[i + 1] === '[') text += '\\u0023';
    else text += c === '\t' ? ' ' : cliText(c);
  }
  if (caretStart < 0) caretStart = text.length;
  if (caretEnd < caretStart) caretEnd = caretStart;
  let head = from > 0;
  let tail = to < line.length;
  // The window: centred on the caret's start, never past the text.
  const span = Math.min(caretEnd - caretStart, width - 2);
  let left = Math.max(0, caretStart - Math.floor((width - 2 - span) / 2));
  const right = Math.min(text.length, left + width - 2);
  left = Math.max(0, right - (width - 2));
  if (left > 0) head = true;
  if (right < text.length) tail = true;
  const shown = `${head ? '…' : ''}${text.slice(left, right)}${tail ? '…' : ''}`;
  const shift = (head ? 1 : 0) - left;
  return {
    text: shown,
    caretStart: Math.max(0, caretStart + shift),
    caretEnd: Math.min(shown.length, Math.max(caretStart + shift + 1, Math.min(caretEnd, right) + shift)),
  };
}

/** Characters JSON.stringify leaves as they are but a terminal or a reviewer's eye would not. */
const JSON_UNSAFE = /[\u007F-\u009F\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g;

/** JSON text (two-space indented) with those characters written as `\uXXXX` escapes: the same value. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(JSON_UNSAFE, escapeChar);
}
