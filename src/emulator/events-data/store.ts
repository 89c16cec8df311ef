// Stored UDM events sorted by event time (a time range is two binary searches), with the entities
// the Search API answers from: users, the IoC feed and reference lists.
import { invalidArgument } from '../http/errors';
import { JsonText } from '../../core/json-pieces';
import type { SeedName } from '../types';
import { generateDemo, type DemoData, type Udm } from './demo';
import { generateRealistic } from './realistic';
import type { DirectoryUser, IocEntry, ReferenceList } from './directory';
import { createRng } from '../random';
import { formatRfc3339, parseRfc3339 } from './time';

export interface StoredEvent {
  /** Event time in ms since the epoch. */
  t: number;
  /** Hex form of metadata.id: the event's name in udmSearch results. */
  name: string;
  udm: Udm;
  rawLog?: string;
}

/** Stored events never change, so the JSON of each as udmSearch answers it is made once. */
const searchJson = new WeakMap<StoredEvent, JsonText>();

/** `{name, udm}` of a stored event, as JSON text. */
export function searchResultJson(e: StoredEvent): JsonText {
  let text = searchJson.get(e);
  if (!text) {
    text = new JsonText(JSON.stringify({ name: e.name, udm: e.udm }));
    searchJson.set(e, text);
  }
  return text;
}

export class EventStore {
  private sorted: StoredEvent[] = [];
  private pending: StoredEvent[] = [];
  private byName = new Map<string, StoredEvent>();
  private demoAnchor: number | undefined;
  private seed: SeedName = 'empty';
  private seedEvents: number | undefined;
  private idRng = createRng(0x1d5);
  private idPrefix = '';
  private idCounter = 0;
  users: DirectoryUser[] = [];
  iocs = new Map<string, IocEntry>();
  lists = new Map<string, ReferenceList>();
  /** Bumped on every change so caches (compiled queries with list contents) know when to drop. */
  version = 0;

  constructor(private readonly now: () => number) {}

  /** The demo data is generated on first use, anchored at the reset time, so starting a sandbox stays cheap. */
  /** `events`: how many events the realistic seed generates (its default size when not given). */
  reset(seed: SeedName, events?: number): void {
    this.sorted = [];
    this.pending = [];
    this.byName.clear();
    this.users = [];
    this.iocs.clear();
    this.lists.clear();
    this.idRng = createRng(0x1d5);
    this.idPrefix = this.idRng.hex(8);
    this.idCounter = 0;
    this.seed = seed;
    this.seedEvents = events;
    this.demoAnchor = seed === 'empty' ? undefined : this.now();
    this.version++;
  }

  private materialize(): void {
    if (this.demoAnchor === undefined) return;
    const anchor = this.demoAnchor;
    this.demoAnchor = undefined;
    const demo = seededData(this.seed, anchor, this.seedEvents);
    for (const e of demo.events) this.add({ t: e.t, name: e.name, udm: e.udm });
    this.users.push(...demo.users);
    for (const ioc of demo.iocs) this.iocs.set(iocKey(ioc.kind, ioc.value), ioc);
    // Lists can be edited, so each store gets its own copies of the shared demo lists.
    for (const l of demo.lists) this.lists.set(l.name, { ...l, lines: [...l.lines] });
  }

  private add(e: StoredEvent): void {
    this.pending.push(e);
    this.byName.set(e.name, e);
  }

  private settle(): StoredEvent[] {
    this.materialize();
    if (this.pending.length > 0) {
      const incoming = this.pending.sort((a, b) => a.t - b.t);
      this.pending = [];
      if (this.sorted.length === 0 || incoming[0].t >= this.sorted[this.sorted.length - 1].t) {
        for (const e of incoming) this.sorted.push(e);
      } else {
        const merged = new Array<StoredEvent>(this.sorted.length + incoming.length);
        let i = 0;
        let j = 0;
        let k = 0;
        while (i < this.sorted.length && j < incoming.length)
          merged[k++] = this.sorted[i].t <= incoming[j].t ? this.sorted[i++] : incoming[j++];
        while (i < this.sorted.length) merged[k++] = this.sorted[i++]!;
        while (j < incoming.length) merged[k++] = incoming[j++]!;
        this.sorted = merged;
      }
    }
    return this.sorted;
  }

  /** All events in time order. */
  all(): readonly StoredEvent[] {
    return this.settle();
  }

  /** Index range [lo, hi) of events with start <= t < end. */
  range(start: number, end: number): [number, number] {
    const events = this.settle();
    return [lowerBound(events, start), lowerBound(events, end)];
  }

  count(): number {
    this.materialize();
    return this.sorted.length + this.pending.length;
  }

  getByName(nameHex: string): StoredEvent | undefined {
    this.materialize();
    return this.byName.get(nameHex);
  }

  entitiesReady(): void {
    this.materialize();
  }

  /** Validates and stores events in the Search API's camelCase JSON; returns how many were added. */
  ingest(input: unknown): number {
    if (!Array.isArray(input))
      throw invalidArgument(
        '"events" must be an array of UDM events (camelCase JSON), or of {"udm":{...},"rawLog":"..."} objects.',
      );
    this.materialize();
    const ingestedAt = formatRfc3339(this.now());
    const prepared: StoredEvent[] = [];
    input.forEach((item, i) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        throw invalidArgument(`events[${i}] must be an object.`);
      const wrapped = 'udm' in item;
      const udm = (wrapped ? (item as { udm: unknown }).udm : item) as Udm;
      if (typeof udm !== 'object' || udm === null || Array.isArray(udm))
        throw invalidArgument(`events[${i}].udm must be an object.`);
      const rawLog = wrapped ? (item as { rawLog?: unknown }).rawLog : undefined;
      if (rawLog !== undefined && typeof rawLog !== 'string')
        throw invalidArgument(`events[${i}].rawLog must be a string.`);
      const md = udm.metadata as Record<string, unknown> | undefined;
      if (typeof md !== 'object' || md === null)
        throw invalidArgument(`events[${i}].metadata is required (with eventTimestamp and eventType).`);
      const ts = typeof md.eventTimestamp === 'string' ? parseRfc3339(md.eventTimestamp) : undefined;
      if (ts === undefined)
        throw invalidArgument(
          `events[${i}].metadata.eventTimestamp must be an RFC 3339 timestamp such as 2026-01-02T03:04:05Z, got ${JSON.stringify(md.eventTimestamp)}.`,
        );
      if (md.eventType !== undefined && (typeof md.eventType !== 'string' || !/^[A-Z0-9_]+$/.test(md.eventType))) {
        throw invalidArgument(
          `events[${i}].metadata.eventType must be an event type name such as NETWORK_DNS, got ${JSON.stringify(md.eventType)}.`,
        );
      }
      let name: string;
      if (md.id !== undefined) {
        if (typeof md.id !== 'string' || !isBase64(md.id))
          throw invalidArgument(
            `events[${i}].metadata.id must be base64 (it is bytes in the UDM), got ${JSON.stringify(md.id)}.`,
          );
        name = idHex(md.id);
      } else {
        // A per-reset random prefix and a counter: unique, deterministic, and cheap for bulk ingests.
        const hex = this.idPrefix + (this.idCounter++).toString(16).padStart(16, '0');
        md.id = Buffer.from(hex, 'hex').toString('base64');
        name = hex;
      }
      md.eventType ??= 'GENERIC_EVENT';
      md.ingestedTimestamp ??= ingestedAt;
      const e: StoredEvent = { t: ts, name, udm };
      if (typeof rawLog === 'string') e.rawLog = rawLog;
      prepared.push(e);
    });
    for (const e of prepared) this.add(e);
    this.version++;
    return prepared.length;
  }

  /** Reference lists in name order. */
  referenceLists(): ReferenceList[] {
    this.materialize();
    return [...this.lists.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  referenceList(name: string): ReferenceList | undefined {
    this.materialize();
    return this.lists.get(name);
  }

  /** Stores a new list (the caller has checked it); undefined when the name is taken. */
  createReferenceList(list: Omit<ReferenceList, 'createTime'>): ReferenceList | undefined {
    this.materialize();
    if (this.lists.has(list.name)) return undefined;
    const stored: ReferenceList = { ...list, lines: [...list.lines], createTime: this.now() };
    this.lists.set(stored.name, stored);
    this.version++;
    return stored;
  }

  /**
   * Replaces the given fields of a list. The time of the change becomes the list's createTime: the
   * legacy API keeps a revision per update and reports when the current one was made.
   */
  updateReferenceList(
    name: string,
    change: Partial<Pick<ReferenceList, 'description' | 'lines' | 'contentType'>>,
  ): ReferenceList | undefined {
    this.materialize();
    const old = this.lists.get(name);
    if (!old) return undefined;
    const next: ReferenceList = {
      ...old,
      ...change,
      lines: [...(change.lines ?? old.lines)],
      createTime: Math.max(this.now(), old.createTime + 1),
    };
    this.lists.set(name, next);
    this.version++;
    return next;
  }

  /** Adds users, IoCs and reference lists (admin entities:ingest). */
  ingestEntities(body: Record<string, unknown>): Record<string, number> {
    this.materialize();
    const out: Record<string, number> = {};
    for (const k of Object.keys(body))
      if (!['users', 'iocs', 'referenceLists'].includes(k))
        throw invalidArgument(`Unknown field "${k}"; expected users, iocs or referenceLists.`);
    const now = this.now();
    const list = (k: string): Record<string, unknown>[] => {
      const v = body[k];
      if (v === undefined) return [];
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x)))
        throw invalidArgument(`"${k}" must be an array of objects.`);
      return v as Record<string, unknown>[];
    };
    const str = (o: Record<string, unknown>, k: string, where: string, required = false): string | undefined => {
      const v = o[k];
      if (v === undefined && !required) return undefined;
      if (typeof v !== 'string' || v === '') throw invalidArgument(`${where}.${k} must be a non-empty string.`);
      return v;
    };
    const time = (o: Record<string, unknown>, k: string, where: string, def: number): number => {
      const v = o[k];
      if (v === undefined) return def;
      const t = typeof v === 'string' ? parseRfc3339(v) : undefined;
      if (t === undefined) throw invalidArgument(`${where}.${k} must be an RFC 3339 timestamp.`);
      return t;
    };
    const users = list('users').map((u, i): DirectoryUser => {
      const w = `users[${i}]`;
      const userid = str(u, 'userid', w, true)!;
      const emails = u.emailAddresses ?? [];
      const hosts = u.hosts ?? [];
      if (!Array.isArray(emails) || !emails.every((e) => typeof e === 'string'))
        throw invalidArgument(`${w}.emailAddresses must be an array of strings.`);
      if (!Array.isArray(hosts) || !hosts.every((e) => typeof e === 'string'))
        throw invalidArgument(`${w}.hosts must be an array of strings.`);
      return {
        userid,
        userDisplayName: str(u, 'userDisplayName', w) ?? userid,
        emailAddresses: emails,
        windowsSid: str(u, 'windowsSid', w) ?? '',
        employeeId: str(u, 'employeeId', w) ?? '',
        productObjectId: str(u, 'productObjectId', w) ?? '',
        title: str(u, 'title', w) ?? '',
        companyName: str(u, 'companyName', w) ?? '',
        hosts: hosts,
        startTime: time(u, 'startTime', w, now - 365 * 86_400_000),
        endTime: time(u, 'endTime', w, now + 365 * 86_400_000),
      };
    });
    const iocs = list('iocs').map((o, i): IocEntry => {
      const w = `iocs[${i}]`;
      const domain = str(o, 'domainName', w);
      const ip = str(o, 'destinationIpAddress', w);
      if ((domain === undefined) === (ip === undefined))
        throw invalidArgument(`${w} needs exactly one of domainName or destinationIpAddress.`);
      const confidence = o.confidence ?? 50;
      if (typeof confidence !== 'number' || confidence < 0 || confidence > 100)
        throw invalidArgument(`${w}.confidence must be a number 0-100.`);
      return {
        kind: domain !== undefined ? 'domain' : 'ip',
        value: (domain ?? ip)!.toLowerCase(),
        ingestTime: time(o, 'ingestTime', w, now),
        sources: [
          {
            source: str(o, 'source', w) ?? 'Sandbox feed',
            category: str(o, 'category', w) ?? 'Unknown',
            rawSeverity: str(o, 'severity', w) ?? 'Medium',
            confidence,
            sourceUrl: str(o, 'sourceUrl', w) ?? '',
            ports: [443],
            firstActiveTime: time(o, 'firstActiveTime', w, now),
            lastActiveTime: time(o, 'lastActiveTime', w, now),
          },
        ],
      };
    });
    const lists = list('referenceLists').map((o, i): ReferenceList => {
      const w = `referenceLists[${i}]`;
      const name = str(o, 'name', w, true)!;
      if (!/^[A-Za-z0-9_]{1,255}$/.test(name))
        throw invalidArgument(`${w}.name must be letters, digits and underscores.`);
      const lines = o.lines;
      if (!Array.isArray(lines) || !lines.every((l) => typeof l === 'string'))
        throw invalidArgument(`${w}.lines must be an array of strings.`);
      const contentType = o.contentType ?? 'CONTENT_TYPE_DEFAULT_STRING';
      if (contentType !== 'CONTENT_TYPE_DEFAULT_STRING' && contentType !== 'REGEX' && contentType !== 'CIDR')
        throw invalidArgument(`${w}.contentType must be CONTENT_TYPE_DEFAULT_STRING, REGEX or CIDR.`);
      return {
        name,
        description: str(o, 'description', w) ?? '',
        lines: lines,
        contentType,
        createTime: now,
      };
    });
    this.users.push(...users);
    for (const ioc of iocs) this.iocs.set(iocKey(ioc.kind, ioc.value), ioc);
    for (const l of lists) this.lists.set(l.name, l);
    out.users = users.length;
    out.iocs = iocs.length;
    out.referenceLists = lists.length;
    this.version++;
    return out;
  }
}

/**
 * Demo data is anchored at the reset time rounded down to five minutes, and the last generation is
 * kept: every sandbox a test run starts within those minutes shares it instead of generating 50,000
 * events again. Sharing is safe because stored events and entities are never modified.
 */
const DEMO_ANCHOR_STEP_MS = 5 * 60_000;
let lastDemo: { anchor: number; seed: SeedName; events: number | undefined; data: DemoData } | undefined;

function seededData(seed: SeedName, resetTime: number, events: number | undefined): DemoData {
  const anchor = Math.floor(resetTime / DEMO_ANCHOR_STEP_MS) * DEMO_ANCHOR_STEP_MS;
  if (lastDemo?.anchor !== anchor || lastDemo.seed !== seed || lastDemo.events !== events)
    lastDemo = {
      anchor,
      seed,
      events,
      data: seed === 'realistic' ? generateRealistic(anchor, events) : generateDemo(anchor),
    };
  return lastDemo.data;
}

export function iocKey(kind: 'domain' | 'ip', value: string): string {
  return `${kind}:${value.toLowerCase()}`;
}

function lowerBound(events: readonly StoredEvent[], t: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid].t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function isBase64(text: string): boolean {
  return text.length > 0 && text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

export function idHex(base64: string): string {
  return Buffer.from(base64, 'base64').toString('hex');
}
