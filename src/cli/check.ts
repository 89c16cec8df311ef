// `cloudbench check`: the editor's diagnostics for every file under the paths, as findings in file
// coordinates that the reports (human, JSON, SARIF) print.
import { LineIndex } from '../udm/index';
import { collectFiles, displayPath, kindOf, type SkippedPath } from './files';
import { readSource } from './input';
import type { CheckContext, Problem, Severity } from './languages';
import { loadLists, type LoadedLists } from './lists';
import { ContainerError } from './notebook';

export interface Finding {
  /** The file as reports name it (relative to the current folder when inside it). */
  readonly file: string;
  /** 1-based line and column in the file (UTF-16 columns, as editors count). */
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly severity: Severity;
  readonly message: string;
  /** `<language>/<code>`, or the language alone when the diagnostic has no code. */
  readonly rule: string;
  /** Where in the file, when the document is embedded ("cell 3"). */
  readonly where?: string;
  /** The document's line the finding starts on, and the 0-based columns the caret underlines. */
  readonly sourceLine: string;
  readonly caretStart: number;
  readonly caretEnd: number;
}

export interface CheckRun {
  /** What reports list: at most MAX_PROBLEMS_PER_FILE of a file, MAX_FINDINGS in all. */
  readonly findings: Finding[];
  readonly filesChecked: number;
  /** Errors and warnings found, listed or not. */
  readonly errors: number;
  readonly warnings: number;
  /** Problems found but not listed (the caps above). */
  readonly omitted: number;
}

/** Problems of one file a report lists; the rest are counted ("N more problems …"). */
export const MAX_PROBLEMS_PER_FILE = 100;
/** Problems a report lists in all. */
export const MAX_FINDINGS = 1000;

export interface CheckOptions {
  readonly paths: readonly string[];
  readonly listsDir?: string;
  /** The lists of `listsDir` when the caller has loaded them already. */
  readonly lists?: LoadedLists;
}

function lineText(text: string, lines: LineIndex, line: number): string {
  return text.slice(lines.lineStart(line), lines.lineEnd(line));
}

/** Findings of one document's problems; `toFile` maps document positions into the file. */
function findingsOf(
  file: string,
  text: string,
  problems: readonly Problem[],
  language: string,
  toFile: (p: Problem['start']) => Problem['start'] = (p) => p,
  where?: string,
): Finding[] {
  if (!problems.length) return [];
  const lines = new LineIndex(text);
  return problems.map((p) => {
    const start = toFile(p.start);
    const end = toFile(p.end);
    const sourceLine = lineText(text, lines, p.start.line);
    const caretEnd = p.end.line === p.start.line ? p.end.character : sourceLine.length;
    return {
      file,
      line: start.line + 1,
      column: start.character + 1,
      endLine: end.line + 1,
      endColumn: end.character + 1,
      severity: p.severity,
      message: p.message,
      // A diagnostic without a code comes from the parser.
      rule: `${language}/${p.code ?? 'syntax-error'}`,
      ...(where ? { where } : {}),
      sourceLine,
      caretStart: p.start.character,
      caretEnd: Math.max(caretEnd, p.start.character),
    };
  });
}

function fileError(file: string, message: string, rule: string, severity: Severity = 'error'): Finding {
  return {
    file,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
    severity,
    message,
    rule,
    sourceLine: '',
    caretStart: 0,
    caretEnd: 0,
  };
}

/** A path left alone: a link out of its root is a warning, a file that could not be checked an error. */
export function skippedFinding(skip: SkippedPath): Finding {
  const message = skip.code === 'outside-root' ? `Skipped: ${skip.reason}` : `Not checked: ${skip.reason}`;
  return fileError(
    displayPath(skip.path),
    message,
    `file/${skip.code}`,
    skip.code === 'outside-root' ? 'warning' : 'error',
  );
}

/** The findings of one file's documents. */
function checkFile(path: string, text: string, context: CheckContext): Finding[] {
  const file = displayPath(path);
  const kind = kindOf(path);
  if (!kind) return [];
  if ('language' in kind) return findingsOf(file, text, kind.language.check(text, context), kind.language.id);
  try {
    const out: Finding[] = [];
    for (const doc of kind.container.documents(text))
      for (const f of findingsOf(
        file,
        doc.text,
        doc.language.check(doc.text, context),
        doc.language.id,
        doc.toFile,
        doc.label,
      ))
        out.push(f);
    return out;
  } catch (err) {
    if (!(err instanceof ContainerError)) throw err;
    return [fileError(file, err.message, 'notebook/format')];
  }
}

export function runCheck(options: CheckOptions): CheckRun {
  const lists = options.lists ?? (options.listsDir !== undefined ? loadLists(options.listsDir) : undefined);
  const context: CheckContext = { lists };
  const { files, skipped } = collectFiles('check', options.paths);
  const perFile: Finding[][] = [];
  if (lists)
    for (const f of lists.files)
      perFile.push(
        f.skipped ? [skippedFinding(f.skipped)] : findingsOf(displayPath(f.path), f.text, f.problems, 'reference-list'),
      );
  for (const skip of skipped) perFile.push([skippedFinding(skip)]);
  for (const { path, root } of files) {
    const read = readSource(path, root);
    perFile.push(
      'skipped' in read
        ? [skippedFinding({ path, reason: read.skipped, code: read.code })]
        : checkFile(path, read.text, context),
    );
  }
  return capped(perFile, files.length);
}

/** Counts every problem, lists at most MAX_PROBLEMS_PER_FILE of a file and MAX_FINDINGS in all. */
function capped(perFile: readonly Finding[][], filesChecked: number): CheckRun {
  const findings: Finding[] = [];
  let errors = 0;
  let warnings = 0;
  let omitted = 0;
  for (const list of perFile) {
    for (const f of list) {
      if (f.severity === 'error') errors++;
      else if (f.severity === 'warning') warnings++;
    }
    const room = Math.max(0, Math.min(MAX_PROBLEMS_PER_FILE, MAX_FINDINGS - findings.length));
    for (let i = 0; i < Math.min(room, list.length); i++) findings.push(list[i]);
    const left = list.length - Math.min(room, list.length);
    if (left > 0) {
      omitted += left;
      if (room > 0)
        findings.push(
          fileError(
            list[0].file,
            `${left.toLocaleString('en-US')} more problems in this file are not listed`,
            'file/more-problems',
            'info',
          ),
        );
    }
  }
  return { findings, filesChecked, errors, warnings, omitted };
}
