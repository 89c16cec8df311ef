// `cloudbench stats`: a statistical query (match:, outcome:, condition:, order:, limit:) computed
// over an events file with the editor's statistics engine, written as the statistics view exports
// its table (CSV, or JSON rows keyed by column).
import { exportTable } from '../core/secops/statistics/protocol';
import { compileQuery, type CompileOptions } from '../udm/index';
import { compileStatistics } from '../udm/stats';
import { readEvents } from './events';
import { kindOf } from './files';
import { MAX_EVENTS_BYTES, MAX_SOURCE_BYTES, readGiven } from './input';
import { loadLists } from './lists';
import { cliText } from './text';
import { UsageError } from './usage';

export interface StatsOptions {
  readonly queryFile: string;
  readonly eventsFile: string;
  readonly timeZone: string;
  readonly format: 'csv' | 'json';
  readonly listsDir?: string;
}

/** A query or events file the command cannot compute over; the message says why and where. */
export class StatsInputError extends Error {
  override readonly name = 'StatsInputError';
}

export interface StatsOutput {
  readonly text: string;
  readonly warnings: readonly string[];
}

function readInput(flag: string, path: string, maxBytes: number): string {
  const read = readGiven(path, maxBytes, (why) => new UsageError(`stats: ${flag} ${cliText(path)}: ${why}`));
  if ('skipped' in read) throw new StatsInputError(`${path}: ${read.skipped}`);
  return read.text;
}

/** A YARA-L rule rather than a query: by its extension, or a `rule name {` heading. */
function isRule(path: string, text: string): boolean {
  const kind = kindOf(path);
  if (kind && 'language' in kind && kind.language.id === 'yaral') return true;
  return /^\s*(?:\/\/[^\n]*\n\s*)*rule\s+[A-Za-z_][A-Za-z0-9_]*\s*\{/.test(text);
}

export function checkTimeZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new UsageError(
      `stats: --tz ${JSON.stringify(zone)} is not an IANA time zone (for example UTC, Europe/Berlin)`,
    );
  }
}

export function runStats(options: StatsOptions): StatsOutput {
  const timeZone = checkTimeZone(options.timeZone);
  const query = readInput('--query', options.queryFile, MAX_SOURCE_BYTES);
  if (isRule(options.queryFile, query))
    throw new StatsInputError(
      `${options.queryFile} is a YARA-L rule, not a statistical query: run it over the events with ` +
        `cloudbench test-rule ${options.queryFile} --events ${options.eventsFile}`,
    );
  const eventsText = readInput('--events', options.eventsFile, MAX_EVENTS_BYTES);
  const lists = options.listsDir !== undefined ? loadLists(options.listsDir) : undefined;
  // Without --lists no list is known: a query naming one is refused rather than computed as if the
  // list were empty.
  const compileOptions: CompileOptions = lists
    ? { referenceLists: lists.entries, knownLists: lists.known }
    : { knownLists: new Map() };
  const compiled = compileStatistics(query, compileOptions);
  if (!compiled)
    throw new StatsInputError(
      `${options.queryFile}: the query has no match: or outcome: section, so there is no table to compute`,
    );
  if (compiled.hasErrors) {
    const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
    const lines = errors.map(
      (d) => `${options.queryFile}:${d.range.start.line + 1}:${d.range.start.character + 1}: error: ${d.message}`,
    );
    if (!lists && errors.some((d) => d.code === 'unknown-list'))
      lines.push('Give the reference lists the query names with --lists DIR (one file per list).');
    throw new StatsInputError(lines.join('\n'));
  }
  const events = readEvents(options.eventsFile, eventsText);
  // The filtering statements too: exported events usually match them already, but an events file
  // from another query must not count events this one would not have searched for.
  const filter = compileQuery(query, compileOptions);
  const result = compiled.engine.run(events, { timeZone, filter: (event) => filter.matches(event) });
  return {
    text: exportTable(options.format, result.columns, result.rows, timeZone),
    warnings: result.warnings,
  };
}
