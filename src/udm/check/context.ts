import type { AssignExpr, FieldNode, OutcomeItem, SectionsByKind } from '../ast';
import type { RawDiagnostic } from '../parser';
import type { KnownReferenceLists } from '../reference-lists';
import type { FieldInfo, ValueKind } from '../schema';

/** What the checker learnt about a field path; the evaluator and the editor features use it. */
export interface FieldFacts {
  /** resolved fields, one per segment (a leading `udm.` is dropped) */
  fields: FieldInfo[];
  /** snake_case segments without a leading `udm` */
  path: string[];
  /** the path joined with dots */
  key: string;
  kind: ValueKind;
  type: string;
  /** true when any segment on the path is repeated */
  repeated: boolean;
  /** true when the path could not be resolved against the schema */
  unknown: boolean;
}

export interface CheckResult {
  diagnostics: RawDiagnostic[];
  facts: Map<FieldNode, FieldFacts>;
  placeholders: Map<string, AssignExpr>;
  sectionsByKind: SectionsByKind;
}

export interface CheckOptions {
  /** Lists with their entries (the sandbox's store): an unknown name is an error, entries are checked. */
  referenceLists?: Record<string, string[]>;
  /**
   * What the editor knows of the lists (names, types, sizes), as the server listed them: an unknown
   * name is an error, as the server refuses a query naming a list the instance does not have.
   */
  knownLists?: KnownReferenceLists;
  /** The lists could not be loaded (why): `knownLists` may be out of date, an unknown name is a warning. */
  listsUnavailable?: string;
  /** The document text, so a problem inside a literal (an RE2 error) points at its place. */
  text?: string;
}

/**
 * What one check of a query shares: the options, the diagnostics, the facts learnt per field node
 * and the placeholders of the filter. Each diagnostic family (fields.ts, values.ts, functions.ts,
 * sections.ts…) is a set of functions over it.
 */
export class CheckContext {
  readonly diagnostics: RawDiagnostic[] = [];
  readonly facts = new Map<FieldNode, FieldFacts>();
  readonly placeholders = new Map<string, AssignExpr>();
  /**
   * While outcome: is checked: every outcome item by name, and the names assigned above the item
   * being checked (an outcome value may read those, as Google's rules do: `$tmp1 + $tmp2`).
   */
  readonly outcomeItems = new Map<string, OutcomeItem>();
  readonly outcomesAbove = new Set<string>();

  constructor(readonly options: CheckOptions) {}

  report(
    severity: RawDiagnostic['severity'],
    message: string,
    start: number,
    end: number,
    code?: string,
    data?: unknown,
  ): void {
    const d: RawDiagnostic = { message, severity, start, end };
    if (code) d.code = code;
    if (data !== undefined) d.data = data;
    this.diagnostics.push(d);
  }
}

/** Keeps the context's hidden class alive between documents (see keepCursorShape in parse/cursor.ts). */
export const keepCheckerShape = new CheckContext({});
