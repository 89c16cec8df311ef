// The detections each demo rule (test/e2e/fixtures/workspace/rules/*.yaral) must produce over a set
// of UDM events, computed by hand with plain loops: an independent check on the rule engine, so it
// shares no code with src/udm. Each function mirrors one rule's events, match, outcome and condition
// sections; when a rule file changes, its function here must change with it.
//
// Window model, written from Google's "YARA-L 2.0 windowing logic" (reference/yaral-rules.md, "Match"):
// - Events are grouped by the match placeholders; a group whose key holds a zero value ("" or 0)
//   is dropped, as Google SecOps does without `allow_zero_values = true`.
// - Every window is [start, end): an event at the end time is outside it.
// - Hop window (`over d`): overlapping windows of length d placed every hop, at every multiple of
//   the hop since the epoch (UTC). Google does not publish its hop; the tester's stated choice is
//   d / 24 rounded down to whole minutes, at least one minute (24 h → 1 h, 1 h → 2 min). An event
//   belongs to every window it falls in. Windows holding the same events give one detection (the
//   earliest of them is reported); a window holding other events is another detection, so every
//   burst's peak count shows.
// - Sliding window (`over d after $pivot`): each pivot event opens [t, t + d); no pivot is skipped
//   because an earlier window holds it. Two pivots at the same time open the same window: one
//   detection.
// A rule without `match:` gives one detection per event, with a window of that event's time alone.
//
// Input: any set of events that holds the rule's events (the demo data from generateDemo, or what
// udmSearch returns from the sandbox for the rule's event types over the tested range) and the
// reference lists (the sandbox's lists, or the demo data's). The demo data depends on the hour the
// sandbox starts at, so compare against events read from the same sandbox.

/** A UDM event in the proto3 JSON mapping, as udmSearch returns it. */
export interface OracleEvent {
  udm: Record<string, unknown>;
}

export interface OracleList {
  name: string;
  lines: string[];
  contentType: string;
}

export interface OracleData {
  events: readonly OracleEvent[];
  lists: readonly OracleList[];
}

export type OutcomeValue = number | string | string[];

export interface ExpectedDetection {
  rule: DemoRuleName;
  /** Match placeholder (with its `$`) → value; empty for a rule without `match:`. */
  match: Record<string, string>;
  /** Milliseconds since the epoch: the window is [windowStart, windowEnd) (equal without `match:`). */
  windowStart: number;
  windowEnd: number;
  /** Outcome variable (with its `$`) → value; array_distinct values are sorted. */
  outcomes: Record<string, OutcomeValue>;
  /** Event variable (with its `$`) → metadata.id (base64) of the events behind the detection, in time order. */
  events: Record<string, string[]>;
}

export const DEMO_RULES = [
  'c2_connection',
  'ioc_lookup_then_web_request',
  'repeated_failed_logins',
  'suspicious_domain_lookups',
  'critical_server_ioc_lookup',
] as const;
export type DemoRuleName = (typeof DEMO_RULES)[number];

/** The demo rule that must produce no detection on the demo events. */
export const QUIET_RULE: DemoRuleName = 'critical_server_ioc_lookup';

/** A time range [start, end) in milliseconds, as Test Rule asks for one. */
export interface TimeRange {
  start: number;
  end: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const C2_ADDRESS = '198.51.100.23';

interface Timed {
  udm: Record<string, unknown>;
  t: number;
  id: string;
}

/** The values at a camelCase path, with repeated fields flattened (a UDM path's "any" reading). */
function values(udm: unknown, path: string): unknown[] {
  let current: unknown[] = [udm];
  for (const key of path.split('.')) {
    const next: unknown[] = [];
    for (const c of current) {
      if (c === null || typeof c !== 'object') continue;
      const v = (c as Record<string, unknown>)[key];
      if (Array.isArray(v)) next.push(...v);
      else if (v !== undefined && v !== null) next.push(v);
    }
    current = next;
  }
  return current;
}

/** A scalar as the text a UDM comparison sees; messages are not values. */
function text(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

function first(udm: unknown, path: string): string {
  return text(values(udm, path)[0]);
}

function has(udm: unknown, path: string, want: string | number): boolean {
  return values(udm, path).some((v) => text(v) === String(want));
}

function listLines(data: OracleData, name: string): Set<string> {
  const list = data.lists.find((l) => l.name === name);
  if (!list) throw new Error(`the events come without the reference list ${name}`);
  // Lines starting with `//` are comments in a reference list.
  return new Set(list.lines.map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('//')));
}

function inList(udm: unknown, path: string, lines: Set<string>): boolean {
  return values(udm, path).some((v) => lines.has(text(v)));
}

function timed(
  data: OracleData,
  range: TimeRange | undefined,
  filter: (udm: Record<string, unknown>) => boolean,
): Timed[] {
  const out: Timed[] = [];
  for (const e of data.events) {
    const t = Date.parse(first(e.udm, 'metadata.eventTimestamp'));
    if (Number.isNaN(t)) throw new Error(`event ${first(e.udm, 'metadata.id')} has no metadata.eventTimestamp`);
    if (range && (t < range.start || t >= range.end)) continue;
    if (filter(e.udm)) out.push({ udm: e.udm, t, id: first(e.udm, 'metadata.id') });
  }
  return out.sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function groupBy(events: Timed[], key: (e: Timed) => string): Map<string, Timed[]> {
  const groups = new Map<string, Timed[]>();
  for (const e of events) {
    const k = key(e);
    if (k === '' || k === '0') continue; // zero values of match placeholders are filtered out
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(e);
  }
  return groups;
}

/** The events of a window [start, end). */
const within = (events: Timed[], start: number, end: number): Timed[] =>
  events.filter((e) => e.t >= start && e.t < end);

/** The hop this tester places `over d` windows at: d / 24 in whole minutes, at least one minute. */
export function hopOfWindow(duration: number): number {
  const minutes = Math.floor(duration / MINUTE / 24);
  return (minutes < 1 ? 1 : minutes) * MINUTE;
}

/** A window's events as one key: windows holding the same events give one detection. */
const eventsKey = (...lists: Timed[][]): string => lists.map((l) => l.map((e) => e.id).join(',')).join('|');

const sortedDistinct = (items: string[]): string[] => [...new Set(items)].sort();

const seconds = (t: number): number => Math.floor(t / 1000);

/** rules/c2_connection.yaral: single event, one detection per connection to the C2 address. */
function c2Connection(data: OracleData, range?: TimeRange): ExpectedDetection[] {
  const events = timed(
    data,
    range,
    (u) => first(u, 'metadata.eventType') === 'NETWORK_CONNECTION' && has(u, 'target.ip', C2_ADDRESS),
  );
  return events.map((e) => {
    const port = Number(first(e.udm, 'target.port'));
    return {
      rule: 'c2_connection',
      match: {},
      windowStart: e.t,
      windowEnd: e.t,
      outcomes: { $risk_score: port === 4444 ? 90 : 75, $hostname: first(e.udm, 'principal.hostname'), $port: port },
      events: { $e: [e.id] },
    };
  });
}

/** rules/ioc_lookup_then_web_request.yaral: $dns then $http on the same $host, `over 2h after $dns`. */
function iocLookupThenWebRequest(data: OracleData, range?: TimeRange): ExpectedDetection[] {
  const dns = timed(
    data,
    range,
    (u) => first(u, 'metadata.eventType') === 'NETWORK_DNS' && has(u, 'network.dns.answers.data', C2_ADDRESS),
  );
  const http = timed(
    data,
    range,
    (u) => first(u, 'metadata.eventType') === 'NETWORK_HTTP' && has(u, 'target.ip', C2_ADDRESS),
  );
  const host = (e: Timed): string => first(e.udm, 'principal.hostname');
  const httpByHost = groupBy(http, host);
  const out: ExpectedDetection[] = [];
  for (const [h, pivots] of groupBy(dns, host)) {
    const requests = httpByHost.get(h) ?? [];
    const seen = new Set<string>();
    for (const pivot of pivots) {
      const start = pivot.t;
      const end = start + 2 * HOUR;
      const inDns = within(pivots, start, end);
      const inHttp = within(requests, start, end);
      if (inHttp.length === 0) continue; // the condition is `$dns and $http`
      const key = eventsKey(inDns, inHttp);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        rule: 'ioc_lookup_then_web_request',
        match: { $host: h },
        windowStart: start,
        windowEnd: end,
        outcomes: {
          $risk_score: Math.max(
            ...inHttp.map((e) => (Number(first(e.udm, 'network.http.responseCode')) === 403 ? 50 : 80)),
          ),
          $domains: sortedDistinct(inDns.flatMap((e) => values(e.udm, 'network.dns.questions.name').map(text))),
          $requests: new Set(inHttp.map((e) => e.id)).size,
          $first_lookup: Math.min(...inDns.map((e) => seconds(e.t))),
        },
        events: { $dns: inDns.map((e) => e.id), $http: inHttp.map((e) => e.id) },
      });
    }
  }
  return out;
}

/** Hop window over one event variable `$e`, grouped by one placeholder; `holds` is the condition. */
function hopWindows(
  rule: DemoRuleName,
  placeholder: string,
  events: Timed[],
  key: (e: Timed) => string,
  duration: number,
  holds: (inWindow: Timed[]) => boolean,
  outcomes: (inWindow: Timed[]) => Record<string, OutcomeValue>,
): ExpectedDetection[] {
  const out: ExpectedDetection[] = [];
  const hop = hopOfWindow(duration);
  for (const [k, group] of groupBy(events, key)) {
    const seen = new Set<string>();
    // Every window [n·hop, n·hop + duration) that can hold an event of the group, in time order.
    const firstN = Math.floor((group[0].t - duration) / hop) + 1;
    const lastN = Math.floor(group[group.length - 1].t / hop);
    for (let n = firstN; n <= lastN; n++) {
      const start = n * hop;
      const end = start + duration;
      const inWindow = within(group, start, end);
      if (inWindow.length === 0) continue;
      const windowKey = eventsKey(inWindow);
      if (seen.has(windowKey)) continue;
      seen.add(windowKey);
      if (!holds(inWindow)) continue;
      out.push({
        rule,
        match: { [placeholder]: k },
        windowStart: start,
        windowEnd: end,
        outcomes: outcomes(inWindow),
        events: { $e: inWindow.map((e) => e.id) },
      });
    }
  }
  return out;
}

/** rules/repeated_failed_logins.yaral: `#e >= 5` blocked sign-ins per `$user over 24h`. */
function repeatedFailedLogins(data: OracleData, range?: TimeRange): ExpectedDetection[] {
  const events = timed(
    data,
    range,
    (u) => first(u, 'metadata.eventType') === 'USER_LOGIN' && has(u, 'securityResult.action', 'BLOCK'),
  );
  return hopWindows(
    'repeated_failed_logins',
    '$user',
    events,
    (e) => first(e.udm, 'target.user.userid'),
    24 * HOUR,
    (w) => w.length >= 5,
    (w) => ({
      $failures: w.length,
      $hosts: sortedDistinct(w.flatMap((e) => values(e.udm, 'principal.hostname').map(text))),
      $risk_score: 10 * w.length,
    }),
  );
}

/** rules/suspicious_domain_lookups.yaral: look-ups in %suspicious_domains per `$host over 24h`. */
function suspiciousDomainLookups(data: OracleData, range?: TimeRange): ExpectedDetection[] {
  const watched = listLines(data, 'suspicious_domains');
  const events = timed(
    data,
    range,
    (u) => first(u, 'metadata.eventType') === 'NETWORK_DNS' && inList(u, 'network.dns.questions.name', watched),
  );
  return hopWindows(
    'suspicious_domain_lookups',
    '$host',
    events,
    (e) => first(e.udm, 'principal.hostname'),
    24 * HOUR,
    (w) => w.length > 0,
    (w) => ({
      $risk_score: Math.max(
        ...w.map((e) => (has(e.udm, 'network.dns.questions.name', 'cdn-update-check.test') ? 90 : 60)),
      ),
      $domains: sortedDistinct(w.flatMap((e) => values(e.udm, 'network.dns.questions.name').map(text))),
      $lookups: w.length,
    }),
  );
}

/** rules/critical_server_ioc_lookup.yaral: as above, from hosts in %critical_servers, `over 1h`. */
function criticalServerIocLookup(data: OracleData, range?: TimeRange): ExpectedDetection[] {
  const watched = listLines(data, 'suspicious_domains');
  const servers = listLines(data, 'critical_servers');
  const events = timed(
    data,
    range,
    (u) =>
      first(u, 'metadata.eventType') === 'NETWORK_DNS' &&
      inList(u, 'network.dns.questions.name', watched) &&
      inList(u, 'principal.hostname', servers),
  );
  return hopWindows(
    'critical_server_ioc_lookup',
    '$host',
    events,
    (e) => first(e.udm, 'principal.hostname'),
    HOUR,
    (w) => w.length > 0,
    (w) => ({
      $risk_score: 95,
      $domains: sortedDistinct(w.flatMap((e) => values(e.udm, 'network.dns.questions.name').map(text))),
    }),
  );
}

const ORACLES: Record<DemoRuleName, (data: OracleData, range?: TimeRange) => ExpectedDetection[]> = {
  c2_connection: c2Connection,
  ioc_lookup_then_web_request: iocLookupThenWebRequest,
  repeated_failed_logins: repeatedFailedLogins,
  suspicious_domain_lookups: suspiciousDomainLookups,
  critical_server_ioc_lookup: criticalServerIocLookup,
};

/** The detections `rule` must produce over `data` (events whose time lies in `range`, when given), by window start. */
export function expectedDetections(rule: DemoRuleName, data: OracleData, range?: TimeRange): ExpectedDetection[] {
  return ORACLES[rule](data, range).sort(
    (a, b) => a.windowStart - b.windowStart || JSON.stringify(a.match).localeCompare(JSON.stringify(b.match)),
  );
}

/** Every demo rule's expected detections. */
export function allExpectedDetections(data: OracleData, range?: TimeRange): Record<DemoRuleName, ExpectedDetection[]> {
  const out = {} as Record<DemoRuleName, ExpectedDetection[]>;
  for (const rule of DEMO_RULES) out[rule] = expectedDetections(rule, data, range);
  return out;
}
