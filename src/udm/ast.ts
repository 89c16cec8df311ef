export interface Span {
  start: number;
  end: number;
}

export interface Segment extends Span {
  name: string;
}

export interface FieldNode extends Span {
  type: 'field';
  segments: Segment[];
  /** `field["key"]` map/struct/label access */
  key?: StringNode;
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

export type Operand = FieldNode | StringNode | NumberNode | BoolNode | RegexNode | EnumNode | VariableNode | CallNode;

export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=';

export interface CompareExpr extends Span {
  type: 'compare';
  left: Operand;
  op: CompareOp;
  opSpan: Span;
  right: Operand | null;
  nocase?: Span;
  quantifier?: { kind: 'any' | 'all' } & Span;
}

export interface InListExpr extends Span {
  type: 'in';
  left: Operand;
  mode: 'exact' | 'regex' | 'cidr';
  list: ({ name: string } & Span) | null;
  negated: boolean;
  keyword: Span;
}

export interface CallExpr extends Span {
  type: 'callExpr';
  call: CallNode;
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

export type Expr = CompareExpr | InListExpr | CallExpr | AssignExpr | AndExpr | OrExpr | NotExpr | ErrorExpr;

export type SectionKind = 'match' | 'outcome' | 'order' | 'limit';
export const SECTION_ORDER: readonly SectionKind[] = ['match', 'outcome', 'order', 'limit'];

export interface OutcomeItem extends Span {
  variable: VariableNode;
  value: Operand | null;
}

export interface OrderItem extends Span {
  variable: VariableNode | FieldNode;
  direction?: { value: 'asc' | 'desc' } & Span;
}

export interface Section extends Span {
  kind: SectionKind;
  keyword: Span;
  /** match: grouping keys */
  keys: (VariableNode | FieldNode)[];
  outcomes: OutcomeItem[];
  order: OrderItem[];
  limit?: NumberNode;
}

export interface Query {
  filter: Expr | null;
  sections: Section[];
}
