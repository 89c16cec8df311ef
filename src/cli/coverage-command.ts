// The `cloudbench coverage` command line: flags, the layer file, the report and the exit code.
import { writeFileSync } from 'node:fs';
import { version } from '../../package.json';
import { navigatorLayer } from '../udm/rule/coverage';
import { runCoverage } from './coverage';
import { coverageJson, coverageMarkdown, coverageText, notesText } from './coverage-report';
import { lstatOrNothing } from './input';
import type { Io } from './main';
import { cliText, jsonText } from './text';
import { EXIT_OK, EXIT_PROBLEMS, UsageError, choiceFlag, parseArgs, stringFlag } from './usage';

/** Writes the layer to `path`, never through a symbolic link or over a folder. */
function writeLayer(path: string, text: string): void {
  const existing = lstatOrNothing(path);
  if (existing?.isSymbolicLink())
    throw new UsageError(`coverage: --layer ${cliText(path)} is a symbolic link; not written through`);
  if (existing && !existing.isFile()) throw new UsageError(`coverage: --layer ${cliText(path)} is not a file`);
  try {
    writeFileSync(path, text, { encoding: 'utf8', mode: 0o644 });
  } catch (err) {
    throw new UsageError(
      `coverage: cannot write --layer ${cliText(path)} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

export function coverage(args: readonly string[], io: Io): number {
  const parsed = parseArgs('coverage', args, { values: ['--format', '--layer', '--fail-on-gaps'] });
  const format = choiceFlag('coverage', parsed, '--format', ['text', 'json', 'markdown'] as const, 'text');
  const layerFile = stringFlag(parsed, '--layer');
  if (layerFile === '-' && parsed.flags.has('--format'))
    throw new UsageError('coverage: --layer - writes the layer to stdout; --format has nothing left to write to');
  const requiredFile = stringFlag(parsed, '--fail-on-gaps');
  const run = runCoverage({ paths: parsed.positionals, ...(requiredFile !== undefined ? { requiredFile } : {}) });
  io.err(notesText(run.notes));
  if (layerFile !== undefined) {
    const layer = `${jsonText(navigatorLayer(run.coverage))}\n`;
    if (layerFile === '-') io.out(layer);
    else writeLayer(layerFile, layer);
  }
  if (layerFile !== '-')
    io.out(
      format === 'json'
        ? coverageJson(run, version)
        : format === 'markdown'
          ? coverageMarkdown(run)
          : coverageText(run),
    );
  if (run.missing.length) {
    io.err(
      `coverage: ${run.missing.length} of ${run.required} required techniques not covered: ${run.missing.join(', ')}\n`,
    );
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}
