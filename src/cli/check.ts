// `cloudbench check`: the editor's diagnostics for every file under the paths, as findings in file
// coordinates that the reports (human, JSON, SARIF) print.
import { readFileSync } from 'node:fs';
import { LineIndex } from '../udm/index';
import { collectFiles, displayPath, kindOf } from './files';
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
  readonly findings: Finding[];
  readonly filesChecked: number;
  readonly errors: number;
  readonly warnings: number;
}

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
      rule: p.code ? `${language}/${p.code}` : language,
      ...(where ? { where } : {}),
      sourceLine,
      caretStart: p.start.character,
      caretEnd: Math.max(caretEnd, p.start.character),
    };
  });
}

function fileError(file: string, message: string, rule: string): Finding {
  return {
    file,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
    severity: 'error',
    message,
    rule,
    sourceLine: '',
    caretStart: 0,
    caretEnd: 0,
  };
}

export function runCheck(options: CheckOptions): CheckRun {
  const lists = options.lists ?? (options.listsDir !== undefined ? loadLists(options.listsDir) : undefined);
  const context: CheckContext = { lists };
  const files = collectFiles('check', options.paths);
  const findings: Finding[] = [];
  if (lists)
    for (const f of lists.files)
      findings.push(...findingsOf(displayPath(f.path), f.text, f.problems, 'reference-list'));
  for (const path of files) {
    const file = displayPath(path);
    const kind = kindOf(path);
    if (!kind) continue;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      findings.push(
        fileError(file, `Cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`, 'io'),
      );
      continue;
    }
    if ('language' in kind) {
      findings.push(...findingsOf(file, text, kind.language.check(text, context), kind.language.id));
      continue;
    }
    try {
      for (const doc of kind.container.documents(text))
        findings.push(
          ...findingsOf(file, doc.text, doc.language.check(doc.text, context), doc.language.id, doc.toFile, doc.label),
        );
    } catch (err) {
      if (!(err instanceof ContainerError)) throw err;
      findings.push(fileError(file, err.message, 'notebook'));
    }
  }
  let errors = 0;
  let warnings = 0;
  for (const f of findings) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
  }
  return { findings, filesChecked: files.length, errors, warnings };
}
