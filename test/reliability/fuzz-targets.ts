// Generated-input targets shared by the property run in `npm test` (a few thousand inputs) and by
// scripts/fuzz.mjs (a million). Each check throws only when the code under test broke its contract:
// an exception other than the documented one, a result of the wrong shape, or a range out of bounds.
import fc from 'fast-check';
import * as names from '../../src/core/names';
import * as validation from '../../src/core/apikeys/validation';
import type { Restrictions } from '../../src/core/apikeys/types';
import { parseFromWebview } from '../../src/core/apikeys/messages';
import { analyze, compileQuery } from '../../src/udm/index';
import { DISPLAY_TARGETS } from './fuzz-display-targets';
import { UDM_FRAGMENTS } from './fuzz-fragments';

export interface FuzzTarget {
  name: string;
  arbitrary: fc.Arbitrary<unknown>;
  check(input: unknown): void;
}

class ContractError extends Error {
  override readonly name = 'ContractError';
}

function expect(condition: unknown, message: string): void {
  if (!condition) throw new ContractError(message);
}

// ---- resource names -------------------------------------------------------------------------

const NAME_TOKENS = [
  'projects',
  'locations',
  'models',
  'evaluations',
  'slices',
  'keys',
  'operations',
  'endpoints',
  'global',
  'us-central1',
  'europe-west4',
  'my-project',
  '123456',
  'm1',
  'abc',
  '@',
  '@2',
  '@default',
  '@-',
  '@@',
  '-',
  '.',
  '..',
  '~',
  ' ',
  '',
  'Ü',
  '\u202e',
  '%2F',
  '\n',
];
const nameSegment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NAME_TOKENS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
);
const nameString = fc.oneof(
  fc.array(nameSegment, { maxLength: 12 }).map((parts) => parts.join('/')),
  fc
    .tuple(
      fc.constantFrom('projects/p1/locations/us-central1', 'projects/p1/locations/global', 'operations'),
      fc.array(nameSegment, { maxLength: 8 }),
    )
    .map(([head, tail]) => [head, ...tail].join('/')),
  fc.string({ maxLength: 40 }),
);

type Parser = [string, (s: string) => unknown, ((n: never) => string) | undefined];
const PARSERS: Parser[] = [
  ['location', names.parseLocationName, names.formatLocationName],
  ['model', names.parseModelName, names.formatModelName],
  ['model@version', names.parseModelVersionName, names.formatModelName],
  ['explicit version', names.parseExplicitVersionName, names.formatModelName],
  ['evaluation', names.parseEvaluationName, names.formatEvaluationName],
  ['slice', names.parseSliceName, names.formatSliceName],
  ['endpoint', names.parseEndpointName, names.formatEndpointName],
  ['key', names.parseKeyName, names.formatKeyName],
  ['operation', names.parseOperationName, names.formatOperationName],
];

function checkName(input: unknown): void {
  const text = input as string;
  for (const [what, parse, format] of PARSERS) {
    let parsed: unknown;
    try {
      parsed = parse(text);
    } catch (err) {
      expect(
        err instanceof names.ResourceNameError,
        `${what}: threw ${(err as Error)?.name}: ${(err as Error)?.message}`,
      );
      expect(
        (err as Error).message.length > 0 && (err as Error).message.length < 10 * text.length + 400,
        `${what}: message length ${(err as Error).message.length}`,
      );
      continue;
    }
    // Whatever parses must format back to the same text: the tree builds names from parsed parts.
    if (format)
      expect(
        format(parsed as never) === text,
        `${what}: ${JSON.stringify(text)} formats back as ${JSON.stringify(format(parsed as never))}`,
      );
  }
  const key = names.checkKeyId(text);
  expect(key === undefined || typeof key === 'string', 'checkKeyId result');
  expect(typeof names.shortName(text) === 'string', 'shortName');
}

// ---- API key restriction validators --------------------------------------------------------

const RESTRICTION_TOKENS = [
  'http://',
  'https://',
  'file://',
  'chrome-extension://',
  '*.',
  '*',
  'example.com',
  'a',
  '.',
  '/',
  '/*',
  ':',
  ':8080',
  ':99999',
  '[',
  ']',
  '[::1]',
  '10.0.0.0',
  '/8',
  '/33',
  '/0',
  '::',
  'ffff:',
  '1.2.3.4',
  '256.1.1.1',
  '2001:db8::',
  '%eth0',
  'com.example.app',
  'AA:',
  'BB',
  '0123456789abcdef',
  'translate.googleapis.com',
  'Get*',
  'google.cloud.',
  '_',
  '-',
  '?',
  '#',
  '@',
  ' ',
  '\t',
  'é',
  '\u202e',
  '\u0000',
  'xn--',
  'localhost',
];
const restrictionString = fc.oneof(
  { weight: 5, arbitrary: fc.array(fc.constantFrom(...RESTRICTION_TOKENS), { maxLength: 10 }).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);
const list = fc.array(restrictionString, { maxLength: 4 });
const typedRestrictions: fc.Arbitrary<Restrictions> = fc.record(
  {
    browserKeyRestrictions: fc.record({ allowedReferrers: list }, { requiredKeys: [] }),
    serverKeyRestrictions: fc.record({ allowedIps: list }, { requiredKeys: [] }),
    androidKeyRestrictions: fc.record(
      {
        allowedApplications: fc.array(
          fc.record({ packageName: restrictionString, sha1Fingerprint: restrictionString }, { requiredKeys: [] }),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: [] },
    ),
    iosKeyRestrictions: fc.record({ allowedBundleIds: list }, { requiredKeys: [] }),
    apiTargets: fc.array(fc.record({ service: restrictionString, methods: list }, { requiredKeys: [] }), {
      maxLength: 3,
    }),
  },
  { requiredKeys: [] },
);

const SINGLE_VALIDATORS: Array<[string, (s: string) => string | undefined]> = [
  ['referrer', validation.validateReferrer],
  ['ip', validation.validateIp],
  ['package', validation.validatePackageName],
  ['sha1', validation.validateSha1Fingerprint],
  ['bundle', validation.validateBundleId],
  ['service', validation.validateServiceName],
  ['method', validation.validateMethod],
];

function checkValidators(input: unknown): void {
  const { value, restrictions, bound } = input as { value: string; restrictions: Restrictions; bound: boolean };
  for (const [what, validate] of SINGLE_VALIDATORS) {
    const message = validate(value);
    expect(message === undefined || (typeof message === 'string' && message.length > 0), `${what}: ${String(message)}`);
  }
  const referrer = validation.parseReferrer(value);
  expect(
    referrer.ok === (validation.validateReferrer(value) === undefined),
    'parseReferrer and validateReferrer disagree',
  );
  const ip = validation.parseIpRestriction(value);
  expect(ip.ok === (validation.validateIp(value) === undefined), 'parseIpRestriction and validateIp disagree');
  if (ip.ok) {
    // The canonical form of a valid range is itself valid and canonical.
    const canonical = validation.formatIpRange(ip.value);
    const again = validation.parseIpRestriction(canonical);
    expect(
      again.ok && validation.formatIpRange(again.value) === canonical,
      `canonical IP ${canonical} of ${JSON.stringify(value)} does not round-trip`,
    );
  }
  const caller = validation.parseCallerIp(value);
  if (caller && ip.ok) expect(typeof validation.ipInRange(caller, ip.value) === 'boolean', 'ipInRange');
  const problems = validation.validateRestrictions(restrictions, { serviceAccountBound: bound });
  expect(
    Array.isArray(problems) &&
      problems.every((p) => typeof p.path === 'string' && typeof p.message === 'string' && p.message.length > 0),
    'problem shape',
  );
  if (problems.length === 0) {
    // What may be sent normalizes without throwing and stays valid.
    const normalized = validation.normalizeRestrictions(restrictions);
    const after = validation.validateRestrictions(normalized, { serviceAccountBound: bound });
    expect(after.length === 0, `normalized restrictions became invalid: ${JSON.stringify(after)}`);
  }
}

const anyJson = fc.anything({ maxDepth: 2 });
const field = (key: string, inner: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof(anyJson, fc.record({ [key]: fc.oneof(anyJson, inner) }, { requiredKeys: [] }));
const untypedRestrictions = fc.oneof(
  { weight: 1, arbitrary: anyJson },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        browserKeyRestrictions: field(
          'allowedReferrers',
          fc.array(fc.oneof(restrictionString, anyJson), { maxLength: 3 }),
        ),
        serverKeyRestrictions: field('allowedIps', fc.array(fc.oneof(restrictionString, anyJson), { maxLength: 3 })),
        androidKeyRestrictions: field(
          'allowedApplications',
          fc.array(
            fc.oneof(anyJson, fc.record({ packageName: anyJson, sha1Fingerprint: anyJson }, { requiredKeys: [] })),
            { maxLength: 3 },
          ),
        ),
        iosKeyRestrictions: field('allowedBundleIds', fc.array(fc.oneof(restrictionString, anyJson), { maxLength: 3 })),
        apiTargets: fc.oneof(
          anyJson,
          fc.array(
            fc.oneof(
              anyJson,
              fc.record(
                { service: fc.oneof(restrictionString, anyJson), methods: fc.oneof(list, anyJson) },
                { requiredKeys: [] },
              ),
            ),
            { maxLength: 3 },
          ),
        ),
      },
      { requiredKeys: [] },
    ),
  },
);

/**
 * Restrictions as an untrusted webview could post them, any JSON shape: the extension's arrival check
 * (parseFromWebview) never throws, and whatever it lets through validates and normalizes without throwing.
 */
function checkUntypedRestrictions(input: unknown): void {
  expect(parseFromWebview(input) === undefined || typeof input === 'object', 'parseFromWebview accepted a non-object');
  const message = parseFromWebview({ type: 'save', restrictions: input, etag: 'W/"1"' });
  if (!message || message.type !== 'save') return;
  const problems = validation.validateRestrictions(message.restrictions);
  expect(Array.isArray(problems), 'problems array');
  if (problems.length === 0) validation.normalizeRestrictions(message.restrictions);
}

// ---- UDM ------------------------------------------------------------------------------------

const udmText = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.constantFrom(...UDM_FRAGMENTS), { maxLength: 30 }).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);
const UDM_EVENTS: unknown[] = [
  {},
  {
    metadata: { eventType: 'USER_LOGIN', eventTimestamp: '2024-01-01T00:00:00Z' },
    principal: { hostname: 'h', ip: ['10.0.0.1', 'fe80::1'] },
  },
  { principal: { ip: [null, 5, {}] }, securityResult: 'oops', network: { sentBytes: 'NaN' } },
  { principal: { hostname: '(a+)+$'.repeat(5) + 'b'.repeat(30) } },
];

const UDM_OPTIONS = { referenceLists: { list: ['a', '10.0.0.0/8'] } };

function checkUdm(input: unknown): void {
  const text = input as string;
  const compiled = compileQuery(text, UDM_OPTIONS);
  for (const event of UDM_EVENTS)
    expect(typeof compiled.matches(event) === 'boolean', 'matches() returned a non-boolean');
  if (compiled.aggregate) expect(Array.isArray(compiled.aggregate(UDM_EVENTS)), 'aggregate() returned no array');
  const lines = text.split('\n');
  for (const d of compiled.diagnostics) {
    expect(
      d.offset >= 0 && d.length >= 0 && d.offset + d.length <= text.length,
      `diagnostic offset out of the text: ${JSON.stringify(d)}`,
    );
    for (const p of [d.range.start, d.range.end]) {
      expect(
        p.line >= 0 &&
          p.line < lines.length &&
          p.character >= 0 &&
          p.character <= lines[p.line].replace(/\r$/, '').length + 1,
        `diagnostic range out of the text: ${JSON.stringify(d)}`,
      );
    }
  }
  // The same lists for both: an unknown list is an error only where the lists are known.
  expect(analyze(text, UDM_OPTIONS).hasErrors === compiled.hasErrors, 'analyze and compileQuery disagree on errors');
}

export const TARGETS: FuzzTarget[] = [
  { name: 'resource names', arbitrary: nameString, check: checkName },
  {
    name: 'restriction validators',
    arbitrary: fc.record({ value: restrictionString, restrictions: typedRestrictions, bound: fc.boolean() }),
    check: checkValidators,
  },
  { name: 'restrictions of any shape', arbitrary: untypedRestrictions, check: checkUntypedRestrictions },
  { name: 'UDM compile and evaluate', arbitrary: udmText, check: checkUdm },
  ...DISPLAY_TARGETS,
];

/** Runs `count` generated inputs of one target; returns crashes (with their input) and the slowest input. */
export function runTarget(
  target: FuzzTarget,
  count: number,
  seed: number,
  budgetMs: number,
  onCrash: (input: unknown, err: unknown) => void,
): { inputs: number; crashes: number; maxMs: number; p999Ms: number; meanMs: number } {
  let crashes = 0;
  let maxMs = 0;
  let done = 0;
  let totalMs = 0;
  const times = new Float64Array(count);
  const CHUNK = 5_000;
  for (let chunk = 0; done < count; chunk++) {
    const n = Math.min(CHUNK, count - done);
    const inputs = fc.sample(target.arbitrary, { numRuns: n, seed: seed * 7919 + chunk });
    for (let k = 0; k < inputs.length; k++) {
      const input = inputs[k];
      const t0 = performance.now();
      try {
        target.check(input);
      } catch (err) {
        crashes++;
        onCrash(input, err);
      }
      const ms = performance.now() - t0;
      times[done + k] = ms;
      totalMs += ms;
      if (ms > maxMs) maxMs = ms;
      if (ms > budgetMs) {
        crashes++;
        onCrash(input, new Error(`took ${ms.toFixed(0)} ms (budget ${budgetMs} ms)`));
      }
    }
    done += n;
  }
  const sorted = times.slice(0, done).sort();
  return {
    inputs: done,
    crashes,
    maxMs,
    p999Ms: sorted[Math.min(done - 1, Math.floor(done * 0.999))] ?? 0,
    meanMs: done ? totalMs / done : 0,
  };
}
