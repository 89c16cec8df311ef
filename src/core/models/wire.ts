// Encoding and decoding of the Model Registry messages with the shared compact descriptor
// (src/core/proto, generated from the official protos), plus proto3 JSON for detail views and
// import files. Loading costs one small JSON parse instead of megabytes of proto text.
import * as protobuf from 'protobufjs/light';
import { listFields, messageType } from '../proto';

export function lookupType(fullName: string): protobuf.Type {
  return messageType(fullName);
}

/**
 * The plain-object shape the client hands out: camelCase fields, int64 as strings, enums as names,
 * unset scalars and messages absent (not defaulted), so "not set" stays visible in detail views.
 * Empty repeated and map fields are absent too (the types declare them optional): filling `[]` and
 * `{}` into every message of a 10,000-model listing cost more than the rest of the decoding.
 */
const TO_OBJECT: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  bytes: String,
  oneofs: true,
};

export function encodeMessage(typeName: string, value: object): Buffer {
  const type = lookupType(typeName);
  return Buffer.from(type.encode(type.fromObject(value as Record<string, unknown>)).finish());
}

export function decodeMessage<T>(typeName: string, bytes: Uint8Array): T {
  const type = lookupType(typeName);
  return type.toObject(type.decode(bytes), TO_OBJECT) as T;
}

/**
 * A list response, read once for its `next_page_token` and for where each item's bytes are, so the
 * next page can be asked for before any item is decoded. Items are decoded when asked for: all at
 * once through `items`, or one at a time through `itemsOneByOne()`, which is what a consumer that
 * handles items as they come wants: it then holds one decoded item instead of a page of them, and
 * the garbage collector has no page of young objects to copy and promote (for 1,000 models a page,
 * most of the cost of listing). Each item is the object `decodeMessage` gives for the whole answer.
 */
export class ListPageBytes<T> {
  readonly nextPageToken: string | undefined;
  /** Offset and length of each item's bytes, in pairs. */
  private readonly spans: number[] = [];
  private readonly reader: protobuf.Reader;
  private readonly itemType: protobuf.Type;
  private decoded: T[] | undefined;

  constructor(typeName: string, itemsField: string, bytes: Uint8Array) {
    const { itemsId, tokenId, itemType } = listFields(typeName, itemsField);
    this.itemType = itemType;
    const reader = protobuf.Reader.create(bytes);
    let token = '';
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      const wireType = tag & 7;
      // Fields may come in any order; as in any proto3 decoder, a repeated token's last value wins.
      if (wireType === 2 && tag >>> 3 === itemsId) {
        const length = reader.uint32();
        this.spans.push(reader.pos, length);
        reader.skip(length);
      } else if (wireType === 2 && tag >>> 3 === tokenId) token = reader.string();
      else reader.skipType(wireType);
    }
    this.reader = reader;
    this.nextPageToken = token || undefined;
  }

  get length(): number {
    return this.spans.length / 2;
  }

  /** Item `index`, decoded now. */
  item(index: number): T {
    const type = this.itemType;
    this.reader.pos = this.spans[2 * index]!;
    return type.toObject(type.decode(this.reader, this.spans[2 * index + 1]), TO_OBJECT) as T;
  }

  get items(): T[] {
    return (this.decoded ??= Array.from({ length: this.length }, (_, i) => this.item(i)));
  }

  *itemsOneByOne(): Generator<T, void, undefined> {
    if (this.decoded) return yield* this.decoded;
    for (let i = 0; i < this.length; i++) yield this.item(i);
  }
}

/** A google.protobuf.Any as protobufjs hands it out before unpacking. */
export interface AnyMessage {
  /** protobufjs keeps the proto spelling for Any (its Any wrapper relies on it). */
  type_url?: string;
  value?: string | Uint8Array;
}

export function typeNameOfUrl(typeUrl: string): string {
  return typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
}

/** Unpacks an Any whose type is in the descriptor; undefined for unknown types. */
export function unpackAny<T>(any: AnyMessage | null | undefined): T | undefined {
  if (!any?.type_url) return undefined;
  const name = typeNameOfUrl(any.type_url);
  let type: protobuf.Type;
  try {
    type = lookupType(name);
  } catch {
    return undefined;
  }
  const bytes = typeof any.value === 'string' ? Buffer.from(any.value, 'base64') : (any.value ?? new Uint8Array());
  return type.toObject(type.decode(bytes), TO_OBJECT) as T;
}

export function packAny(typeName: string, value: object): AnyMessage {
  return { type_url: `type.googleapis.com/${typeName}`, value: encodeMessage(typeName, value) };
}

// ---------------------------------------------------------------------------------------------
// Proto3 JSON: what users read in detail views and write in import files.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A proto3 JSON problem in user input, with the path to the offending value. */
export class ProtoJsonError extends Error {
  override readonly name = 'ProtoJsonError';
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path || '(top level)'}: ${problem}`);
  }
}

function timestampToJson(v: { seconds?: string | number; nanos?: number }): string {
  const ms = Number(v.seconds ?? 0) * 1000 + Math.floor((v.nanos ?? 0) / 1e6);
  return new Date(ms).toISOString();
}

function valueToJson(v: Record<string, unknown> | null | undefined): Json {
  if (!v) return null;
  if ('nullValue' in v && v['nullValue'] !== undefined) return null;
  if ('numberValue' in v && v['numberValue'] !== undefined) return v['numberValue'] as number;
  if ('stringValue' in v && v['stringValue'] !== undefined) return v['stringValue'] as string;
  if ('boolValue' in v && v['boolValue'] !== undefined) return v['boolValue'] as boolean;
  if ('structValue' in v && v['structValue']) return structToJson(v['structValue'] as Record<string, unknown>);
  if ('listValue' in v && v['listValue'])
    return (((v['listValue'] as { values?: unknown[] }).values ?? []) as Record<string, unknown>[]).map(valueToJson);
  return null;
}

function structToJson(s: Record<string, unknown>): Json {
  const out: Record<string, Json> = {};
  for (const [k, val] of Object.entries((s['fields'] as Record<string, unknown>) ?? {}))
    out[k] = valueToJson(val as Record<string, unknown>);
  return out;
}

const WRAPPERS = new Set([
  'google.protobuf.BoolValue',
  'google.protobuf.StringValue',
  'google.protobuf.Int32Value',
  'google.protobuf.Int64Value',
  'google.protobuf.UInt32Value',
  'google.protobuf.UInt64Value',
  'google.protobuf.FloatValue',
  'google.protobuf.DoubleValue',
  'google.protobuf.BytesValue',
]);

function fullNameOf(type: protobuf.Type): string {
  return type.fullName.replace(/^\./, '');
}

/** Converts a decoded message (plain object) into canonical proto3 JSON. */
export function toProto3Json(typeName: string, value: unknown): Json {
  return messageToJson(lookupType(typeName), value);
}

function messageToJson(type: protobuf.Type, value: unknown): Json {
  if (value === null || value === undefined) return null;
  const name = fullNameOf(type);
  const obj = value as Record<string, unknown>;
  switch (name) {
    case 'google.protobuf.Timestamp':
      return timestampToJson(obj);
    case 'google.protobuf.Duration': {
      const seconds = Number(obj['seconds'] ?? 0) + Number(obj['nanos'] ?? 0) / 1e9;
      return `${seconds}s`;
    }
    case 'google.protobuf.Value':
      return valueToJson(obj);
    case 'google.protobuf.Struct':
      return structToJson(obj);
    case 'google.protobuf.ListValue':
      return ((obj['values'] as Record<string, unknown>[]) ?? []).map(valueToJson);
    case 'google.protobuf.FieldMask':
      return ((obj['paths'] as string[]) ?? []).join(',');
    case 'google.protobuf.Empty':
      return {};
    case 'google.protobuf.Any': {
      const any = obj as AnyMessage;
      const inner = unpackAny<Record<string, unknown>>(any);
      if (!any.type_url) return {};
      if (inner === undefined) return { '@type': any.type_url };
      const innerType = lookupType(typeNameOfUrl(any.type_url));
      const json = messageToJson(innerType, inner);
      if (json !== null && typeof json === 'object' && !Array.isArray(json) && !isWellKnown(fullNameOf(innerType)))
        return { '@type': any.type_url, ...json };
      return { '@type': any.type_url, value: json };
    }
  }
  if (WRAPPERS.has(name)) return (obj['value'] ?? null) as Json;
  const out: Record<string, Json> = {};
  for (const field of type.fieldsArray) {
    const v = obj[field.name];
    if (v === undefined || v === null) continue;
    field.resolve();
    const conv = (x: unknown): Json =>
      field.resolvedType instanceof protobuf.Type ? messageToJson(field.resolvedType, x) : (x as Json);
    if (field.map) {
      const m: Record<string, Json> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) m[k] = conv(x);
      if (Object.keys(m).length) out[field.name] = m;
    } else if (field.repeated) {
      const arr = (v as unknown[]).map(conv);
      if (arr.length) out[field.name] = arr;
    } else {
      out[field.name] = conv(v);
    }
  }
  return out;
}

function isWellKnown(name: string): boolean {
  return name.startsWith('google.protobuf.');
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

function jsonToValue(v: unknown): Record<string, unknown> {
  if (v === null) return { nullValue: 'NULL_VALUE' };
  if (typeof v === 'number') return { numberValue: v };
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(jsonToValue) } };
  return { structValue: jsonToStruct(v as Record<string, unknown>) };
}

function jsonToStruct(v: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) fields[k] = jsonToValue(x);
  return { fields };
}

const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const INT32 = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);

function scalarFromJson(fieldType: string, v: unknown, path: string): unknown {
  if (fieldType === 'string') {
    if (typeof v !== 'string') throw new ProtoJsonError(path, `expected a string, got ${describe(v)}`);
    return v;
  }
  if (fieldType === 'bool') {
    if (typeof v !== 'boolean') throw new ProtoJsonError(path, `expected true or false, got ${describe(v)}`);
    return v;
  }
  if (fieldType === 'double' || fieldType === 'float') {
    if (typeof v === 'number') return v;
    if (typeof v === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(v)) return Number(v);
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    throw new ProtoJsonError(path, `expected a number, got ${describe(v)}`);
  }
  if (INT32.has(fieldType) || INT64.has(fieldType)) {
    const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n))
      throw new ProtoJsonError(path, `expected an integer, got ${describe(v)}`);
    if (fieldType.startsWith('u') && n < 0) throw new ProtoJsonError(path, `expected a non-negative integer, got ${n}`);
    return INT64.has(fieldType) ? String(v) : n;
  }
  if (fieldType === 'bytes') {
    if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v))
      throw new ProtoJsonError(path, `expected base64 text, got ${describe(v)}`);
    return v;
  }
  throw new ProtoJsonError(path, `unsupported field type ${fieldType}`);
}

function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Parses proto3 JSON (camelCase or snake_case keys) into the plain-object form encodeMessage takes,
 * refusing unknown fields and wrong types with the path of the offending value. Fields the server
 * fills in (OUTPUT_ONLY) are accepted as the proto allows; the server ignores them.
 */
export function fromProto3Json(typeName: string, json: unknown, path = ''): Record<string, unknown> {
  return messageFromJson(lookupType(typeName), json, path) as Record<string, unknown>;
}

function messageFromJson(type: protobuf.Type, json: unknown, path: string): unknown {
  const name = fullNameOf(type);
  switch (name) {
    case 'google.protobuf.Value':
      return jsonToValue(json);
    case 'google.protobuf.Struct':
      if (json === null || typeof json !== 'object' || Array.isArray(json))
        throw new ProtoJsonError(path, `expected an object, got ${describe(json)}`);
      return jsonToStruct(json as Record<string, unknown>);
    case 'google.protobuf.ListValue':
      if (!Array.isArray(json)) throw new ProtoJsonError(path, `expected an array, got ${describe(json)}`);
      return { values: json.map(jsonToValue) };
    case 'google.protobuf.Timestamp': {
      const ms = typeof json === 'string' ? Date.parse(json) : NaN;
      if (!Number.isFinite(ms))
        throw new ProtoJsonError(
          path,
          `expected an RFC 3339 timestamp such as "2024-01-31T12:00:00Z", got ${describe(json)}`,
        );
      return { seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 };
    }
    case 'google.protobuf.Duration': {
      const m = typeof json === 'string' ? json.match(/^(-?\d+)(?:\.(\d{1,9}))?s$/) : null;
      if (!m) throw new ProtoJsonError(path, `expected a duration such as "3.5s", got ${describe(json)}`);
      return { seconds: m[1], nanos: Number((m[2] ?? '').padEnd(9, '0')) };
    }
    case 'google.protobuf.FieldMask':
      if (typeof json !== 'string')
        throw new ProtoJsonError(path, `expected a comma-separated field list, got ${describe(json)}`);
      return { paths: json === '' ? [] : json.split(',') };
    case 'google.protobuf.Any': {
      const obj = json as Record<string, unknown> | null;
      if (!obj || typeof obj !== 'object' || typeof obj['@type'] !== 'string')
        throw new ProtoJsonError(path, 'expected an object with "@type"');
      const innerName = typeNameOfUrl(obj['@type']);
      let inner: protobuf.Type;
      try {
        inner = lookupType(innerName);
      } catch {
        throw new ProtoJsonError(`${path}.@type`, `unknown type ${obj['@type']}`);
      }
      const { ['@type']: _t, ...rest } = obj;
      const body = isWellKnown(innerName)
        ? messageFromJson(inner, rest['value'], `${path}.value`)
        : messageFromJson(inner, rest, path);
      return {
        type_url: obj['@type'],
        value: Buffer.from(inner.encode(inner.fromObject(body as Record<string, unknown>)).finish()),
      };
    }
  }
  if (WRAPPERS.has(name)) {
    const field = type.fields['value'];
    return { value: scalarFromJson(field.type, json, path) };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new ProtoJsonError(path, `expected an object, got ${describe(json)}`);
  const out: Record<string, unknown> = {};
  const seenOneofs = new Map<string, string>();
  for (const [key, raw] of Object.entries(json as Record<string, unknown>)) {
    const fieldName = type.fields[key] ? key : snakeToCamel(key);
    const field = type.fields[fieldName];
    const at = path ? `${path}.${key}` : key;
    if (!field) {
      const known = type.fieldsArray.map((f) => f.name).join(', ');
      throw new ProtoJsonError(at, `unknown field for ${type.name}; known fields: ${known}`);
    }
    if (raw === null && fullNameOf(type) !== 'google.protobuf.Value') continue;
    if (field.partOf) {
      const other = seenOneofs.get(field.partOf.name);
      if (other)
        throw new ProtoJsonError(
          at,
          `only one of ${field.partOf.oneof.join(', ')} may be set, but ${other} is set too`,
        );
      seenOneofs.set(field.partOf.name, key);
    }
    field.resolve();
    const conv = (x: unknown, p: string): unknown => {
      if (field.resolvedType instanceof protobuf.Type) return messageFromJson(field.resolvedType, x, p);
      if (field.resolvedType instanceof protobuf.Enum) {
        const values = field.resolvedType.values;
        if (typeof x === 'string' && x in values) return x;
        if (typeof x === 'number' && Object.values(values).includes(x)) return x;
        throw new ProtoJsonError(p, `expected one of ${Object.keys(values).join(', ')}, got ${describe(x)}`);
      }
      return scalarFromJson(field.type, x, p);
    };
    if (field.map) {
      if (typeof raw !== 'object' || Array.isArray(raw))
        throw new ProtoJsonError(at, `expected an object (a map), got ${describe(raw)}`);
      const m: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(raw as Record<string, unknown>)) m[k] = conv(x, `${at}.${k}`);
      out[field.name] = m;
    } else if (field.repeated) {
      if (!Array.isArray(raw)) throw new ProtoJsonError(at, `expected an array, got ${describe(raw)}`);
      out[field.name] = raw.map((x, i) => conv(x, `${at}[${i}]`));
    } else {
      out[field.name] = conv(raw, at);
    }
  }
  return out;
}
