// The one CSV writer: every CSV Cloudbench writes or copies (results, statistics, metrics, notebook
// tables) goes through it. Pure: no DOM, no Node APIs, so webviews use it too.
//
// Values come from event fields, metric keys and names other people chose. A spreadsheet that opens
// the file runs a cell as a formula when it starts with = + - @ (also after leading blanks, or a tab
// or CR), which reaches DDE (`-2+3+cmd|' /C calc'!A0`) and HYPERLINK exfiltration. Such cells get a
// leading apostrophe, which spreadsheets show as text. Plain numbers (-0.5, +1e-3) stay numbers:
// they are data a spreadsheet should compute with, and cannot run anything.

const FORMULA_START = /^[\s\u00a0]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r\n]/;
const PLAIN_NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** True when a spreadsheet would read the text as a formula rather than as text or a number. */
export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

/** One field per RFC 4180, with the formula guard. */
export function csvField(value: string): string {
  const text = isFormulaLike(value) ? `'${value}` : value;
  if (/[",\r\n]/.test(text) || text !== text.trim()) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

/** A whole CSV document: one line per row, CRLF line ends (RFC 4180), a final line end. */
export function csvDocument(rows: Iterable<readonly string[]>): string {
  let out = '';
  for (const row of rows) out += `${row.map(csvField).join(',')}\r\n`;
  return out;
}
