import { check, type CheckResult } from './check';
import { Compiler } from './evaluate';
import { parse, type ParseResult } from './parser';
import { planFromQuery } from './stats/ast-plan';
import { StatsEngine } from './stats/engine';
import type { KnownReferenceLists } from './reference-lists';
import type { RawDiagnostic } from './parser';
import { LineIndex } from './text';

export interface UdmDiagnostic {
  message: string;
  severity: 'error' | 'warning' | 'info';
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  offset: number;
  length: number;
  code?: string;
  data?: unknown;
}

export interface CompiledQuery {
  diagnostics: UdmDiagnostic[];
  hasErrors: boolean;
  /** true when the event matches the filter part; `event` is the `udm` object of the Search API's camelCase JSON. */
  matches(event: unknown): boolean;
  /**
   * present when the query has match:/outcome: sections: the statistics table (src/udm/stats) as
   * rows, one key per column (match: keys and outcome: variables named without the `$`, the time
   * bucket as `time_bucket`, in UTC). Events are filtered with `matches` here, so passing
   * already-matched events is fine too.
   */
  aggregate?: (events: Iterable<unknown>) => Array<Record<string, unknown>>;
}

export interface CompileOptions {
  /** Reference lists by name (without `%`) with their entries. When given, unknown names are errors. */
  referenceLists?: Record<string, string[]>;
  /**
   * What the editor knows of the lists (name, type, size, preview). When given (and no
   * `referenceLists`), an unknown `%name` is a warning.
   */
  knownLists?: KnownReferenceLists;
  /**
   * Set when the lists could not be loaded from the server (the reason): `knownLists` is then what
   * was known before, and an unknown `%name` is a warning. Without it, `knownLists` is what the
   * server answered, and an unknown name is an error (the server would refuse the query).
   */
  listsUnavailable?: string;
}

/** Parse + semantic check of a document, shared by compileQuery and the language server. */
export interface Analysis {
  readonly text: string;
  readonly parse: ParseResult;
  /** semantic check, computed on first use (completion needs only the parse) */
  readonly check: CheckResult;
  readonly lines: LineIndex;
  /** at most MAX_DIAGNOSTICS, then one summary ("and N more") */
  readonly diagnostics: UdmDiagnostic[];
  /** every error, including those beyond the listed ones */
  readonly errorTotal: number;
  readonly hasErrors: boolean;
  /** The language of the document, the source of its diagnostics (a search unless said). */
  readonly language?: 'udm' | 'yaral';
}

class LazyAnalysis implements Analysis {
  readonly parse: ParseResult;
  readonly lines: LineIndex;
  private checked: CheckResult | undefined;
  private diags: UdmDiagnostic[] | undefined;
  private errorCount = 0;

  constructor(
    readonly text: string,
    private readonly options: CompileOptions,
  ) {
    this.parse = parse(text);
    this.lines = new LineIndex(text);
  }

  get check(): CheckResult {
    const { referenceLists, knownLists, listsUnavailable } = this.options;
    this.checked ??= check(this.parse.query, {
      text: this.text,
      ...(referenceLists ? { referenceLists } : {}),
      ...(knownLists ? { knownLists } : {}),
      ...(listsUnavailable !== undefined ? { listsUnavailable } : {}),
    });
    return this.checked;
  }

  get diagnostics(): UdmDiagnostic[] {
    if (!this.diags) {
      const { text, lines } = this;
      const raw = [...this.parse.diagnostics, ...this.check.diagnostics];
      this.errorCount = raw.reduce((n, d) => n + (d.severity === 'error' ? 1 : 0), 0);
      const shown = mostSevereFirst(raw, MAX_DIAGNOSTICS).sort((a, b) => a.start - b.start || a.end - b.end);
      const toUdm = (d: RawDiagnostic): UdmDiagnostic => {
        const start = Math.max(0, Math.min(d.start, text.length));
        const end = Math.max(start, Math.min(d.end, text.length));
        const out: UdmDiagnostic = {
          message: d.message,
          severity: d.severity,
          range: lines.range(start, end),
          offset: start,
          length: end - start,
        };
        if (d.code) out.code = d.code;
        if (d.data !== undefined) out.data = d.data;
        return out;
      };
      this.diags = shown.map(toUdm);
      if (raw.length > shown.length) this.diags.push(toUdm(summaryOf(raw, shown)));
    }
    return this.diags;
  }

  /** Every error of the document, shown or not. */
  get errorTotal(): number {
    void this.diagnostics;
    return this.errorCount;
  }

  get hasErrors(): boolean {
    return this.errorTotal > 0;
  }
}

/**
 * Diagnostics shown per document. A hostile file (a megabyte of `"`) would otherwise send
 * hundreds of thousands of them, megabytes of JSON on every keystroke; one summary follows.
 */
export const MAX_DIAGNOSTICS = 1000;

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;

/** The `limit` diagnostics to show: errors before warnings before information, each by position. */
function mostSevereFirst(raw: RawDiagnostic[], limit: number): RawDiagnostic[] {
  if (raw.length <= limit) return raw.slice();
  const out: RawDiagnostic[] = [];
  for (const severity of ['error', 'warning', 'info'] as const) {
    const some = raw.filter((d) => d.severity === severity).sort((a, b) => a.start - b.start || a.end - b.end);
    out.push(...some.slice(0, limit - out.length));
    if (out.length >= limit) break;
  }
  return out;
}

/** "…and N more": at the first diagnostic left out, as severe as the worst of them. */
function summaryOf(raw: RawDiagnostic[], shown: RawDiagnostic[]): RawDiagnostic {
  const kept = new Set(shown);
  let first: RawDiagnostic | undefined;
  let worst: RawDiagnostic['severity'] = 'info';
  for (const d of raw) {
    if (kept.has(d)) continue;
    if (!first || d.start < first.start) first = d;
    if (SEVERITY_RANK[d.severity] < SEVERITY_RANK[worst]) worst = d.severity;
  }
  const hidden = raw.length - shown.length;
  return {
    message: `…and ${hidden.toLocaleString('en-US')} more problems in this document (only the first ${MAX_DIAGNOSTICS.toLocaleString('en-US')} are listed); fix those and the rest appear`,
    severity: worst,
    start: first?.start ?? 0,
    end: first?.end ?? 0,
    code: 'too-many-problems',
    data: { hidden },
  };
}

export function analyze(text: string, options: CompileOptions = {}): Analysis {
  return new LazyAnalysis(text, options);
}

export function compileQuery(text: string, options?: CompileOptions): CompiledQuery {
  const a = analyze(text, options ?? {});
  const compiler = new Compiler({ check: a.check, referenceLists: options?.referenceLists });
  const predicate = compiler.compileExpr(a.parse.query.filter);
  const compiled: CompiledQuery = {
    diagnostics: a.diagnostics,
    hasErrors: a.hasErrors,
    matches: (event: unknown) => {
      try {
        return predicate(event);
      } catch {
        // Events are external JSON; a shape the evaluator did not foresee must not break a search.
        return false;
      }
    },
  };
  const query = a.parse.query;
  if (query.sections.some((s) => s.kind === 'match' || s.kind === 'outcome')) {
    // The statistics engine the editor uses, so the sandbox and the editor compute tables alike.
    const engine = new StatsEngine(planFromQuery(query), compiler);
    compiled.aggregate = (events) => {
      const table = engine.run([...events], { timeZone: 'UTC', filter: (ev) => compiled.matches(ev) });
      return table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c.name, row[i]])));
    };
  }
  return compiled;
}

export { parse } from './parser';
export { lex } from './lexer';
export type { Token, TokenKind } from './lexer';
export { check } from './check';
export { LineIndex } from './text';
export { snakeToCamel, camelToSnake, resolvePath } from './schema';
export type { KnownReferenceList, KnownReferenceLists, ReferenceListContentType } from './reference-lists';
