// Command lines: what each command accepts, read strictly (an unknown flag or a missing value is a
// usage error, exit code 2, never silently ignored), and the help text.
import { parseTimeInput } from '../core/secops/timerange';

/** A command line the tool cannot act on; the message says what is wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const EXIT_OK = 0;
/** Problems found (errors, too many warnings, files that would change, bad input data). */
export const EXIT_PROBLEMS = 1;
/** The command line is wrong, a path it names does not exist, or there is nothing to check. */
export const EXIT_USAGE = 2;
/** The tool itself failed (a defect of cloudbench, not of the files): never read as "problems found". */
export const EXIT_CRASH = 3;

/** The flags a command accepts, by name. */
export interface FlagSpec {
  /** Flags that take a value (`--format json` or `--format=json`). */
  readonly values?: readonly string[];
  /** Flags that take none. */
  readonly switches?: readonly string[];
}

export interface ParsedArgs {
  readonly flags: Map<string, string | true>;
  readonly positionals: string[];
}

/** Reads `args` against the flags a command accepts. `--` ends the flags. */
export function parseArgs(command: string, args: readonly string[], spec: FlagSpec): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const takesValue = spec.values?.includes(name) ?? false;
    if (!takesValue && !spec.switches?.includes(name)) throw new UsageError(`${command}: unknown option ${name}`);
    if (flags.has(name)) throw new UsageError(`${command}: ${name} is given twice`);
    if (!takesValue) {
      if (eq > 0) throw new UsageError(`${command}: ${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--')))
      throw new UsageError(`${command}: ${name} needs a value`);
    flags.set(name, value);
  }
  return { flags, positionals };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

/**
 * A time flag in ms: RFC 3339, "now", or an offset from `now` such as -2h, as the editor's time
 * range boxes take them.
 */
export function timeFlag(args: ParsedArgs, name: string, now: number): number | undefined {
  const text = stringFlag(args, name);
  if (text === undefined) return undefined;
  const parsed = parseTimeInput(text, now);
  if ('error' in parsed) throw new UsageError(`${name}: ${parsed.error}`);
  return Date.parse(parsed.value);
}

/** A duration flag in seconds: a positive number, at most a day. */
export function secondsFlag(args: ParsedArgs, name: string, fallback: number): number {
  const text = stringFlag(args, name);
  if (text === undefined) return fallback;
  const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(n > 0 && n <= 86_400))
    throw new UsageError(`${name} needs a number of seconds above 0, at most 86400 (got ${JSON.stringify(text)})`);
  return n;
}

/** A flag whose value is one of `choices`. */
export function choiceFlag<T extends string>(
  command: string,
  args: ParsedArgs,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const v = stringFlag(args, name);
  if (v === undefined) return fallback;
  if (!(choices as readonly string[]).includes(v))
    throw new UsageError(`${command}: ${name} must be ${choices.join(', ')} (got ${JSON.stringify(v)})`);
  return v as T;
}

export const USAGE_LINES: Readonly<Record<string, string>> = {
  check: 'cloudbench check [--format human|json|sarif] [--max-warnings N] [--lists DIR] [--sarif-root DIR] [paths...]',
  format: 'cloudbench format [--check] [paths...]',
  stats: 'cloudbench stats --query FILE --events FILE [--tz ZONE] [--format csv|json] [--lists DIR]',
  mcp: 'cloudbench mcp',
  'test-rule':
    'cloudbench test-rule RULE --events FILE [--start TIME] [--end TIME] [--lists DIR] [--time-limit SECONDS] [--format json|text]',
  coverage: 'cloudbench coverage [--format text|json|markdown] [--layer FILE] [--fail-on-gaps FILE] [paths...]',
  test: 'cloudbench test [--format text|json|junit|sarif] [--minimum-tests N] [--require-fire-and-no-fire] [--fail-on-missing] [paths...]',
};

export function usageLine(command?: string): string {
  if (command && USAGE_LINES[command]) return `usage: ${USAGE_LINES[command]}`;
  return `usage: cloudbench <check|format|stats|test-rule|test|coverage|mcp> [options] [paths...]  (cloudbench --help)`;
}

export function helpText(version: string): string {
  return `cloudbench ${version}: checks, formats and computes Google SecOps UDM queries and YARA-L rules
offline, with the language services of the Cloudbench editor extension. No network, no credentials.

Commands:
  ${USAGE_LINES.check}
      Checks every .udm query, every .yaral rule and every query cell of .udmnb notebooks under the
      paths (default: .) with the editor's diagnostics.
      --format human   file:line:col, severity, message and the line with a caret (default)
      --format json    one JSON document with every problem
      --format sarif   SARIF 2.1.0, for GitHub code scanning: paths relative to the repository
                       (the nearest folder with .git at or above the current one)
      --sarif-root DIR the folder SARIF paths are relative to instead
      --max-warnings N fail when there are more than N warnings
      --lists DIR      reference lists, one file per list (NAME, NAME.txt: strings; NAME.regex;
                       NAME.cidr), so %NAME is checked in queries and rules; without it unknown
                       lists are warnings
      Exit code 1 when there is an error or more warnings than --max-warnings; 2 when no file
      under the paths is one to check.

  ${USAGE_LINES.format}
      Formats the same files with the editor's Format Document, in place (only files that change).
      --check          write nothing; exit code 1 and list the files that would change
      A symbolic link is never replaced and a file that is not UTF-8 never rewritten (both are
      refused, exit code 1); a file is written through a temporary file, keeping its mode and BOM.

  ${USAGE_LINES.stats}
      Computes a statistical query (match:, outcome: ...) over events exported from the results
      view (a JSON array, NDJSON or the Search API's {"events": [...]}), with the editor's
      statistics engine. A YARA-L rule is computed with test-rule, not stats.
      --tz ZONE        IANA time zone of the time buckets (default UTC)
      --format csv     the table as the statistics view exports it (default); json: an array of rows

  ${USAGE_LINES['test-rule']}
      Runs the editor's Test Rule over events exported from the results view instead of udmSearch:
      each event variable gets the events its planned search matches, and the rule's detections
      are printed. What cannot be tested and other notes go to stderr.
      --format json    {"rule": …, "detections": [...]} as the Test Rule panel holds them (default)
      --format text    one line per detection: window, match values, risk score, events
      --lists DIR      the reference lists the rule names, as for check; a rule naming a list
                       that --lists does not hold is refused (exit code 2), not tested without it
      --time-limit S   stop the engine after S seconds (default 20): what it found is printed,
                       the reason goes to stderr and to the JSON as "cut", and the exit code is 1
      --start, --end   only events from --start up to (not including) --end, as the editor's range:
                       RFC 3339 (2024-05-01T12:00:00Z), "now", or an offset such as -7d
      Exit code 1 when the rule has errors (printed as check prints them), cannot be tested, or
      the results are incomplete (cut by --time-limit or the engine's work limit).

  ${USAGE_LINES.coverage}
      The MITRE ATT&CK tactics and techniques the .yaral rules under the paths (default: .) name in
      meta: (tactic/technique, mitre_attack_tactic/mitre_attack_technique/mitre_attack_url, mitre,
      a reference to a technique's attack.mitre.org page),
      tactic by tactic, with the rules that have tests (a <rule>.test.yaml beside the rule).
      Malformed tactic or technique IDs are warnings on stderr.
      --format text    tactics, techniques and their rules (default); json; markdown: a table
      --layer FILE     also write an ATT&CK Navigator layer (format 4.5, enterprise-attack; score:
                       the rules covering a technique) to FILE; --layer - writes it to stdout
                       instead of the table. An existing symbolic link is not written through.
      --fail-on-gaps FILE  technique IDs that must be covered (one or more a line, # comments):
                       exit code 1 naming those no rule covers; a technique is covered by a rule
                       naming it or one of its sub-techniques
  ${USAGE_LINES.mcp}
      A Model Context Protocol server on stdin/stdout for agents: the tools check, format,
      describe_field, list_fields, describe_function, test_rule and stats, offline as above. Files
      must be inside the folder it starts in (no path or symbolic link out of it). It runs until
      stdin closes.
  ${USAGE_LINES.test}
      Runs the test cases of every .yaral rule under the paths (default: .): the cases of
      <rule>.test.yaml beside each rule (schema: media/schemas/rule-test.schema.json), each over its
      own events with Test Rule's engine, offline, compared with what the case expects. A test file
      named on the command line runs alone. Paths a test file names stay inside the repository.
      --format text    pass or fail per case, the differences and the detections found (default)
      --format json    one JSON document; junit: JUnit XML for CI; sarif: SARIF 2.1.0
      --minimum-tests N          fail a rule with fewer than N cases
      --require-fire-and-no-fire fail a rule without a case that fires and one that does not
      --fail-on-missing          fail a rule without a test file (otherwise it is noted)
      Exit code 1 when a case fails or cannot run, a test file is not valid, or a rule breaks the
      options above; 2 when no rule is under the paths.

  cloudbench --help | --version

Files: a symbolic link is followed only to a place inside the folder it was found in (a folder
given on the command line or to --lists; for a path given that is itself a link, the folder holding
it); a link out of it is skipped with a warning and never read, a link to a folder is not walked.
A file that is not UTF-8 or is larger than 10 MB is reported and not checked.
Output: control, bidi and invisible characters in names, messages and echoed source are printed as
\\uXXXX escapes (\\n, \\r, \\t) and no line can start a CI workflow command (a leading :: and ##
before [ are escaped); echoed source is 120 characters around the problem, at most 100 problems of a file and
1,000 in all are listed (the rest are counted).

Exit codes: 0 clean, 1 problems found, 2 bad usage (unknown option, missing path) or nothing to
check, 3 the tool itself failed (a defect to report; never a verdict on the files).
`;
}
