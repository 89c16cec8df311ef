// What a function family module declares, and the definitions the checker, the evaluator and the
// editor features read. A family module (strings.ts, re.ts...) lists its functions once: the
// signature as Google documents it, where it is supported, the documented example, the checks of
// its arguments beyond their types, and its evaluation.
import type { Operand } from '../ast';

/** The checker's kinds of values. */
export type ArgType = 'string' | 'number' | 'bool' | 'timestamp' | 'bytes' | 'array' | 'any';

/** Google's type names, as the functions page spells them. */
export type GoogleType =
  | 'STRING'
  | 'INT'
  | 'FLOAT'
  | 'NUMBER'
  | 'BOOL'
  | 'BYTES'
  | 'TIMESTAMP'
  | 'ARRAY_STRINGS'
  | 'ARRAY_INTS'
  | 'ARRAY_FLOATS'
  | 'LIST'
  | 'EVENT_FIELD';

/** "Search, Rules", "Search" or "Rules only", as documented. */
export type Where = 'Search, Rules' | 'Search' | 'Rules only';

/** Receives one value per argument; may return undefined for "no value". */
export type Evaluator = (args: unknown[]) => unknown;

/** Reports an error on an argument (a string that is no CIDR range, a pattern RE2 refuses...). */
export type ArgReport = (message: string, at: { start: number; end: number }, code: string) => void;

/**
 * Checks of the arguments beyond their types; the checker runs it after arity and type checks.
 * `source` is the document text when known, to point inside a literal.
 */
export type ArgCheck = (args: readonly Operand[], report: ArgReport, source?: string) => void;

export interface SpecParam {
  readonly name: string;
  readonly types: readonly GoogleType[];
  readonly optional: boolean;
}

/** One function as its family module declares it. */
export interface FunctionSpec {
  readonly name: string;
  readonly params: readonly SpecParam[];
  /** the last parameter may repeat */
  readonly variadic?: boolean;
  /** Google's return type */
  readonly returns: string;
  readonly where: Where;
  /** the documented example, verbatim */
  readonly example: string;
  readonly notes?: string;
  /** the checks of the arguments beyond their types */
  readonly checkArgs?: ArgCheck;
  /** evaluation; every search function has one, a Rules-only function none */
  readonly evaluate?: Evaluator;
  /**
   * In outcome:, the function is computed over a group, as an aggregate is: it takes the values of
   * its first argument from every event of the group. Receives the other arguments (constants).
   */
  readonly overGroup?: (otherArgs: unknown[]) => Accumulator;
  /**
   * false for a function Google's functions page does not list but Google's current public rules
   * use (they compile in SecOps, reference/yaral-rules.md): a rule function with an evaluation, so
   * Test Rule computes it.
   */
  readonly documented?: false;
}

export const param = (name: string, ...types: GoogleType[]): SpecParam => ({ name, types, optional: false });
export const optional = (name: string, ...types: GoogleType[]): SpecParam => ({ name, types, optional: true });

/** What a declaration says besides its signature, example and evaluation. */
export type SpecExtras = Pick<FunctionSpec, 'notes' | 'checkArgs' | 'overGroup' | 'documented'> & {
  readonly where?: Where;
};

/**
 * One function from its signature written as the functions page writes it:
 * `name(param: TYPE|TYPE, optionalParam?: TYPE, ...): RETURNS`, a trailing `...` when the last
 * parameter repeats. A function that evaluates is supported in search and rules unless `where`
 * says otherwise; one that does not is a Rules-only function (see rulesOnly).
 */
export function fn(signature: string, example: string, evaluate?: Evaluator, extras: SpecExtras = {}): FunctionSpec {
  const m = /^([\w.]+)\((.*?)\): (.+)$/.exec(signature);
  if (!m) throw new Error(`Not a function signature: ${signature}`);
  const parts = m[2] === '' ? [] : m[2].split(', ');
  const variadic = parts.at(-1) === '...';
  const params = (variadic ? parts.slice(0, -1) : parts).map((p): SpecParam => {
    const pm = /^(\w+)(\??): ([A-Z_|]+)$/.exec(p);
    if (!pm) throw new Error(`Not a parameter (name: TYPE): ${p} in ${signature}`);
    return { name: pm[1], types: pm[3].split('|') as GoogleType[], optional: pm[2] === '?' };
  });
  return {
    name: m[1],
    params,
    ...(variadic ? { variadic: true } : {}),
    returns: m[3],
    where: evaluate ? 'Search, Rules' : 'Rules only',
    example,
    ...(evaluate ? { evaluate } : {}),
    ...extras,
  };
}

/** A function of detection rules only: search knows its signature and reports it as such. */
export const rulesOnly = (signature: string, example: string, notes?: string): FunctionSpec =>
  fn(signature, example, undefined, notes === undefined ? {} : { notes });

export interface FunctionParam {
  name: string;
  type: ArgType;
  /** the type as Google documents it (STRING, INT|FLOAT, ARRAY_STRINGS...) */
  googleType?: string;
  optional?: boolean;
  doc?: string;
}

export interface FunctionDef {
  name: string;
  params: FunctionParam[];
  /** last parameter may repeat */
  variadic?: boolean;
  returns: ArgType;
  /** the return type as Google documents it */
  googleReturns: string;
  doc: string;
  /** supported in UDM search; false: in detection rules only */
  search: boolean;
  /** "Search, Rules", "Search" or "Rules only", as documented */
  where: string;
  /** the documented example */
  example: string;
  /** Receives one value per argument; may return undefined for "no value". */
  impl: Evaluator;
  /** the checks of the arguments beyond their types */
  checkArgs?: ArgCheck;
  /** computed over a group in outcome: (see FunctionSpec.overGroup) */
  overGroup?: (otherArgs: unknown[]) => Accumulator;
}

/** A function as its family module defines it. */
export interface FamilyFunction extends FunctionDef {
  /** the family module that declares it (`strings`, `re`, `group`...) */
  family: string;
  /** true when the family module gives an evaluation */
  evaluates: boolean;
  /** false when only Google's public rules show the function (see FunctionSpec.documented) */
  documented: boolean;
}

export interface Family {
  /** the namespace (`strings`), or the function's name for `group` */
  readonly name: string;
  readonly functions: readonly FamilyFunction[];
  /** names that are not UDM functions but are often written for one of this family's */
  readonly renamed: Readonly<Record<string, string>>;
}

/** Google's type names to the checker's kinds. */
function argTypeOf(types: readonly string[]): ArgType {
  const kinds = new Set(
    types.map((t) => {
      if (t === 'STRING') return 'string';
      if (t === 'INT' || t === 'FLOAT' || t === 'NUMBER') return 'number';
      if (t === 'BOOL') return 'bool';
      if (t === 'TIMESTAMP') return 'timestamp';
      if (t === 'BYTES') return 'bytes';
      if (t.startsWith('ARRAY') || t === 'LIST') return 'array';
      return 'any';
    }),
  );
  return kinds.size === 1 ? [...kinds][0] : 'any';
}

function returnTypeOf(google: string): ArgType {
  const first = google.split(/[\s(]/)[0];
  if (first === 'NUMBER') return 'number';
  return argTypeOf([first]);
}

const noValue: Evaluator = () => undefined;

/** A family's definitions from its module's declarations. */
export function defineFamily(
  name: string,
  specs: readonly FunctionSpec[],
  renamed: Readonly<Record<string, string>> = {},
): Family {
  const functions = specs.map((s): FamilyFunction => ({
    name: s.name,
    params: s.params.map((p) => ({
      name: p.name,
      type: argTypeOf(p.types),
      googleType: p.types.join('|'),
      ...(p.optional ? { optional: true } : {}),
    })),
    ...(s.variadic ? { variadic: true } : {}),
    returns: returnTypeOf(s.returns),
    googleReturns: s.returns,
    doc: s.notes ?? '',
    search: s.where !== 'Rules only',
    where: s.where,
    example: s.example,
    impl: s.evaluate ?? noValue,
    ...(s.checkArgs ? { checkArgs: s.checkArgs } : {}),
    ...(s.overGroup ? { overGroup: s.overGroup } : {}),
    family: name,
    evaluates: s.evaluate !== undefined,
    documented: s.documented !== false,
  }));
  return { name, functions, renamed };
}

/** Takes the values of an aggregate's argument one by one, then gives the group's value. */
export interface Accumulator {
  add(value: unknown): void;
  result(): unknown;
}

export interface AggregateDef {
  name: string;
  params: FunctionParam[];
  returns: ArgType | 'array';
  doc: string;
  /** evaluation: a fresh accumulator per group */
  accumulator: () => Accumulator;
}
