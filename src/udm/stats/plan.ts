// What a statistical query asks for, in terms the engine needs: the parser's sections are mapped
// onto this shape (ast-plan.ts), so the engine does not depend on how a section is spelled.
import type { Expr, Operand } from '../ast';

export type BucketUnit = 'minute' | 'hour' | 'day' | 'week' | 'month';

/** `by 2h` / `over every day`: tumbling windows on the event time, in a time zone. */
export interface TimeBucketSpec {
  count: number;
  unit: BucketUnit;
}

export interface GroupKeySpec {
  /** Column name: the placeholder without `$`, or the field path (`principal.hostname`). */
  name: string;
  operand: Operand;
}

export interface OutcomeSpec {
  /** The variable without `$`. */
  name: string;
  /** The expression: aggregates (count(...)) possibly wrapped in functions or arithmetic. */
  value: Operand;
}

export interface OrderSpec {
  name: string;
  descending: boolean;
}

export interface StatsPlan {
  keys: GroupKeySpec[];
  bucket?: TimeBucketSpec;
  outcomes: OutcomeSpec[];
  /** `condition:` over outcome (and match) variables. */
  condition?: Expr;
  /** `dedup:` keeps one event per combination of these values. */
  dedup: Operand[];
  order: OrderSpec[];
  limit?: number;
  /** Sections the engine does not apply (select:, unselect:: named by Google without a documented meaning). */
  ignoredSections?: string[];
  /** true when the query has a match: section (even without keys, e.g. only a time bucket). */
  grouped: boolean;
}

// The aggregate functions of the outcome section (udm-functions.md, "Search aggregates"), as the parser names them.
export { AGGREGATE_NAMES, isAggregateName, type AggregateName } from '../ast';

export type ColumnRole = 'key' | 'bucket' | 'outcome';
export type ColumnType = 'string' | 'number' | 'bool' | 'timestamp' | 'array' | 'mixed';

/** A column of a statistics table: a match key, the time bucket, or an outcome variable. */
export interface StatsColumn {
  name: string;
  role: ColumnRole;
  type: ColumnType;
}
