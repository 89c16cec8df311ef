// Export of a whole result set to CSV, JSON and NDJSON, and the text hygiene every displayed value
// goes through. Pure: no DOM, no Node APIs.
import { csvDocument } from '../../csv';
import { cellText, type ColumnSpec } from './fields';

export type ExportFormat = 'csv' | 'json' | 'ndjson';

export { csvField } from '../../csv';

export function toCsv(rows: readonly unknown[], columns: readonly ColumnSpec[]): string {
  return csvDocument([columns.map((c) => c.label), ...rows.map((row) => columns.map((c) => cellText(row, c)))]);
}

export function toJson(rows: readonly unknown[]): string {
  return JSON.stringify(rows, null, 2) + '\n';
}

export function toNdjson(rows: readonly unknown[]): string {
  let out = '';
  for (const row of rows) out += JSON.stringify(row) + '\n';
  return out;
}

export function exportResults(format: ExportFormat, rows: readonly unknown[], columns: readonly ColumnSpec[]): string {
  switch (format) {
    case 'csv':
      return toCsv(rows, columns);
    case 'json':
      return toJson(rows);
    case 'ndjson':
      return toNdjson(rows);
  }
}

export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', json: 'json', ndjson: 'ndjson' };

// Bidirectional overrides and isolates can make "exe.txt" render as "txt.exe"; zero-width and other
// controls hide text. They are shown as visible markers instead of being interpreted.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/**
 * Text safe to show in a table cell: control and bidi characters made visible, newlines flattened,
 * and long values cut (the detail pane and exports keep the full value).
 */
export function displayText(value: string, max = 300): string {
  let text = value.length > max * 4 ? value.slice(0, max * 4) : value;
  text = text
    .replace(/\r\n|\r|\n|\t/g, ' ')
    .replace(INVISIBLE, (c) => `\u2039U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}\u203A`);
  return text.length > max ? `${text.slice(0, max)}\u2026 (${value.length.toLocaleString('en-US')} chars)` : text;
}

/** Only web links open outside the editor; javascript:, data:, file: and the rest never do. */
export function isOpenableLink(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return false;
  }
  return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
}
