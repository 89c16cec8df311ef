// How a statistics table's cells and headings read, wherever a table is shown or written out (the
// statistics view, its exports, notebook outputs and their Markdown report). No vscode and no DOM.
import { formatInZone, ZoneOffsets } from './buckets';
import type { StatsColumn } from './plan';

/** Time zones seen, each with its cached offsets; a session uses one or two, so 32 is plenty. */
const zones = new Map<string, ZoneOffsets>();
const MAX_ZONES = 32;
function zoneOf(timeZone: string): ZoneOffsets {
  let z = zones.get(timeZone);
  if (!z) {
    z = new ZoneOffsets(timeZone);
    if (zones.size >= MAX_ZONES) zones.clear();
    zones.set(timeZone, z);
  }
  return z;
}

/** The text of a cell, as shown and as exported to CSV: timestamps in the table's time zone. */
export function cellText(value: unknown, column: Pick<StatsColumn, 'type'>, timeZone: string): string {
  if (value === null || value === undefined) return '';
  if (column.type === 'timestamp' && typeof value === 'number') return formatInZone(value, zoneOf(timeZone));
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Column headings: match keys as written, outcome variables with their `$`. */
export function columnLabel(column: Pick<StatsColumn, 'name' | 'role'>): string {
  return column.role === 'outcome' ? `$${column.name}` : column.role === 'bucket' ? 'time bucket' : column.name;
}
