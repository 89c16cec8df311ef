// Resource names of the three services, parsed and formatted exactly. Every refusal says what is
// wrong, because these strings come from users, settings and servers alike.

export class ResourceNameError extends Error {
  override readonly name = 'ResourceNameError';
  constructor(
    readonly input: string,
    reason: string,
  ) {
    super(`Invalid resource name "${input}": ${reason}`);
  }
}

export interface LocationName {
  project: string;
  location: string;
}
export interface ModelName extends LocationName {
  model: string;
}
/** A model with an optional `@version_id` or `@alias`; `version` is undefined for the bare model. */
export interface ModelVersionName extends ModelName {
  version?: string | undefined;
}
export interface EvaluationName extends ModelName {
  evaluation: string;
}
export interface SliceName extends EvaluationName {
  slice: string;
}
export interface EndpointName extends LocationName {
  endpoint: string;
}
export interface KeyName {
  project: string;
  key: string;
}
export type OperationName =
  { kind: 'resource'; parent: string; operation: string } | { kind: 'global'; operation: string };

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;
const LOCATION = /^[a-z][a-z0-9-]*$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** API key ids: RFC-1034 label, lower case, at most 63 characters (reference B.1); server-assigned ids are UUIDs. */
const KEY_ID = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function split(input: string, expected: number, what: string): string[] {
  if (typeof input !== 'string') throw new ResourceNameError(String(input), 'not a string');
  if (input.trim() !== input || input === '')
    throw new ResourceNameError(input, input === '' ? 'empty' : 'leading or trailing spaces');
  if (input.startsWith('/') || input.endsWith('/')) throw new ResourceNameError(input, 'leading or trailing "/"');
  const parts = input.split('/');
  if (parts.some((p) => p === '')) throw new ResourceNameError(input, 'an empty segment ("//")');
  if (parts.length !== expected) {
    throw new ResourceNameError(
      input,
      `expected ${expected / 2} collection/id pairs for ${what}, found ${parts.length} segments`,
    );
  }
  return parts;
}

function expectCollection(input: string, parts: string[], index: number, collection: string): void {
  if (parts[index] !== collection) {
    throw new ResourceNameError(input, `segment ${index + 1} must be "${collection}", found "${parts[index]}"`);
  }
}

function expectId(input: string, value: string, what: string, pattern = SEGMENT): string {
  if (value.includes('@')) throw new ResourceNameError(input, `the ${what} id "${value}" contains "@"`);
  if (!pattern.test(value))
    throw new ResourceNameError(input, `the ${what} id "${value}" has characters that are not allowed`);
  return value;
}

/** Longest location id: a regional host puts it in one DNS label (`<location>-aiplatform`). */
const MAX_LOCATION_LENGTH = 50;

/**
 * True for a location id of the seed's grammar (`[a-z][a-z0-9-]*`, e.g. us-central1, global). Hosts
 * are built from location ids (`${location}-aiplatform.${universe}`), so one read from a response
 * must pass this before it becomes part of a host or a path.
 */
export function isLocationId(value: string): boolean {
  return value.length <= MAX_LOCATION_LENGTH && LOCATION.test(value);
}

/** `value` when it is a location id; else a ResourceNameError that says no host is built from it. */
export function checkLocationId(value: string, input = value): string {
  if (!isLocationId(value))
    throw new ResourceNameError(
      input,
      `the location "${value}" is not a location id such as us-central1 (lower-case letters, digits and hyphens, starting with a letter), so no host is built from it`,
    );
  return value;
}

function parseLocationParts(input: string, parts: string[]): LocationName {
  expectCollection(input, parts, 0, 'projects');
  expectCollection(input, parts, 2, 'locations');
  const project = expectId(input, parts[1], 'project');
  const location = parts[3];
  if (!isLocationId(location))
    throw new ResourceNameError(input, `the location "${location}" is not a location id such as us-central1`);
  return { project, location };
}

export function parseLocationName(input: string): LocationName {
  return parseLocationParts(input, split(input, 4, 'a location'));
}

export function formatLocationName(n: LocationName): string {
  return `projects/${n.project}/locations/${n.location}`;
}

function splitVersion(input: string, modelSegment: string): { model: string; version?: string } {
  const at = modelSegment.indexOf('@');
  if (at < 0) return { model: expectId(input, modelSegment, 'model') };
  if (modelSegment.indexOf('@', at + 1) >= 0)
    throw new ResourceNameError(input, 'more than one "@" in the model segment');
  const model = modelSegment.slice(0, at);
  const version = modelSegment.slice(at + 1);
  if (model === '') throw new ResourceNameError(input, 'the model id before "@" is empty');
  if (version === '') throw new ResourceNameError(input, 'the version id or alias after "@" is empty');
  if (!VERSION.test(version) && version !== '-')
    throw new ResourceNameError(input, `the version "${version}" is neither a version id nor an alias`);
  return { model: expectId(input, model, 'model'), version };
}

/** A model name without a version. */
export function parseModelName(input: string): ModelName {
  const n = parseModelVersionName(input);
  if (n.version !== undefined)
    throw new ResourceNameError(input, `a model name takes no version, found "@${n.version}"`);
  return { project: n.project, location: n.location, model: n.model };
}

/** A model name with an optional `@version_id` or `@alias`. */
export function parseModelVersionName(input: string): ModelVersionName {
  const parts = split(input, 6, 'a model');
  const loc = parseLocationParts(input, parts);
  expectCollection(input, parts, 4, 'models');
  const { model, version } = splitVersion(input, parts[5]);
  return { ...loc, model, version };
}

/** A model name that must carry an explicit version (DeleteModelVersion). */
export function parseExplicitVersionName(input: string): Required<ModelVersionName> {
  const n = parseModelVersionName(input);
  if (n.version === undefined) throw new ResourceNameError(input, 'an explicit "@version" is required here');
  return n as Required<ModelVersionName>;
}

export function formatModelName(n: ModelName & { version?: string | undefined }): string {
  const base = `${formatLocationName(n)}/models/${n.model}`;
  return n.version !== undefined ? `${base}@${n.version}` : base;
}

/**
 * A name under a location: `projects/P/locations/L` then each `collection/id` pair in order. Every
 * collection word is checked before any id, as the single-resource parsers do.
 */
function parseUnderLocation<K extends string>(
  input: string,
  what: string,
  segments: ReadonlyArray<readonly [collection: string, id: K]>,
): LocationName & Record<K, string> {
  const parts = split(input, 4 + 2 * segments.length, what);
  const loc = parseLocationParts(input, parts);
  segments.forEach(([collection], i) => expectCollection(input, parts, 4 + 2 * i, collection));
  const ids = {} as Record<K, string>;
  segments.forEach(([, id], i) => (ids[id] = expectId(input, parts[5 + 2 * i], id)));
  return { ...loc, ...ids };
}

export function parseEvaluationName(input: string): EvaluationName {
  return parseUnderLocation(input, 'an evaluation', [
    ['models', 'model'],
    ['evaluations', 'evaluation'],
  ]);
}

export function formatEvaluationName(n: EvaluationName): string {
  return `${formatModelName(n)}/evaluations/${n.evaluation}`;
}

export function parseSliceName(input: string): SliceName {
  return parseUnderLocation(input, 'an evaluation slice', [
    ['models', 'model'],
    ['evaluations', 'evaluation'],
    ['slices', 'slice'],
  ]);
}

export function formatSliceName(n: SliceName): string {
  return `${formatEvaluationName(n)}/slices/${n.slice}`;
}

export function parseEndpointName(input: string): EndpointName {
  return parseUnderLocation(input, 'an endpoint', [['endpoints', 'endpoint']]);
}

export function formatEndpointName(n: EndpointName): string {
  return `${formatLocationName(n)}/endpoints/${n.endpoint}`;
}

/** API keys live only in the location "global". */
export function parseKeyName(input: string): KeyName {
  const parts = split(input, 6, 'an API key');
  expectCollection(input, parts, 0, 'projects');
  expectCollection(input, parts, 2, 'locations');
  expectCollection(input, parts, 4, 'keys');
  const project = expectId(input, parts[1], 'project');
  if (parts[3] !== 'global')
    throw new ResourceNameError(input, `API keys exist only in location "global", not "${parts[3]}"`);
  return { project, key: expectId(input, parts[5], 'key', KEY_ID) };
}

export function formatKeyName(n: KeyName): string {
  return `projects/${n.project}/locations/global/keys/${n.key}`;
}

/** Checks a key id a user types for Create Key, with the reason it is refused. */
export function checkKeyId(id: string): string | undefined {
  if (id === '') return 'The key id is empty.';
  if (id.length > 63) return 'The key id has more than 63 characters.';
  if (!/^[a-z]/.test(id)) return 'The key id must start with a lower-case letter.';
  if (!/^[a-z]([a-z0-9-]*[a-z0-9])?$/.test(id))
    return 'The key id may hold only lower-case letters, digits and "-", and must not end with "-".';
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id))
    return 'The key id must not look like a UUID.';
  return undefined;
}

/**
 * Operation names: Vertex nests them under a resource (`projects/…/locations/…[/models/…]/operations/ID`),
 * API Keys uses the global form `operations/ID`.
 */
export function parseOperationName(input: string): OperationName {
  if (typeof input !== 'string' || input === '') throw new ResourceNameError(String(input), 'empty');
  const parts = input.split('/');
  if (parts.some((p) => p === '')) throw new ResourceNameError(input, 'an empty segment ("//")');
  if (parts.length === 2) {
    if (parts[0] !== 'operations') throw new ResourceNameError(input, 'segment 1 must be "operations"');
    return { kind: 'global', operation: expectId(input, parts[1], 'operation') };
  }
  if (parts.length < 6 || parts.length % 2 !== 0)
    throw new ResourceNameError(input, 'expected projects/P/locations/L/…/operations/ID or operations/ID');
  if (parts[parts.length - 2] !== 'operations')
    throw new ResourceNameError(input, 'the next-to-last segment must be "operations"');
  parseLocationParts(input, parts.slice(0, 4));
  const parent = parts.slice(0, -2).join('/');
  for (let i = 4; i < parts.length - 2; i += 2) {
    if (!['models', 'evaluations', 'slices', 'endpoints'].includes(parts[i])) {
      throw new ResourceNameError(input, `"${parts[i]}" is not a collection that has operations`);
    }
    expectId(input, parts[i + 1], parts[i].replace(/s$/, ''));
  }
  return { kind: 'resource', parent, operation: expectId(input, parts[parts.length - 1], 'operation') };
}

export function formatOperationName(n: OperationName): string {
  return n.kind === 'global' ? `operations/${n.operation}` : `${n.parent}/operations/${n.operation}`;
}

/** Short label for a name: its last id (with version). */
export function shortName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}
