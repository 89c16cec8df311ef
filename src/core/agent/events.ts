// Events and detections as the agent tools show them: counts first, then a few rows of the fields a
// reader looks at, fenced as untrusted data (event values come from logs anyone can write into).
import type { Detection } from '../../udm/rule/test-types';
import { compileQuery } from '../../udm/index';
import { planRuleTest } from '../../udm/rule/plan';
import { Answer, clip, untrusted } from './answer';

/** Rows an answer holds by default, and at most. */
export const DEFAULT_ROWS = 10;
export const MAX_ROWS = 50;

const SHOWN_FIELDS = [
  'metadata.eventTimestamp',
  'metadata.eventType',
  'metadata.productName',
  'principal.hostname',
  'principal.ip',
  'principal.user.userid',
  'target.hostname',
  'target.ip',
  'target.user.userid',
  'securityResult.action',
] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function at(value: unknown, path: string): unknown {
  let v = value;
  for (const seg of path.split('.')) {
    if (Array.isArray(v)) v = v.map((x) => (isObject(x) ? x[seg] : undefined)).filter((x) => x !== undefined);
    else if (isObject(v)) v = v[seg];
    else return undefined;
  }
  return Array.isArray(v) && v.length === 0 ? undefined : v;
}

/** The `udm` of a search result or a bare UDM event. */
export function udmOf(event: unknown): unknown {
  return isObject(event) && isObject(event.udm) ? event.udm : event;
}

/** The few fields a row shows, each value cut short. */
export function compactRow(event: unknown): Record<string, unknown> {
  const udm = udmOf(event);
  const row: Record<string, unknown> = {};
  for (const path of SHOWN_FIELDS) {
    const v = at(udm, path);
    if (v === undefined) continue;
    if (typeof v === 'string') row[path] = clip(v, 200);
    else {
      const json = JSON.stringify(v);
      row[path] = json.length <= 300 ? v : clip(json, 300);
    }
  }
  return row;
}

function rowsText(rows: readonly unknown[], shown: number): string {
  return rows
    .slice(0, shown)
    .map((r) => {
      try {
        return JSON.stringify(r);
      } catch {
        return '"(unreadable row)"';
      }
    })
    .join('\n');
}

/** Counts by metadata.eventType, most first. */
export function countsByType(events: readonly unknown[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const e of events) {
    const t = at(udmOf(e), 'metadata.eventType');
    const key = typeof t === 'string' ? clip(t, 60) : '(none)';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

export function searchText(options: {
  query: string;
  window: { start: string; end: string };
  events: readonly unknown[];
  moreDataAvailable: boolean;
  rows: number;
  panelOpened: boolean;
}): string {
  const { events, rows } = options;
  const answer = new Answer();
  answer.add(
    `udmSearch returned ${events.length} event(s) for ${options.window.start} – ${options.window.end}${options.moreDataAvailable ? ' and says more match (raise "limit" or narrow the time range)' : ''}.${options.panelOpened ? ' The results panel shows every row to the user.' : ''}`,
  );
  const types = countsByType(events).slice(0, 20);
  if (types.length) answer.add(`By event type: ${types.map(([t, n]) => `${t} ${n}`).join(', ')}.`);
  const shown = Math.min(rows, events.length);
  if (shown > 0)
    answer.add(
      `First ${shown} row(s), a few fields each:\n${untrusted('the searched events', rowsText(events.map(compactRow), shown), 12_000)}`,
    );
  return answer.text('lower "rows"');
}

export function statisticsText(options: {
  columns: readonly string[];
  table: readonly unknown[][];
  eventsRead: number;
  moreDataAvailable: boolean;
  rows: number;
  window: { start: string; end: string };
}): string {
  const answer = new Answer();
  answer.add(
    `The statistical query gives ${options.table.length} row(s) over ${options.eventsRead} event(s) of ${options.window.start} – ${options.window.end}${options.moreDataAvailable ? '; udmSearch said more events match, so the table covers the first ones only' : ''}. Columns: ${options.columns.map((c) => clip(c, 60)).join(', ')}.`,
  );
  const lines = options.table
    .slice(0, options.rows)
    .map((r) => JSON.stringify(r.map((v) => (typeof v === 'string' ? clip(v, 200) : v))));
  if (lines.length)
    answer.add(
      `First ${lines.length} row(s):\n${untrusted('the computed statistics (values from events)', lines.join('\n'), 12_000)}`,
    );
  return answer.text('lower "rows"');
}

function time(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

export function detectionsText(options: {
  ruleName: string;
  detections: readonly Detection[];
  eventsRead: number;
  source: string;
  notes: readonly string[];
  cut?: string;
}): string {
  const { detections } = options;
  const answer = new Answer();
  answer.add(
    `${clip(options.ruleName, 100)}: ${detections.length} detection(s) over ${options.eventsRead} event(s) from ${options.source}.${options.cut ? ` Incomplete: ${clip(options.cut, 400)}` : ''}`,
  );
  for (const n of options.notes.slice(0, 10)) answer.add(`Note: ${clip(n, 400)}`);
  const lines = detections.slice(0, 20).map((d) =>
    JSON.stringify({
      window: `${time(d.windowStart)} – ${time(d.windowEnd)}`,
      match: d.match,
      outcomes: d.outcomes,
      ...(d.riskScore !== undefined ? { riskScore: d.riskScore } : {}),
      events: Object.fromEntries(Object.entries(d.events).map(([v, es]) => [v, es.length])),
    }).slice(0, 1500),
  );
  if (lines.length)
    answer.add(
      `${lines.length < detections.length ? `First ${lines.length} detections` : 'Detections'} (match values, outcomes and event counts per variable):\n${untrusted('the tested events (match and outcome values)', lines.join('\n'), 12_000)}`,
    );
  return answer.text('test over fewer events');
}

/** Events files as the results view saves them: a JSON array, NDJSON, or a udmSearch answer. */
export function parseEventsText(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      if (Array.isArray(parsed)) return parsed.filter(isObject);
      if (isObject(parsed) && Array.isArray(parsed.events)) return parsed.events.filter(isObject);
      if (isObject(parsed)) return [parsed];
    } catch {
      // NDJSON starts with `{` too.
    }
  }
  const events: unknown[] = [];
  for (const [i, line] of trimmed.split('\n').entries()) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} is not JSON: the events file must be a JSON array, NDJSON or a udmSearch answer`);
    }
    if (isObject(value)) events.push(value);
  }
  return events;
}

/** Each event variable's events of `events`, picked by that variable's search (what udmSearch would answer). */
export function pickEventsByVariable(ruleText: string, events: readonly unknown[]): Map<string, unknown[]> {
  const plan = planRuleTest(ruleText);
  if ('error' in plan) throw new Error(plan.error);
  const byVariable = new Map<string, unknown[]>();
  for (const search of plan.searches) {
    const query = compileQuery(search.query, {});
    if (query.hasErrors) throw new Error(`the search for $${search.variable} does not compile`);
    byVariable.set(
      search.variable,
      events.filter((e) => query.matches(udmOf(e))),
    );
  }
  return byVariable;
}
