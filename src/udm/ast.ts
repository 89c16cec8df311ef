export interface Span {
  start: number;
  end: number;
}

export interface Segment extends Span {
  name: string;
  /** `[n]` right after this segment: 0-based element of a repeated field (`principal.ip[0]`, `about[1].hostname`) */
  index?: NumberNode;
}

/** `any` / `all` before a repeated field, in a comparison or as a function argument. */
export interface Quantifier extends Span {
  kind: 'any' | 'all';
}

/**
 * A UDM field path. `segments` never include the event variable; a leading `udm` segment (as in
 * `$e.udm.additional.fields["k"]`) is kept here and dropped by `fieldPathOf` in check.ts.
 */
export interface FieldNode extends Span {
  type: 'field';
  segments: Segment[];
  /** `field["key"]` map/struct/label access (after the last segment) */
  key?: StringNode;
  /** `$e.` in `$e.principal.hostname`: the optional event variable prefix */
  eventVar?: VariableNode;
  /** `any` / `all` written before the field inside function arguments (`f(all principal.ip, ...)`) */
  quantifier?: Quantifier;
}

export interface StringNode extends Span {
  type: 'string';
  value: string;
  /** false for backtick strings */
  quoted: boolean;
}

export interface NumberNode extends Span {
  type: 'number';
  value: number;
  raw: string;
}

export interface BoolNode extends Span {
  type: 'bool';
  value: boolean;
}

export interface RegexNode extends Span {
  type: 'regex';
  pattern: string;
}

/** A bare identifier in value position: an enum value written without quotes. */
export interface EnumNode extends Span {
  type: 'enum';
  name: string;
}

export interface VariableNode extends Span {
  type: 'variable';
  name: string;
}

export interface CallNode extends Span {
  type: 'call';
  /** dotted name, e.g. `net.ip_in_range_cidr` */
  name: string;
  nameSpan: Span;
  args: Operand[];
  /** parenthesis spans, for signature help */
  open: Span;
  close?: Span;
  /** offsets of the commas between arguments */
  commas: number[];
}

/** `#e`: the number of events (or distinct values) of a variable in a detection (rules' condition:). */
export interface CountNode extends Span {
  type: 'count';
  /** the variable's name, without `#` */
  name: string;
}

/** `["a", "b"]`: an array literal, as a function argument. */
export interface ArrayNode extends Span {
  type: 'array';
  items: Operand[];
}

/** `b'...'`: a bytes literal; `value` is the text between the quotes (hex digits or text). */
export interface BytesNode extends Span {
  type: 'bytes';
  value: string;
}

export type ArithOp = '+' | '-' | '*' | '/' | '%';

/** `left op right`: arithmetic (`*` `/` `%` bind tighter than `+` `-`). */
export interface ArithNode extends Span {
  type: 'arith';
  op: ArithOp;
  opSpan: Span;
  left: Operand;
  /** null when the right operand is missing (already reported) */
  right: Operand | null;
}

/**
 * A condition written where a value goes: the first argument of `if(condition)` /
 * `if(condition, then, else)` (`if(math.random() >= 0 and math.random() < 1) = true`).
 */
export interface ConditionNode extends Span {
  type: 'condition';
  expr: Expr;
}

export type Operand =
  | FieldNode
  | StringNode
  | NumberNode
  | BoolNode
  | RegexNode
  | EnumNode
  | VariableNode
  | CallNode
  | ArrayNode
  | BytesNode
  | ArithNode
  | ConditionNode
  | CountNode;

export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=';

export interface CompareExpr extends Span {
  type: 'compare';
  left: Operand;
  op: CompareOp;
  opSpan: Span;
  right: Operand | null;
  nocase?: Span;
  quantifier?: Quantifier;
}

export interface InListExpr extends Span {
  type: 'in';
  left: Operand;
  mode: 'exact' | 'regex' | 'cidr';
  list: ({ name: string } & Span) | null;
  negated: boolean;
  /** `not in` / `in` (the `regex` / `cidr` word is not included) */
  keyword: Span;
  /** `nocase` after the list name */
  nocase?: Span;
}

/** A boolean function call standing as a condition: `re.regex(target.hostname, "x") nocase`. */
export interface CallExpr extends Span {
  type: 'callExpr';
  call: CallNode;
  nocase?: Span;
}

/** `$name = field` defines a placeholder; it never filters events out. */
export interface AssignExpr extends Span {
  type: 'assign';
  variable: VariableNode;
  value: Operand;
}

export interface AndExpr extends Span {
  type: 'and';
  items: Expr[];
}

export interface OrExpr extends Span {
  type: 'or';
  items: Expr[];
}

/** `$e` standing alone in a rule's condition: the event variable matched (`#e > 0`). */
export interface ExistsExpr extends Span {
  type: 'exists';
  variable: VariableNode;
}

export interface NotExpr extends Span {
  type: 'not';
  expr: Expr;
  keyword: Span;
}

/** A condition that could not be parsed; `operand` keeps what was read so far (for completion). */
export interface ErrorExpr extends Span {
  type: 'error';
  operand?: Operand;
}

export type Expr =
  CompareExpr | InListExpr | CallExpr | AssignExpr | AndExpr | OrExpr | NotExpr | ExistsExpr | ErrorExpr;

// ---- statistical sections ------------------------------------------------------------------------
//
// A search is: filtering statements (optionally under an `events:` header), then sections in
// this order: match:, outcome:, condition:, dedup:, order:, limit: (select:/unselect: may stand
// anywhere after the filter: Google's page writes select: after limit:). Section names are
// case-insensitive. The parser keeps
// sections in source order; check.ts reports a wrong order or a duplicate.

export { SECTION_ORDER, type SectionKind } from './vocabulary';

/**
 * The aggregate functions of outcome: (lower case; calls are matched case-insensitively). The one
 * list of them: the statistics plan and the function catalogue (functions/aggregates.ts, one
 * signature and accumulator per name, checked by the compiler) take their names from here.
 */
export const AGGREGATE_NAMES = [
  'count',
  'count_distinct',
  'sum',
  'min',
  'max',
  'avg',
  'stddev',
  'array',
  'array_distinct',
  'earliest',
  'latest',
] as const;
export type AggregateName = (typeof AGGREGATE_NAMES)[number];

/** True when `name` is one of AGGREGATE_NAMES, in any case (`count`, `MAX`). */
export function isAggregateName(name: string): name is AggregateName {
  return (AGGREGATE_NAMES as readonly string[]).includes(name.toLowerCase());
}

/** True when the call is one of AGGREGATE_NAMES (`count(...)`, `MAX(...)`). */
export function isAggregateCall(node: Operand): boolean {
  return node.type === 'call' && !node.name.includes('.') && isAggregateName(node.name);
}

/** The operands and conditions directly inside a node (an assignment's value, not its variable). */
export function childrenOf(node: Expr | Operand): ReadonlyArray<Expr | Operand> {
  switch (node.type) {
    case 'call':
      return node.args;
    case 'array':
      return node.items;
    case 'arith':
    case 'compare':
      return node.right ? [node.left, node.right] : [node.left];
    case 'condition':
    case 'not':
      return [node.expr];
    case 'in':
      return [node.left];
    case 'callExpr':
      return [node.call];
    case 'assign':
      return [node.value];
    case 'and':
    case 'or':
      return node.items;
    case 'error':
      return node.operand ? [node.operand] : [];
    default:
      return [];
  }
}

/**
 * The value a literal operand stands for (a string and an unquoted enum name with the same text are
 * the same value), else undefined.
 */
export function literalValue(op: Operand): string | number | boolean | undefined {
  if (op.type === 'string' || op.type === 'number' || op.type === 'bool') return op.value;
  return op.type === 'enum' ? op.name : undefined;
}

/** `if(condition)` / `if(condition, then, else)` (the name in any case). */
export function isIfCall(node: Operand): boolean {
  return node.type === 'call' && node.name.length === 2 && node.name.toLowerCase() === 'if';
}

/** What match: and dedup: group by: a field or a placeholder defined in the filter. */
export type GroupKey = VariableNode | FieldNode;

export type TimeUnit = 'minute' | 'hour' | 'day' | 'week' | 'month';

/**
 * The time window of match: `by 2h`, `by minute`, `over every day`, `over every 1 week`.
 * Events are bucketed by `metadata.event_timestamp` into windows of `size` × `unit` aligned on
 * the epoch (UTC; months are calendar months). `kind: 'over'` without `every` is a rule's
 * sliding window: check.ts reports it as invalid in search, but it is still parsed.
 */
export interface MatchWindow extends Span {
  kind: 'by' | 'over';
  /** `over every` */
  every: boolean;
  /** the optional `first` word (`by first hour`) */
  first: boolean;
  /** the number before the unit; 1 when written without one (`by hour`) */
  size: number;
  /** null when the unit is missing or unknown (already reported) */
  unit: TimeUnit | null;
  /** the unit as written: `2h`, `minute`, `d`... */
  raw: string;
  /** the `by` / `over` word */
  keyword: Span;
  /** a rule's sliding window: `over 10m after $login` (anchored on each event of the pivot variable) */
  pivot?: { kind: 'before' | 'after'; keyword: Span; variable: VariableNode };
}

interface SectionBase extends Span {
  /** the section name and its colon */
  keyword: Span;
}

/** `match: $host, principal.ip by 1h`: grouping keys and an optional time window. */
export interface MatchSection extends SectionBase {
  kind: 'match';
  keys: GroupKey[];
  window?: MatchWindow;
}

/**
 * One `$name = value` of outcome:. `value` is any operand: an aggregate call (`count(metadata.id)`,
 * see isAggregateCall), a function around aggregates (`cast.as_int(sum(network.sent_bytes))`),
 * arithmetic (`sum(a) / count(b)`), or a plain per-event value when there is no match:
 * (`cast.as_int(network.sent_bytes)`, `strings.concat($first, " ", $last)`).
 */
export interface OutcomeItem extends Span {
  variable: VariableNode;
  /** null when missing after `=` (already reported) */
  value: Operand | null;
}

export interface OutcomeSection extends SectionBase {
  kind: 'outcome';
  outcomes: OutcomeItem[];
}

/** `condition: $event_count > 5 and $bytes > 100`: a boolean expression over match:/outcome: variables. */
export interface ConditionSection extends SectionBase {
  kind: 'condition';
  expr: Expr | null;
}

/** `dedup: target.hostname` (also select:/unselect:): a list of fields or placeholders. */
export interface DedupSection extends SectionBase {
  kind: 'dedup' | 'select' | 'unselect';
  keys: GroupKey[];
}

export interface OrderItem extends Span {
  /** a match:/outcome: variable, or a field that match: groups by */
  variable: VariableNode | FieldNode;
  /** absent means ascending */
  direction?: { value: 'asc' | 'desc' } & Span;
}

/** `order: $event_count desc, $host asc` */
export interface OrderSection extends SectionBase {
  kind: 'order';
  order: OrderItem[];
}

/** `limit: 20` */
export interface LimitSection extends SectionBase {
  kind: 'limit';
  /** absent when no number was written (already reported) */
  limit?: NumberNode;
}

export type Section = MatchSection | OutcomeSection | ConditionSection | DedupSection | OrderSection | LimitSection;

/** Sections by kind, typed (the first of each kind when a section is repeated). */
export interface SectionsByKind {
  match?: MatchSection;
  outcome?: OutcomeSection;
  condition?: ConditionSection;
  dedup?: DedupSection;
  select?: DedupSection;
  unselect?: DedupSection;
  order?: OrderSection;
  limit?: LimitSection;
}

export function sectionsByKind(sections: readonly Section[]): SectionsByKind {
  const out: SectionsByKind = {};
  for (const s of sections) if (out[s.kind] === undefined) (out as Record<string, Section>)[s.kind] = s;
  return out;
}

export interface Query {
  /** `events:` header before the filtering statements, when written */
  events?: Span;
  /** the filtering statements (lines ANDed); null when there are none */
  filter: Expr | null;
  /** statistical sections in source order */
  sections: Section[];
}
