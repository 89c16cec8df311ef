// `cloudbench coverage`: the ATT&CK tactics and techniques the rules under the paths name in meta:,
// as a table and as a MITRE ATT&CK Navigator layer, and the required techniques they miss. Files are
// found and read as `check` reads them (links kept inside their root, size and UTF-8 checked); a
// rule's tests are only looked for (`<rule>.test.yaml` beside it), never read.
import { statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import {
  buildCoverage,
  coveredRules,
  missingTechniques,
  parseRequiredTechniques,
  type Coverage,
  type CoveredRule,
} from '../udm/rule/coverage';
import { collectFiles, displayPath } from './files';
import { MAX_SOURCE_BYTES, readGiven, readSource } from './input';
import { cliText } from './text';
import { UsageError } from './usage';

/** A problem to report on stderr: a malformed ID (warning) or a file not read. */
export interface CoverageNote {
  readonly file: string;
  /** 1-based; 0 for the file as a whole */
  readonly line: number;
  readonly column: number;
  readonly severity: 'warning' | 'error';
  readonly message: string;
}

export interface CoverageRun {
  readonly coverage: Coverage;
  readonly notes: CoverageNote[];
  /** required techniques no rule covers (empty without --fail-on-gaps) */
  readonly missing: string[];
  /** how many techniques were required */
  readonly required: number;
}

/** The test file of a rule: `<rule>.test.yaml` beside `<rule>.yaral`. */
export function testFileOf(ruleFile: string): string {
  return join(dirname(ruleFile), `${basename(ruleFile, extname(ruleFile))}.test.yaml`);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface CoverageOptions {
  readonly paths: readonly string[];
  /** the file of techniques that must be covered */
  readonly requiredFile?: string;
}

/** The coverage of the rules under `paths`. Throws UsageError for bad paths or a bad required list. */
export function runCoverage(options: CoverageOptions): CoverageRun {
  for (const given of options.paths)
    if (isFile(given) && extname(given).toLowerCase() !== '.yaral')
      throw new UsageError(`coverage: ${cliText(given)} is not a .yaral rule file`);
  const required = options.requiredFile !== undefined ? readRequired(options.requiredFile) : [];
  const { files, skipped } = collectFiles('coverage', options.paths);
  const rules = files.filter((f) => extname(f.path).toLowerCase() === '.yaral');
  if (rules.length === 0 && skipped.length === 0)
    throw new UsageError(
      `coverage: no .yaral rule under ${(options.paths.length ? options.paths : ['.']).map(cliText).join(', ')}`,
    );
  const notes: CoverageNote[] = skipped.map((s) => note(s.path, `Skipped: ${s.reason}`, 'warning'));
  const covered: CoveredRule[] = [];
  for (const { path, root } of rules) {
    const read = readSource(path, root);
    if ('skipped' in read) {
      notes.push(note(path, `Not read: ${read.skipped}`, 'error'));
      continue;
    }
    const file = displayPath(path);
    const found = coveredRules(read.text, file, isFile(testFileOf(path)));
    covered.push(...found.rules);
    for (const p of found.problems) notes.push({ file, ...p, severity: 'warning' });
  }
  const coverage = buildCoverage(covered);
  return { coverage, notes, missing: missingTechniques(coverage, required), required: required.length };
}

function note(path: string, message: string, severity: CoverageNote['severity']): CoverageNote {
  return { file: displayPath(path), line: 0, column: 0, severity, message };
}

/** The technique IDs of a --fail-on-gaps file; anything else in it is a usage error. */
function readRequired(path: string): string[] {
  const read = readGiven(
    path,
    MAX_SOURCE_BYTES,
    (why) => new UsageError(`coverage: --fail-on-gaps ${cliText(path)}: ${why}`),
  );
  if ('skipped' in read) throw new UsageError(`coverage: --fail-on-gaps ${cliText(path)}: ${read.skipped}`);
  const list = parseRequiredTechniques(read.text);
  if (list.problems.length) {
    const shown = list.problems
      .slice(0, 5)
      .map((p) => `line ${p.line}: ${JSON.stringify(p.text.slice(0, 40))}`)
      .join('; ');
    throw new UsageError(
      `coverage: --fail-on-gaps ${cliText(path)} holds what is not a technique ID (T1059 or T1059.001): ${cliText(shown)}${list.problems.length > 5 ? ` and ${list.problems.length - 5} more` : ''}`,
    );
  }
  if (list.ids.length === 0) throw new UsageError(`coverage: --fail-on-gaps ${cliText(path)} names no technique`);
  return list.ids;
}
