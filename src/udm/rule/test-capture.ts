// Turning events found in a hunt into a rule test case that can be kept in git: names and
// addresses replaced with stable placeholders, times moved to a fixed week, and the expectation
// taken from the engine's detections over the events as they will be stored.
//
// Redaction replaces host names, user names, e-mail addresses and IP addresses, each value with
// the same placeholder wherever it appears (host-1, user-1, user-1@example.com, 192.0.2.1 …),
// numbered in the order the events first give them. A value the rule or its reference lists name
// is kept: the rule must still see what it tests for.
//
// Time shifting moves every timestamp by a whole number of weeks so the earliest event falls in
// the week starting BASE_WEEK: the time of day and the day of the week stay, and so do the hop
// windows (aligned on multiples of their hop since the epoch, a whole number of minutes that
// divides a week for every window a rule writes in whole minutes, hours or days up to a week).
import { isSeq, parseDocument, stringify } from 'yaml';
import { parseRuleFile } from './parse';
import { eventTime, udmOf } from './prepare';
import type { Detection } from './test-types';

/** Monday 2026-01-05T00:00:00Z: the week saved cases start in. */
export const BASE_WEEK = Date.UTC(2026, 0, 5);
const WEEK = 7 * 86_400_000;

type Kind = 'host' | 'user' | 'email' | 'ip';

const HOST_KEYS = new Set(['hostname', 'clientHostname', 'assetId']);
const USER_KEYS = new Set(['userid', 'userDisplayName', 'windowsSid', 'productObjectId', 'employeeId']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
const IPV6 = /^[0-9a-fA-F:]*:[0-9a-fA-F:.]*$/;

/** Values a rule or its lists name, which redaction keeps (compared without case). */
export function keptValues(ruleText: string, lists: Readonly<Record<string, readonly string[]>>): Set<string> {
  const kept = new Set<string>();
  for (const t of parseRuleFile(ruleText).tokens)
    if ((t.kind === 'string' || t.kind === 'regex') && t.value) kept.add(t.value.toLowerCase());
  for (const entries of Object.values(lists)) for (const e of entries) kept.add(e.trim().toLowerCase());
  return kept;
}

export class Redactor {
  private readonly given = new Map<string, string>();
  private readonly counts: Record<Kind, number> = { host: 0, user: 0, email: 0, ip: 0 };

  constructor(private readonly kept: ReadonlySet<string>) {}

  /** What replaced what, for the person saving the case to review. */
  get replacements(): ReadonlyMap<string, string> {
    return this.given;
  }

  /** Values found, in order, each with its kind; placeholders are given once all are known. */
  private readonly found = new Map<string, Kind>();
  private readonly originals = new Set<string>();

  private placeholder(kind: Kind, value: string): string {
    const v = value.toLowerCase();
    if (this.kept.has(v)) return value;
    const key = `${kind} ${v}`;
    if (!this.found.has(key)) this.found.set(key, kind);
    this.originals.add(v);
    return value;
  }

  /** A placeholder for each value found, never one that is itself a value of the events or the rule. */
  private assign(): void {
    if (this.given.size || !this.found.size) return;
    for (const [key, kind] of this.found) {
      let made: string;
      do {
        const n = ++this.counts[kind];
        made =
          kind === 'host'
            ? `host-${n}`
            : kind === 'user'
              ? `user-${n}`
              : kind === 'email'
                ? `user-${n}@example.com`
                : key.includes(':')
                  ? `2001:db8::${n.toString(16)}`
                  : `192.0.${2 + Math.floor((n - 1) / 254)}.${((n - 1) % 254) + 1}`;
      } while (this.originals.has(made) || this.kept.has(made));
      this.given.set(key, made);
    }
  }

  private scalar(key: string, value: string): string {
    if (EMAIL.test(value)) return this.placeholder('email', value);
    if (IPV4.test(value) || (IPV6.test(value) && value.includes('::'))) return this.placeholder('ip', value);
    if (HOST_KEYS.has(key)) return this.placeholder('host', value);
    if (USER_KEYS.has(key)) return this.placeholder('user', value);
    return value;
  }

  /** Gives a placeholder to every name and address of the typed fields of `value`. */
  collect(value: unknown, key = ''): void {
    if (typeof value === 'string') this.scalar(key, value);
    else if (Array.isArray(value)) for (const v of value) this.collect(v, key);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) this.collect(v, k);
  }

  /** Every collected value inside any text too (a summary that names the host), word by word. */
  private inText(text: string): string {
    this.assign();
    if (!this.given.size) return text;
    return text
      .split(/([\s,;()'"<>[\]{}=/\\]+)/)
      .map(
        (part) =>
          this.lookup(part) ??
          this.lookup(part.replace(/[.:!?]+$/, ''))?.concat(/[.:!?]+$/.exec(part)?.[0] ?? '') ??
          part,
      )
      .join('');
  }

  private lookup(value: string): string | undefined {
    this.assign();
    const v = value.toLowerCase();
    for (const kind of ['email', 'ip', 'host', 'user'] as const) {
      const made = this.given.get(`${kind} ${v}`);
      if (made !== undefined) return made;
    }
    return undefined;
  }

  /** A copy of `value` with every collected name and address replaced (call collect first). */
  redact(value: unknown, key = ''): unknown {
    if (typeof value === 'string') return this.lookup(value) ?? this.inText(value);
    if (Array.isArray(value)) return value.map((v) => this.redact(v, key));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.redact(v, k);
      return out;
    }
    return value;
  }
}

/** The shift (ms, whole weeks) that puts the earliest of `times` in the week of BASE_WEEK. */
export function shiftFor(times: readonly number[]): number {
  const finite = times.filter((t) => Number.isFinite(t));
  if (!finite.length) return 0;
  const earliest = Math.min(...finite);
  return -Math.floor((earliest - BASE_WEEK) / WEEK) * WEEK;
}

const TIME_KEY = /(Timestamp|Time)$/;

function shiftText(text: string, by: number): string {
  const t = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(t)) return text;
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? '';
  const iso = new Date(t + by).toISOString();
  // Keep the sub-millisecond digits the text had (Date keeps milliseconds only).
  return fraction.length > 3 ? `${iso.slice(0, 19)}.${iso.slice(20, 23)}${fraction.slice(3)}Z` : iso;
}

/** A copy of a UDM value with every timestamp field moved by `by` ms. */
export function shiftTimes(value: unknown, by: number, key = ''): unknown {
  if (by === 0) return value;
  if (typeof value === 'string') return TIME_KEY.test(key) ? shiftText(value, by) : value;
  if (Array.isArray(value)) return value.map((v) => shiftTimes(v, by, key));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (TIME_KEY.test(key) && 'seconds' in o) {
      const s = Number(o.seconds);
      return Number.isFinite(s)
        ? { ...o, seconds: typeof o.seconds === 'string' ? String(s + by / 1000) : s + by / 1000 }
        : o;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) out[k] = shiftTimes(v, by, k);
    return out;
  }
  return value;
}

export interface CaptureOptions {
  readonly ruleText: string;
  readonly events: readonly unknown[];
  readonly lists?: Readonly<Record<string, readonly string[]>>;
  /** replace names and addresses (default true) */
  readonly redact?: boolean;
  /** move the times to the week of BASE_WEEK (default true) */
  readonly shift?: boolean;
}

export interface Captured {
  /** the events as the case stores them: `{ udm }` each */
  readonly events: Array<{ udm: unknown }>;
  /** ms every time moved by */
  readonly shift: number;
  /** `kind original` → placeholder */
  readonly replacements: ReadonlyMap<string, string>;
}

/** The events of a new case: redacted and moved as asked, in time order. */
export function captureEvents(options: CaptureOptions): Captured {
  const udms = options.events.map((e) => udmOf(e)).filter((u): u is Record<string, unknown> => u !== undefined);
  udms.sort((a, b) => (eventTime(a) ?? 0) - (eventTime(b) ?? 0));
  const shift = options.shift === false ? 0 : shiftFor(udms.map((u) => eventTime(u) ?? NaN));
  const redactor = new Redactor(keptValues(options.ruleText, options.lists ?? {}));
  const moved = udms.map((u) => shiftTimes(u, shift));
  if (options.redact !== false) for (const u of moved) redactor.collect(u);
  const events = moved.map((u) => ({ udm: options.redact === false ? u : redactor.redact(u) }));
  return { events, shift, replacements: redactor.replacements };
}

/** A detection as a case expects it: match values, outcomes, risk score and the events' ids. */
export function expectedFrom(d: Detection): Record<string, unknown> {
  const events: Record<string, unknown> = {};
  for (const [v, list] of Object.entries(d.events))
    events[v] = list.every((e) => e.id !== undefined) ? list.map((e) => e.id) : list.length;
  return {
    ...(Object.keys(d.match).length ? { match: d.match } : {}),
    ...(Object.keys(d.outcomes).length ? { outcomes: d.outcomes } : {}),
    ...(d.riskScore !== undefined ? { riskScore: d.riskScore } : {}),
    events,
  };
}

/** A new case as the test file holds it: its events, and the detections the engine gives over them. */
export function caseOf(
  name: string,
  events: ReadonlyArray<{ udm: unknown }>,
  detections: readonly Detection[],
  lists?: Readonly<Record<string, readonly string[]>>,
): Record<string, unknown> {
  return {
    name,
    events,
    ...(lists && Object.keys(lists).length ? { lists } : {}),
    expect: detections.length ? { detections: detections.map(expectedFrom) } : { fires: false },
  };
}

/** One case as YAML lines to append under `cases:` (two spaces in, a `- ` item). */
export function caseYaml(testCase: Record<string, unknown>): string {
  return stringify([testCase], { lineWidth: 0, aliasDuplicateObjects: false })
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n');
}

/**
 * `text` with the case added as the last item under `cases:`, indented as the items before it; a
 * file whose `cases:` is not a block list is written again by the YAML library (comments kept).
 */
export function withCase(text: string | undefined, ruleFile: string, testCase: Record<string, unknown>): string {
  if (text === undefined || text.trim() === '')
    return `# Test cases for ${ruleFile}: run them with \`cloudbench test\` or from the Test Explorer.\ncases:\n${caseYaml(testCase)}`;
  const doc = parseDocument(text);
  const cases = doc.get('cases', true);
  if (isSeq(cases) && !cases.flow && cases.items.length && cases.range) {
    const first = cases.items[0] as { range?: [number, number, number] };
    const lineStart = text.lastIndexOf('\n', (first.range?.[0] ?? 0) - 1) + 1;
    const indent = Math.max(0, text.slice(lineStart).search(/-/));
    const end = cases.range[1];
    const at = text.indexOf('\n', end - 1) === -1 ? text.length : text.indexOf('\n', end - 1) + 1;
    const item = caseYaml(testCase)
      .split('\n')
      .map((l) => (l ? `${' '.repeat(indent)}${l.slice(2)}` : l))
      .join('\n');
    const before = text.slice(0, at);
    return `${before}${before.endsWith('\n') ? '' : '\n'}${item}${text.slice(at)}`;
  }
  if (cases === undefined || cases === null) doc.set('cases', [testCase]);
  else doc.addIn(['cases'], testCase);
  return doc.toString({ lineWidth: 0 });
}
