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
/** The command line is wrong, or a path it names does not exist. */
export const EXIT_USAGE = 2;

export interface FlagSpec {
  /** Takes a value (`--format json` or `--format=json`); otherwise a switch. */
  readonly value: boolean;
}

export interface ParsedArgs {
  readonly flags: Map<string, string | true>;
  readonly positionals: string[];
}

/** Reads `args` against the flags a command accepts. `--` ends the flags. */
export function parseArgs(command: string, args: readonly string[], spec: Record<string, FlagSpec>): ParsedArgs {
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
    const flag = spec[name];
    if (!flag) throw new UsageError(`${command}: unknown option ${name}`);
    if (flags.has(name)) throw new UsageError(`${command}: ${name} is given twice`);
    if (!flag.value) {
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
  check: 'cloudbench check [--format human|json|sarif] [--max-warnings N] [--lists DIR] [paths...]',
  format: 'cloudbench format [--check] [paths...]',
  stats: 'cloudbench stats --query FILE --events FILE [--tz ZONE] [--format csv|json] [--lists DIR]',
  'test-rule': 'cloudbench test-rule RULE --events FILE [--start TIME] [--end TIME] [--lists DIR] [--format json|text]',
};

export function usageLine(command?: string): string {
  if (command && USAGE_LINES[command]) return `usage: ${USAGE_LINES[command]}`;
  return `usage: cloudbench <check|format|stats|test-rule> [options] [paths...]  (cloudbench --help)`;
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
      --format sarif   SARIF 2.1.0, for GitHub code scanning
      --max-warnings N fail when there are more than N warnings
      --lists DIR      reference lists, one file per list (NAME, NAME.txt: strings; NAME.regex;
                       NAME.cidr), so %NAME is checked in queries and rules; without it unknown
                       lists are warnings
      Exit code 1 when there is an error or more warnings than --max-warnings.

  ${USAGE_LINES.format}
      Formats the same files with the editor's Format Document, in place (only files that change).
      --check          write nothing; exit code 1 and list the files that would change

  ${USAGE_LINES.stats}
      Computes a statistical query (match:, outcome: ...) over events exported from the results
      view (a JSON array or NDJSON, one event per line), with the editor's statistics engine.
      --tz ZONE        IANA time zone of the time buckets (default UTC)
      --format csv     the table as the statistics view exports it (default); json: an array of rows

  ${USAGE_LINES['test-rule']}
      Runs the editor's Test Rule over events exported from the results view instead of udmSearch:
      each event variable gets the events its planned search matches, and the rule's detections
      are printed. What cannot be tested and other notes go to stderr.
      --format json    {"rule": …, "detections": [...]} as the Test Rule panel holds them (default)
      --format text    one line per detection: window, match values, risk score, events
      --lists DIR      the reference lists the rule names, as for check
      --start, --end   only events from --start up to (not including) --end, as the editor's range:
                       RFC 3339 (2024-05-01T12:00:00Z), "now", or an offset such as -7d
      Exit code 1 when the rule has errors (printed as check prints them) or cannot be tested.

  cloudbench --help | --version

Exit codes: 0 clean, 1 problems found, 2 bad usage (unknown option, missing path).
`;
}
