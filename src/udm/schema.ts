import { ENUMS, MESSAGES, ROOT_MESSAGE } from './generated/schema';

export type ValueKind =
  'string' | 'number' | 'bool' | 'bytes' | 'enum' | 'timestamp' | 'duration' | 'message' | 'struct' | 'map' | 'unknown';

export interface FieldInfo {
  /** snake_case, as written in queries */
  name: string;
  /** lowerCamelCase, as in the API's JSON */
  jsonName: string;
  number: number;
  /** generated type string: scalar name, 'timestamp', 'm:Message', 'e:Enum', 'map:<value>' ... */
  type: string;
  repeated: boolean;
  deprecated: boolean;
  /** in Google's UDM field list (and Google's public rules) but not in the public proto */
  beyondProto: boolean;
  /** message that declares the field */
  owner: string;
}

const SCALAR_KIND: Record<string, ValueKind> = {
  string: 'string',
  bytes: 'bytes',
  bool: 'bool',
  int32: 'number',
  int64: 'number',
  uint32: 'number',
  uint64: 'number',
  sint32: 'number',
  sint64: 'number',
  fixed32: 'number',
  fixed64: 'number',
  sfixed32: 'number',
  sfixed64: 'number',
  double: 'number',
  float: 'number',
  timestamp: 'timestamp',
  duration: 'duration',
  struct: 'struct',
  unknown: 'unknown',
};

export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function camelToSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

type RawField = readonly [name: string, number: number, type: string, flags: number];

/** A well-known message's fields from `name: type, ...`, numbered in order as their protos number them. */
const wellKnown = (fields: string): readonly RawField[] =>
  fields.split(', ').map((f, i): RawField => {
    const [name, type] = f.split(': ');
    return [name, i + 1, type, 0];
  });

/** Pseudo-messages for the well-known types so `.seconds` and friends resolve like fields. */
const WELL_KNOWN_FIELDS: Record<string, readonly RawField[]> = {
  timestamp: wellKnown('seconds: int64, nanos: int32'),
  duration: wellKnown('seconds: int64, nanos: int32'),
  interval: wellKnown('start_time: timestamp, end_time: timestamp'),
  latlng: wellKnown('latitude: double, longitude: double'),
  date: wellKnown('year: int32, month: int32, day: int32'),
};

/** Bounded by the schema: only messages and well-known types it has are cached. */
const fieldCache = new Map<string, Map<string, FieldInfo>>();

/** Fields of a message (or of a well-known type that has sub-fields), keyed by snake_case name. */
export function fieldsOf(typeOrMessage: string): Map<string, FieldInfo> | undefined {
  const cached = fieldCache.get(typeOrMessage);
  if (cached) return cached;
  let owner: string;
  let raw: readonly RawField[] | undefined;
  if (typeOrMessage.startsWith('m:')) {
    owner = typeOrMessage.slice(2);
    raw = MESSAGES[owner];
  } else if (WELL_KNOWN_FIELDS[typeOrMessage]) {
    owner = typeOrMessage;
    raw = WELL_KNOWN_FIELDS[typeOrMessage];
  } else {
    owner = typeOrMessage;
    raw = MESSAGES[typeOrMessage];
  }
  if (!raw) return undefined;
  const map = new Map<string, FieldInfo>();
  for (const [name, number, type, flags] of raw) {
    map.set(name, {
      name,
      jsonName: snakeToCamel(name),
      number,
      type,
      repeated: (flags & 1) !== 0,
      deprecated: (flags & 2) !== 0,
      beyondProto: (flags & 4) !== 0,
      owner,
    });
  }
  fieldCache.set(typeOrMessage, map);
  return map;
}

export function rootFields(): Map<string, FieldInfo> {
  return fieldsOf(ROOT_MESSAGE)!;
}

export function valueKind(type: string): ValueKind {
  if (type.startsWith('m:')) return 'message';
  if (type.startsWith('e:')) return 'enum';
  if (type.startsWith('map:')) return 'map';
  if (type === 'interval' || type === 'latlng' || type === 'date') return 'message';
  return SCALAR_KIND[type] ?? 'unknown';
}

/** Sub-fields reachable with a further `.segment` from a value of this type, if any. */
export function childFields(type: string): Map<string, FieldInfo> | undefined {
  if (type.startsWith('m:') || WELL_KNOWN_FIELDS[type]) return fieldsOf(type);
  return undefined;
}

export function enumName(type: string): string | undefined {
  return type.startsWith('e:') ? type.slice(2) : undefined;
}

export function enumValues(enumFullName: string): readonly (readonly [string, number])[] {
  return ENUMS[enumFullName] ?? [];
}

/** Bounded by the schema: only enums it has are cached. */
const enumNameSets = new Map<string, Set<string>>();
export function enumHas(enumFullName: string, value: string): boolean {
  let set = enumNameSets.get(enumFullName);
  if (!set) {
    const values = ENUMS[enumFullName];
    if (!values) return false;
    set = new Set(values.map(([n]) => n));
    enumNameSets.set(enumFullName, set);
  }
  return set.has(value);
}

/** Human readable type, e.g. `repeated string`, `enum Metadata.EventType`, `Noun`. */
export function describeType(field: Pick<FieldInfo, 'type' | 'repeated'>): string {
  const t = field.type;
  let base: string;
  if (t.startsWith('m:')) base = t.slice(2);
  else if (t.startsWith('e:')) base = `enum ${t.slice(2)}`;
  else if (t.startsWith('map:')) base = `map<string, ${t.slice(4).replace(/^m:|^e:/, '')}>`;
  else if (t === 'timestamp') base = 'timestamp';
  else if (t === 'struct') base = 'struct (google.protobuf.Struct)';
  else base = t;
  return field.repeated && !t.startsWith('map:') ? `repeated ${base}` : base;
}

export interface ResolvedPath {
  /** one entry per resolved segment */
  fields: FieldInfo[];
  /** index of the first segment that did not resolve, or -1 */
  errorIndex: number;
  /** the type whose fields the failing segment was looked up in */
  errorParentType?: string;
  /** true when a segment below a Struct/map was reached (free-form keys) */
  freeForm: boolean;
}

/** Resolves snake_case segments from the event root. A leading `udm` segment is allowed. */
export function resolvePath(segments: readonly string[]): ResolvedPath {
  const fields: FieldInfo[] = [];
  let type = `m:${ROOT_MESSAGE}`;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const kind = valueKind(type);
    if (kind === 'struct' || kind === 'map' || kind === 'unknown') return { fields, errorIndex: -1, freeForm: true };
    const children = childFields(type);
    const f = children?.get(seg);
    if (!f) return { fields, errorIndex: i, errorParentType: type, freeForm: false };
    fields.push(f);
    type = f.type;
  }
  return { fields, errorIndex: -1, freeForm: false };
}

export function typeLabel(type: string): string {
  if (type.startsWith('m:') || type.startsWith('e:')) return type.slice(2);
  return type;
}

/** Optimal string alignment distance, bounded for speed. */
export function editDistance(a: string, b: string, max = 4): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = a.length;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

/** Closest candidates for a misspelt name, best first. */
export function suggest(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = name.toLowerCase();
  const max = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  const scored: [string, number][] = [];
  for (const c of candidates) {
    const cl = c.toLowerCase();
    let d = editDistance(lower, cl, max);
    if (d > max && cl.length > 3 && (cl.startsWith(lower) || lower.startsWith(cl))) d = max;
    if (d <= max) scored.push([c, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  return scored.slice(0, limit).map(([c]) => c);
}

/**
 * Where a segment that is not a field of `parentType` is a field one or two messages further down:
 * the inserted segments plus `rest` (the segments after it, which must resolve there), shortest
 * first. `network.tls` + `certificate` + [`not_after`] gives `server.certificate.not_after` and
 * `client.certificate.not_after`: Google's pages sometimes write such a shorter path.
 */
export function pathsThroughChild(parentType: string, name: string, rest: readonly string[]): string[][] {
  const found: string[][] = [];
  let frontier: Array<{ type: string; via: string[] }> = [{ type: parentType, via: [] }];
  for (let depth = 0; depth < 2 && found.length === 0; depth++) {
    const next: Array<{ type: string; via: string[] }> = [];
    for (const { type, via } of frontier) {
      for (const f of childFields(type)?.values() ?? []) {
        if (!f.type.startsWith('m:')) continue;
        const path = [...via, f.name];
        const inner = childFields(f.type)?.get(name);
        if (inner && resolvesFrom(inner.type, rest)) found.push([...path, name, ...rest]);
        next.push({ type: f.type, via: path });
      }
    }
    frontier = next;
  }
  return found;
}

function resolvesFrom(type: string, rest: readonly string[]): boolean {
  let t = type;
  for (const seg of rest) {
    const f = childFields(t)?.get(seg);
    if (!f) return false;
    t = f.type;
  }
  return true;
}
