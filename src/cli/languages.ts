// The languages the command line checks and formats, by file extension. Each entry is the editor's
// own language service for that language: the CLI adds file handling and reports, never its own
// rules, so a file passes here exactly when the editor shows it clean. A new language is one entry.
import { analyze, type Analysis, type CompileOptions } from '../udm/index';
import {
  analyzeRuleFile,
  format,
  formatRefusal,
  formatRule,
  ruleFormatRefusal,
  toLspDiagnostics,
} from '../udm/service';
import type { LoadedLists } from './lists';

export type Severity = 'error' | 'warning' | 'info';

export interface Position {
  /** 0-based line. */
  readonly line: number;
  /** 0-based UTF-16 column, as the language server counts. */
  readonly character: number;
}

/** One diagnostic of a document, in the document's own coordinates. */
export interface Problem {
  readonly severity: Severity;
  readonly message: string;
  /** The diagnostic's code (a rule of the language), when it has one. */
  readonly code?: string;
  readonly start: Position;
  readonly end: Position;
}

/** What a check may know besides the text. */
export interface CheckContext {
  /** The reference lists from `--lists`; undefined when none were given. */
  readonly lists: LoadedLists | undefined;
}

export type FormatResult = { readonly text: string } | { readonly refusal: string };

export interface Language {
  /** The language id (rule ids in reports are `<id>/<code>`). */
  readonly id: string;
  /** The editor's diagnostics for a document. */
  check(text: string, context: CheckContext): Problem[];
  /** The editor's Format Document; a refusal says why the text is left alone. */
  format(text: string): FormatResult;
}

/** Why an unknown `%name` is only a warning without `--lists`. */
export const NO_LISTS_REASON = 'no --lists folder given; pass --lists DIR to check list names';

/** The analysis options of the editor's language server, with the lists of `--lists` as its known lists. */
function compileOptions(context: CheckContext): CompileOptions {
  const lists = context.lists;
  // With the lists' entries an unknown name is an error and `in regex`/`in cidr` entries are
  // checked; the known-list table adds the content-type checks the editor makes.
  if (lists) return { referenceLists: lists.entries, knownLists: lists.known };
  return { knownLists: new Map(), listsUnavailable: NO_LISTS_REASON };
}

const SEVERITIES: Record<number, Severity> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'info' };

/** Indentation of Format Document: the formatter's own default unit. */
const FORMAT_OPTIONS = { tabSize: 2, insertSpaces: true };

/** The language server's pipeline after its analysis: the analysis as LSP diagnostics. */
function problemsOf(a: Analysis): Problem[] {
  return toLspDiagnostics(a).map((d) => ({
    severity: SEVERITIES[d.severity ?? 1] ?? 'error',
    message: typeof d.message === 'string' ? d.message : d.message.value,
    ...(d.code !== undefined ? { code: String(d.code) } : {}),
    start: d.range.start,
    end: d.range.end,
  }));
}

/** The formatter answers with one edit over the whole document, or none. */
function formattedText(text: string, edits: ReadonlyArray<{ newText: string }>): FormatResult {
  return { text: edits.length ? edits[0].newText : text };
}

/** A language of the editor's language service: its analysis, and the formatter's refusal and edits. */
function serviceLanguage<A>(
  id: string,
  analyzeText: (text: string, options?: CompileOptions) => A,
  problems: (a: A) => Problem[],
  refusalOf: (a: A) => string | undefined,
  formatOf: (a: A, options: typeof FORMAT_OPTIONS) => ReadonlyArray<{ newText: string }>,
): Language {
  return {
    id,
    check: (text, context) => problems(analyzeText(text, compileOptions(context))),
    format(text) {
      const a = analyzeText(text);
      const refusal = refusalOf(a);
      if (refusal) return { refusal };
      return formattedText(text, formatOf(a, FORMAT_OPTIONS));
    },
  };
}

export const udm: Language = serviceLanguage('udm', analyze, problemsOf, formatRefusal, format);

/** YARA-L rule files: the language server analyses a `yaral` document as a rule, with the same options. */
export const yaral: Language = serviceLanguage('yaral', analyzeRuleFile, problemsOf, ruleFormatRefusal, formatRule);

/** Languages by file extension (lower case, with the dot): a new language is one more entry. */
export const LANGUAGES: ReadonlyMap<string, Language> = new Map([
  ['.udm', udm],
  ['.yaral', yaral],
]);
