// The UDM functions, one module per family (as Google's functions page groups them): each module
// declares its functions' signatures, where they are supported, their documented examples, the
// checks of their arguments and their evaluation. Adding a function touches its family module
// only; a new family is added to FAMILIES below.
import { ARRAYS } from './arrays';
import { BYTES } from './bytes';
import { CAST } from './cast';
import { GROUP } from './group';
import { HASH } from './hash';
import { MATH } from './math';
import { METRICS } from './metrics';
import { NET } from './net';
import { OPTIMIZATION } from './optimization';
import { RE } from './re';
import { STRINGS } from './strings';
import { TIMESTAMP } from './timestamp';
import type { AggregateDef, Family, FamilyFunction, FunctionParam } from './types';
import { WINDOW } from './window';
import { AGGREGATES } from './aggregates';
import type { Operand } from '../ast';

export type { AggregateDef, ArgType, Family, FamilyFunction, FunctionDef, FunctionParam } from './types';
export { AGGREGATES } from './aggregates';
export { cidrMatcher, ipInCidr, ipv4ToInt, parseCidr } from './net';
export { Bytes, bytesOfLiteral, timestampSeconds, toNum, toStr } from './values';

/** Every family module, in the order of Google's functions page (alphabetical). */
export const FAMILIES: readonly Family[] = [
  ARRAYS,
  BYTES,
  CAST,
  GROUP,
  HASH,
  MATH,
  METRICS,
  NET,
  OPTIMIZATION,
  RE,
  STRINGS,
  TIMESTAMP,
  WINDOW,
];

/** All documented functions, search and Rules-only. */
export const FUNCTIONS: readonly FamilyFunction[] = FAMILIES.flatMap((f) => f.functions);

/** Names that are not UDM functions but are often written for one. */
export const RENAMED_FUNCTIONS: Readonly<Record<string, string>> = Object.assign(
  {},
  ...FAMILIES.map((f) => f.renamed),
) as Record<string, string>;

const FN_BY_NAME = new Map(FUNCTIONS.map((f) => [f.name, f]));
const AGG_BY_NAME = new Map(AGGREGATES.map((f) => [f.name, f]));

export function findFunction(name: string): FamilyFunction | undefined {
  return FN_BY_NAME.get(name);
}

export function findAggregate(name: string): AggregateDef | undefined {
  return AGG_BY_NAME.get(name.toLowerCase());
}

/**
 * The function a call computes over a group in outcome: (`window.range(network.sent_bytes, false)`),
 * when its first argument reads events; with a literal array (`window.range([1, 2], false)`) it is
 * an ordinary function.
 */
export function groupFunctionOf(op: Operand): FamilyFunction | undefined {
  if (op.type !== 'call') return undefined;
  const fn = FN_BY_NAME.get(op.name);
  if (!fn?.overGroup) return undefined;
  const first = op.args[0];
  return first && first.type !== 'array' && first.type !== 'number' ? fn : undefined;
}

/** Families (`arrays`, `cast`, ...) of the search functions; `group` has none. */
export const FUNCTION_NAMESPACES = [
  ...new Set(FUNCTIONS.filter((f) => f.search && f.name.includes('.')).map((f) => f.name.split('.')[0])),
];

/** Families that exist only in detection rules (`hash`, `metrics`, `optimization`). */
export const RULES_ONLY_NAMESPACES = [
  ...new Set(FUNCTIONS.filter((f) => f.name.includes('.')).map((f) => f.name.split('.')[0])),
].filter((ns) => !FUNCTION_NAMESPACES.includes(ns));

export function signatureLabel(f: {
  name: string;
  params: FunctionParam[];
  variadic?: boolean;
  returns: string;
}): string {
  const params = f.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`);
  if (f.variadic) params.push('...');
  return `${f.name}(${params.join(', ')}): ${f.returns}`;
}
