// Text that came from outside (key display names, model labels, server messages, event values,
// names in files a colleague wrote) shown in VS Code's own chrome. VS Code turns
// `[label](command:…)`, `[label](https://…)` and `[label](file:…)` in notification messages,
// progress titles and modal dialogs into links that run commands or open pages
// (src/vs/base/common/linkedText.ts), renders `$(icon)` in quick picks, status items and window
// progress, and renders full Markdown (autolinks `<scheme:…>`, bare `https://` and `www.`,
// reference links, HTML) in MarkdownString tooltips. Such text must show as the characters it is,
// on one line, in a bounded length, with nothing in it that VS Code would act on.

/** Where the text goes: a plain string (messages, titles, labels) or a MarkdownString. */
export type DisplayKind = 'plain' | 'markdown';

/** Longest name or value shown. */
export const DISPLAY_LIMIT = 200;
/** Longest server or error message shown (VS Code cuts notifications at 1,000 characters). */
export const MESSAGE_LIMIT = 800;

// U+200B is invisible in every VS Code surface and ends any token VS Code's parsers look for. It is
// put only where plain text would otherwise be a link or an icon (`[a](command:x)`, `$(alert)`): a
// name like "docs https://example.com" or "alice@example.com" is shown, and copied, exactly as it is.
// In Markdown no character is added: links are broken by backslash escapes, which render as nothing.
const BREAK = '\u200b';

const LINE_BREAKS = /\r\n|[\n\r\t\v\f\u0085\u2028\u2029]/g;
// C0/C1 controls, soft hyphen, bidi embeddings/overrides/isolates/marks (they reorder what the eye
// reads: "Trojan Source"), zero-width and invisible formatting characters. ZWJ/ZWNJ stay: emoji and
// several scripts need them and they change no order.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\ufff9-\ufffb]/g;
// Where a bare link starts in Markdown renderers (GFM and editor link detection; also inside a word,
// where marked still finds them): `scheme:` and `www.`.
const BARE_LINK = /(?:command|https?|ftp|file|mailto|javascript|vbscript|data|vscode(?:-[a-z]+)?):|www\./gi;
// What plain-text surfaces act on: a link of VS Code's linkedText (`[label](https://…)`,
// `(command:…)`, `(file:…)`; src/vs/base/common/linkedText.ts) and a theme icon `$(name)` or
// `$(name~spin)` (iconLabels.ts). The break goes after `]` and after `$`.
const PLAIN_ACTIVE = /\](?=\((?:https?:\/\/|command:|file:))|\$(?=\([a-z.\d-]+(?:~[a-z\d-]*)?\))/gi;
// What starts inline markup anywhere in a line (emphasis, code, links and images, tables,
// strikethrough, math, HTML and entities); the rest of ASCII punctuation only matters at the start
// of a line, where it would make a heading, list, quote or setext underline.
const MARKDOWN_INLINE = /[\\`*_[\]|~<>&$]/g;
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

// HTML's own characters become entities (a renderer without CommonMark backslash escapes still shows
// them as text); the other markup characters get a backslash. Leading blanks would make an indented
// code block, and an e-mail address an autolink.
function markdownEscape(text: string): string {
  return (
    text
      .trimStart()
      .replace(MARKDOWN_INLINE, (c) => HTML_ENTITIES[c] ?? `\\${c}`)
      // A bare link, a `www.` link or an e-mail autolink: its `:`, `.` or `@` escaped (CommonMark lets
      // any ASCII punctuation be escaped), so no autolink starts and the text renders as it is.
      .replace(BARE_LINK, (token) => `${token.slice(0, -1)}\\${token.slice(-1)}`)
      .replace(/@(?=[\w-]+\.)/g, '\\@')
      .replace(/^[#+\-=]/, '\\$&')
      .replace(/^(\d+)([.)])/, '$1\\$2')
  );
}

/**
 * `value` as text VS Code shows literally: on one line, without control, bidi or invisible
 * characters, at most `max` characters (cut with "…"), with every link, autolink and icon token
 * broken. `markdown` also escapes every Markdown and HTML character, for MarkdownString.appendMarkdown
 * and Markdown files.
 */
export function safeText(
  value: string | number | undefined | null,
  kind: DisplayKind = 'plain',
  max = DISPLAY_LIMIT,
): string {
  const text = `${value ?? ''}`;
  // An event value can be megabytes: only its head can be shown, so only its head is scanned.
  const cut = text.length > 4 * max + 8;
  const flat = (cut ? text.slice(0, 4 * max + 8) : text).replace(LINE_BREAKS, ' ').replace(INVISIBLE, '');
  const chars = Array.from(flat);
  const bounded = cut || chars.length > max ? `${chars.slice(0, Math.max(0, max - 1)).join('')}…` : flat;
  if (kind === 'markdown') return markdownEscape(bounded);
  return bounded.replace(PLAIN_ACTIVE, (token) => `${token}${BREAK}`);
}

/**
 * A Markdown code span or fenced block that holds `code` whatever backticks it contains: the fence
 * is longer than the longest run of backticks inside (CommonMark), so the text cannot close it.
 */
export function markdownCode(code: string, block = false, language = ''): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  if (!block) {
    const fence = '`'.repeat(longest + 1);
    const inner = safeText(code, 'plain', DISPLAY_LIMIT * 5);
    return `${fence} ${inner} ${fence}`;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const lang = language.replace(/[^a-z0-9-]/gi, '');
  const body = code.replace(/\r\n?/g, '\n').replace(INVISIBLE_IN_BLOCK, '');
  return `\n${fence}${lang}\n${body}\n${fence}\n`;
}

// In a fenced block line breaks and tabs are the content; only what hides or reorders text goes.
const INVISIBLE_IN_BLOCK =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
