// Rule test files: `<rule>.test.yaml` beside `<rule>.yaral`, named cases each with events (inline
// UDM or a file beside it), an optional time range, optional reference lists and an expectation.
// The file is read with the `yaml` package and checked against the published JSON Schema
// (media/schemas/rule-test.schema.json, the one the YAML extension validates with), so the editor
// without that extension and the command line give the same problems, with lines and columns.
import Ajv, { type ErrorObject } from 'ajv';
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node, type Pair } from 'yaml';
import schema from '../../../media/schemas/rule-test.schema.json';

/** A place in the test file: 1-based lines and columns (UTF-16), the end exclusive. */
export interface TestFileSpan {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface TestFileProblem extends TestFileSpan {
  readonly message: string;
  /**
   * What found it: the YAML reader, the published JSON Schema (which the YAML extension also checks
   * with), or the checks the schema cannot make (names given twice, times that do not exist).
   */
  readonly stage?: 'yaml' | 'schema' | 'meaning';
}

/** Entries given inline, or a file (relative to the test file's folder) with one entry per line. */
export type ListSource = { readonly entries: readonly string[] } | { readonly file: string };

/** Events given inline (each a UDM event), or a file beside the test file (NDJSON or JSON). */
export type EventsSource = { readonly inline: readonly unknown[] } | { readonly file: string };

export interface ExpectedDetection {
  readonly match?: Readonly<Record<string, unknown>>;
  readonly outcomes?: Readonly<Record<string, unknown>>;
  readonly riskScore?: number;
  /** variable → number of events, or their metadata.id values in time order */
  readonly events?: Readonly<Record<string, number | readonly string[]>>;
  /** epoch ms, [start, end) */
  readonly window?: { readonly start: number; readonly end: number };
}

export type Expectation =
  | { readonly kind: 'fires'; readonly fires: boolean }
  | { readonly kind: 'count'; readonly count: number }
  | { readonly kind: 'detections'; readonly detections: readonly ExpectedDetection[] };

export interface RuleTestCase {
  readonly name: string;
  /** where the case starts (its `- name:` item) */
  readonly span: TestFileSpan;
  readonly events: EventsSource;
  /** epoch ms, [start, end) */
  readonly range?: { readonly start: number; readonly end: number };
  /** the file's lists with the case's own over them */
  readonly lists: Readonly<Record<string, ListSource>>;
  readonly expect: Expectation;
}

export interface RuleTestFile {
  readonly cases: readonly RuleTestCase[];
}

export type ParsedTestFile =
  | { readonly file: RuleTestFile; readonly problems: readonly [] }
  | { readonly file?: undefined; readonly problems: readonly TestFileProblem[] };

/** Problems listed at most per file (a broken file can have thousands). */
const MAX_PROBLEMS = 50;

let validator: ReturnType<Ajv['compile']> | undefined;

function validate(value: unknown): ErrorObject[] {
  validator ??= new Ajv({ allErrors: true, allowUnionTypes: true }).compile(schema);
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

/** Whether a case expects at least one detection (true), none (false). */
export function expectsDetections(expect: Expectation): boolean {
  if (expect.kind === 'fires') return expect.fires;
  if (expect.kind === 'count') return expect.count > 0;
  return expect.detections.length > 0;
}

function spanOf(range: readonly [number, number, number?] | null | undefined, lines: LineCounter): TestFileSpan {
  const [start, end] = range ?? [0, 0];
  const a = lines.linePos(start);
  const b = lines.linePos(Math.max(start, end));
  return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
}

function segmentsOf(instancePath: string): Array<string | number> {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** `cases[2].expect.count` for `/cases/2/expect/count`. */
function readablePath(segments: ReadonlyArray<string | number>): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : `${out ? '.' : ''}${s}`;
  return out || 'the file';
}

function nodeAt(doc: Document, segments: ReadonlyArray<string | number>): Node | undefined {
  const node = segments.length ? doc.getIn(segments, true) : doc.contents;
  return node && typeof node === 'object' && 'range' in node ? (node as Node) : undefined;
}

function keyNode(map: Node | undefined, key: string): Node | undefined {
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p: Pair) => isScalar(p.key) && String(p.key.value) === key);
  return pair && isScalar(pair.key) ? pair.key : undefined;
}

/** The errors worth showing: the deepest place each branch failed at, one message a place. */
function chosenErrors(errors: ErrorObject[]): ErrorObject[] {
  const deepest = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf') continue;
    const list = deepest.get(e.instancePath) ?? [];
    list.push(e);
    deepest.set(e.instancePath, list);
  }
  const paths = [...deepest.keys()];
  // A place whose deeper place also failed says less: show the deeper one.
  const kept = paths.filter((p) => !paths.some((q) => q !== p && q.startsWith(`${p}/`)));
  const out: ErrorObject[] = [];
  for (const p of kept) {
    const list = deepest.get(p) ?? [];
    // "must be array" beside "must be string" (a oneOf): one type error says both.
    const types = list.filter((e) => e.keyword === 'type');
    const others = list.filter((e) => e.keyword !== 'type');
    out.push(...others);
    if (types.length && !others.length) out.push(types[0]);
  }
  return out;
}

function messageOf(e: ErrorObject, segments: ReadonlyArray<string | number>, siblings: ErrorObject[]): string {
  const where = readablePath(segments);
  const last = segments[segments.length - 1];
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String((e.params as { additionalProperty: string }).additionalProperty);
      if (last === 'expect')
        return `${where}: unknown key "${key}"; an expectation is one of fires, count or detections`;
      return `${where}: unknown key "${key}"`;
    }
    case 'required': {
      const key = String((e.params as { missingProperty: string }).missingProperty);
      if (last === 'expect') return `${where}: give one of fires (true or false), count or detections`;
      return `${where}: "${key}" is missing`;
    }
    case 'type': {
      const types = siblings.filter((s) => s.keyword === 'type').map((s) => (s.params as { type: string }).type);
      return `${where}: must be ${[...new Set(types.join(',').split(','))].join(' or ')}`;
    }
    case 'pattern':
      if (segments.includes('range') || segments.includes('window'))
        return `${where}: not an RFC 3339 time with an offset (such as 2026-11-01T09:00:00Z)`;
      if (
        segments.includes('lists') &&
        e.propertyName === undefined &&
        typeof last === 'string' &&
        e.schemaPath.includes('propertyNames')
      )
        return `${where}: not a reference list name`;
      return `${where}: a path relative to this file's folder, with forward slashes, no "..", not absolute`;
    default:
      return `${where}: ${e.message ?? 'not valid'}`;
  }
}

function schemaProblems(doc: Document, errors: ErrorObject[], lines: LineCounter): TestFileProblem[] {
  const chosen = chosenErrors(errors);
  const out: TestFileProblem[] = [];
  const seen = new Set<string>();
  for (const e of chosen) {
    const segments = segmentsOf(e.instancePath);
    const siblings = chosen.filter((s) => s.instancePath === e.instancePath);
    const message = messageOf(e, segments, siblings);
    if (seen.has(message)) continue;
    seen.add(message);
    let node = nodeAt(doc, segments);
    if (e.keyword === 'additionalProperties')
      node = keyNode(node, String((e.params as { additionalProperty: string }).additionalProperty)) ?? node;
    if (e.keyword === 'propertyNames')
      node = keyNode(node, String((e.params as { propertyName?: string }).propertyName ?? '')) ?? node;
    out.push({ message, ...spanOf(node?.range, lines) });
  }
  return out;
}

function listSources(value: unknown): Record<string, ListSource> {
  const out: Record<string, ListSource> = Object.create(null) as Record<string, ListSource>;
  if (!value || typeof value !== 'object') return out;
  for (const [name, v] of Object.entries(value as Record<string, unknown>))
    out[name] = typeof v === 'string' ? { file: v } : { entries: v as string[] };
  return out;
}

function timeRange(value: unknown): { start: number; end: number } | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const r = value as { start: string; end: string };
  return { start: Date.parse(r.start), end: Date.parse(r.end) };
}

function expectationOf(value: Record<string, unknown>): Expectation {
  if ('fires' in value) return { kind: 'fires', fires: value.fires === true };
  if ('count' in value) return { kind: 'count', count: Number(value.count) };
  const detections = (value.detections as Array<Record<string, unknown>>).map((d) => {
    const window = timeRange(d.window);
    const detection: ExpectedDetection = { ...d, ...(window ? { window } : {}) };
    return detection;
  });
  return { kind: 'detections', detections };
}

/** The problems the schema cannot see: times that do not exist, empty ranges, names given twice. */
function meaningProblems(doc: Document, value: Record<string, unknown>, lines: LineCounter): TestFileProblem[] {
  const out: TestFileProblem[] = [];
  const names = new Map<string, number>();
  const cases = (value.cases as Array<Record<string, unknown>>) ?? [];
  const checkRange = (r: unknown, path: Array<string | number>): void => {
    const range = timeRange(r);
    if (!range) return;
    const where = readablePath(path);
    const at = spanOf(nodeAt(doc, path)?.range, lines);
    if (!Number.isFinite(range.start) || !Number.isFinite(range.end))
      out.push({ message: `${where}: a time that does not exist`, ...at });
    else if (range.start >= range.end) out.push({ message: `${where}: start must be before end`, ...at });
  };
  cases.forEach((c, i) => {
    const name = String(c.name);
    const first = names.get(name);
    if (first !== undefined)
      out.push({
        message: `cases[${i}].name: "${name}" is already the name of cases[${first}]; case names are unique in a file`,
        ...spanOf(nodeAt(doc, ['cases', i, 'name'])?.range, lines),
      });
    else names.set(name, i);
    checkRange(c.range, ['cases', i, 'range']);
    const expect = c.expect as { detections?: Array<Record<string, unknown>> };
    expect.detections?.forEach((d, j) => checkRange(d.window, ['cases', i, 'expect', 'detections', j, 'window']));
  });
  return out;
}

/** Reads a test file's text: the cases, or the problems that keep it from being run. */
export function parseRuleTestFile(text: string): ParsedTestFile {
  const lines = new LineCounter();
  // uniqueKeys: a key given twice is an error, never a silent last-one-wins.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const yamlErrors = doc.errors.map((e) => ({ message: e.message.split('\n')[0], ...spanOf(e.pos, lines) }));
  if (yamlErrors.length) return { problems: yamlErrors.slice(0, MAX_PROBLEMS).map((p) => ({ ...p, stage: 'yaml' })) };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { problems: [{ message: (err as Error).message, ...spanOf([0, 0], lines) }] };
  }
  if (value === null || value === undefined)
    return {
      problems: [{ message: 'the file is empty: give "cases:", a list of test cases', ...spanOf([0, 0], lines) }],
    };
  const errors = validate(value);
  if (errors.length)
    return {
      problems: schemaProblems(doc, errors, lines)
        .slice(0, MAX_PROBLEMS)
        .map((p) => ({ ...p, stage: 'schema' })),
    };
  const root = value as Record<string, unknown>;
  const meaning = meaningProblems(doc, root, lines);
  if (meaning.length) return { problems: meaning.slice(0, MAX_PROBLEMS).map((p) => ({ ...p, stage: 'meaning' })) };
  const fileLists = listSources(root.lists);
  const cases = (root.cases as Array<Record<string, unknown>>).map((c, i): RuleTestCase => {
    const range = timeRange(c.range);
    return {
      name: String(c.name),
      span: spanOf(nodeAt(doc, ['cases', i])?.range, lines),
      events: typeof c.events === 'string' ? { file: c.events } : { inline: c.events as unknown[] },
      ...(range ? { range } : {}),
      lists: { ...fileLists, ...listSources(c.lists) },
      expect: expectationOf(c.expect as Record<string, unknown>),
    };
  });
  return { file: { cases }, problems: [] };
}
