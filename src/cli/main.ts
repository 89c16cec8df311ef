// The `cloudbench` command (dist/cli.js): the editor's UDM and YARA-L language services and its Test
// Rule computation on the command line, for CI and git hooks. Offline by design: it reads the files
// it is given and writes to stdout, stderr and (format only) the files themselves; it opens no
// connection and reads no credentials.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { version } from '../../package.json';
import { runCheck } from './check';
import { coverage } from './coverage-command';
import { EventsFileError } from './events';
import { runFormat } from './format';
import { startMcpServer } from './mcp';
import { humanReport, jsonReport } from './report';
import { sarifReport } from './sarif';
import { runStats, StatsInputError } from './stats';
import { DEFAULT_TIME_LIMIT_SECONDS, runTestRule, testRuleReport, TestRuleInputError } from './test-rule';
import { runTests } from './test';
import { testReport } from './test-report';
import { cliMessage, cliText, defuseWorkflowCommands } from './text';
import {
  EXIT_CRASH,
  EXIT_OK,
  EXIT_PROBLEMS,
  EXIT_USAGE,
  UsageError,
  choiceFlag,
  helpText,
  parseArgs,
  secondsFlag,
  stringFlag,
  timeFlag,
  usageLine,
} from './usage';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

function check(args: readonly string[], io: Io): number {
  const parsed = parseArgs('check', args, { values: ['--format', '--max-warnings', '--lists', '--sarif-root'] });
  const format = choiceFlag('check', parsed, '--format', ['human', 'json', 'sarif'] as const, 'human');
  const sarifRoot = stringFlag(parsed, '--sarif-root');
  if (sarifRoot !== undefined && !isFolder(sarifRoot))
    throw new UsageError(`check: --sarif-root ${cliText(sarifRoot)} is not a folder`);
  const maxText = stringFlag(parsed, '--max-warnings');
  if (maxText !== undefined && !/^\d+$/.test(maxText))
    throw new UsageError(`check: --max-warnings needs a whole number from 0 (got ${JSON.stringify(maxText)})`);
  const maxWarnings = maxText === undefined ? undefined : Number(maxText);
  const listsDir = stringFlag(parsed, '--lists');
  const run = runCheck({ paths: parsed.positionals, ...(listsDir !== undefined ? { listsDir } : {}) });
  if (format === 'json') io.out(jsonReport(run, version));
  else if (format === 'sarif')
    io.out(sarifReport(run, version, process.cwd(), sarifRoot !== undefined ? resolve(sarifRoot) : undefined));
  else io.out(humanReport(run, maxWarnings));
  const failed = run.errors > 0 || (maxWarnings !== undefined && run.warnings > maxWarnings);
  return failed ? EXIT_PROBLEMS : EXIT_OK;
}

function format(args: readonly string[], io: Io): number {
  const parsed = parseArgs('format', args, { switches: ['--check'] });
  const checkOnly = parsed.flags.has('--check');
  const outcomes = runFormat(parsed.positionals, checkOnly);
  let failed = false;
  for (const o of outcomes) {
    const file = cliText(o.file);
    if (o.status === 'refused') {
      failed = true;
      // The formatter's refusals say "Not formatted: …" themselves.
      const reason = cliMessage((o.reason ?? '').replace(/^not formatted: /i, ''));
      io.err(`${file}: not formatted: ${reason}\n`);
    } else if (o.status === 'changed') {
      if (checkOnly) failed = true;
      io.out(checkOnly ? `${file}\n` : `formatted ${file}\n`);
    }
  }
  const changed = outcomes.filter((o) => o.status === 'changed').length;
  if (checkOnly && changed)
    io.err(
      `${changed} of ${outcomes.length} file${outcomes.length === 1 ? '' : 's'} would change; run cloudbench format to fix them.\n`,
    );
  return failed ? EXIT_PROBLEMS : EXIT_OK;
}

function stats(args: readonly string[], io: Io): number {
  const parsed = parseArgs('stats', args, { values: ['--query', '--events', '--tz', '--format', '--lists'] });
  if (parsed.positionals.length) throw new UsageError(`stats: unexpected argument ${parsed.positionals[0]}`);
  const queryFile = stringFlag(parsed, '--query');
  const eventsFile = stringFlag(parsed, '--events');
  if (queryFile === undefined) throw new UsageError('stats: --query FILE is required');
  if (eventsFile === undefined) throw new UsageError('stats: --events FILE is required');
  const listsDir = stringFlag(parsed, '--lists');
  const result = runStats({
    queryFile,
    eventsFile,
    timeZone: stringFlag(parsed, '--tz') ?? 'UTC',
    format: choiceFlag('stats', parsed, '--format', ['csv', 'json'] as const, 'csv'),
    ...(listsDir !== undefined ? { listsDir } : {}),
  });
  for (const w of result.warnings) io.err(`warning: ${cliMessage(w)}\n`);
  io.out(result.text);
  return EXIT_OK;
}

function testRule(args: readonly string[], io: Io): number {
  const parsed = parseArgs('test-rule', args, {
    values: ['--events', '--lists', '--format', '--start', '--end', '--time-limit'],
  });
  if (parsed.positionals.length === 0) throw new UsageError('test-rule: the RULE file (.yaral) is required');
  if (parsed.positionals.length > 1)
    throw new UsageError(`test-rule: one RULE file at a time (unexpected ${cliText(parsed.positionals[1])})`);
  const eventsFile = stringFlag(parsed, '--events');
  if (eventsFile === undefined) throw new UsageError('test-rule: --events FILE is required');
  const format = choiceFlag('test-rule', parsed, '--format', ['json', 'text'] as const, 'json');
  const listsDir = stringFlag(parsed, '--lists');
  const now = Date.now();
  const startMs = timeFlag(parsed, '--start', now);
  const endMs = timeFlag(parsed, '--end', now);
  if (startMs !== undefined && endMs !== undefined && startMs >= endMs)
    throw new UsageError('test-rule: --start must be before --end');
  const timeLimit = secondsFlag(parsed, '--time-limit', DEFAULT_TIME_LIMIT_SECONDS);
  const outcome = runTestRule({
    ruleFile: parsed.positionals[0],
    eventsFile,
    deadline: now + timeLimit * 1000,
    ...(listsDir !== undefined ? { listsDir } : {}),
    ...(startMs !== undefined ? { startMs } : {}),
    ...(endMs !== undefined ? { endMs } : {}),
  });
  const report = testRuleReport(outcome, format);
  if (report.err) io.err(report.err);
  if (report.out) io.out(report.out);
  return report.code;
}

function test(args: readonly string[], io: Io): number {
  const parsed = parseArgs('test', args, {
    values: ['--format', '--minimum-tests'],
    switches: ['--require-fire-and-no-fire', '--fail-on-missing'],
  });
  const format = choiceFlag('test', parsed, '--format', ['text', 'json', 'junit', 'sarif'] as const, 'text');
  const minText = stringFlag(parsed, '--minimum-tests');
  if (minText !== undefined && !/^\d{1,6}$/.test(minText))
    throw new UsageError(`test: --minimum-tests needs a whole number from 0 (got ${JSON.stringify(minText)})`);
  const run = runTests({
    paths: parsed.positionals,
    ...(minText !== undefined ? { minimumTests: Number(minText) } : {}),
    requireFireAndNoFire: parsed.flags.has('--require-fire-and-no-fire'),
    failOnMissing: parsed.flags.has('--fail-on-missing'),
  });
  const report = testReport(run, format, version);
  io.out(report.out);
  return report.code;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `cloudbench mcp`: the server answers on stdio until stdin closes; a failure to start is exit code 3. */
function mcp(args: readonly string[], io: Io): number {
  if (args.length) throw new UsageError(`mcp: unexpected argument ${cliText(args[0])}`);
  startMcpServer().catch((err: unknown) => {
    io.err(crashMessage(err));
    process.exitCode = EXIT_CRASH;
  });
  return EXIT_OK;
}

const COMMANDS: Record<string, (args: readonly string[], io: Io) => number> = {
  check,
  format,
  stats,
  'test-rule': testRule,
  coverage,
  mcp,
  test,
};

/** Runs one command line; returns the exit code. */
export function main(argv: readonly string[], io: Io): number {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(helpText(version));
    return EXIT_OK;
  }
  if (command === '--version' || command === '-v') {
    io.out(`${version}\n`);
    return EXIT_OK;
  }
  const run = command !== undefined ? COMMANDS[command] : undefined;
  if (!run) {
    io.err(
      `${command === undefined ? 'cloudbench: no command given' : `cloudbench: unknown command ${cliText(command)}`}\n${usageLine()}\n`,
    );
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`${usageLine(command)}\n`);
    return EXIT_OK;
  }
  try {
    return run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${escapedLines(err.message)}\n${usageLine(command)}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof StatsInputError || err instanceof EventsFileError || err instanceof TestRuleInputError) {
      io.err(`${escapedLines(err.message)}\n`);
      return EXIT_PROBLEMS;
    }
    throw err;
  }
}

/** A message of several lines, each escaped and bounded (they quote paths and file text). */
function escapedLines(message: string): string {
  return message
    .split('\n')
    .map((line) => cliMessage(line))
    .join('\n');
}

/** What the tool says when it fails itself: one short line, never the input's text at length. */
export function crashMessage(err: unknown): string {
  const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return `cloudbench: internal error (${cliMessage(what.split('\n')[0], 200)}); this is a defect of cloudbench, not a verdict on the files. Exit code ${EXIT_CRASH}.\n`;
}

/** Runs one command line as the process does: any failure of the tool itself is exit code 3. */
export function runProcess(argv: readonly string[], io: Io): number {
  try {
    return main(argv, io);
  } catch (err) {
    try {
      io.err(crashMessage(err));
    } catch {
      // stderr itself failed: the exit code still tells.
    }
    return EXIT_CRASH;
  }
}

if (require.main === module) {
  // A reader that stops early (`| head`) is not an error of the check.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err: NodeJS.ErrnoException) => {
      process.exit(err.code === 'EPIPE' ? (process.exitCode ?? 0) : EXIT_CRASH);
    });
  // Every line goes out defused: the last guard against a workflow command from a file's text.
  const code = runProcess(process.argv.slice(2), {
    out: (text) => process.stdout.write(defuseWorkflowCommands(text)),
    err: (text) => process.stderr.write(defuseWorkflowCommands(text)),
  });
  // Let stdout drain (a pipe to a file or another tool) before the process ends.
  process.exitCode = code;
}
