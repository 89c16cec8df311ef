// Reference lists from a folder (`--lists DIR`): one file per list, as the Reference Lists view
// holds a list: one entry per line, `//` comment lines, blank lines ignored. The file name is the
// list's name as a query writes it after `%`; the extension gives its content type (none or `.txt`:
// strings, `.regex`: regular expressions, `.cidr`: CIDR ranges). Each file is checked as the list
// editor checks it, so a bad pattern in a list fails the check like a bad query does.
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import {
  checkReferenceListName,
  lintReferenceList,
  referenceListEntries,
  splitReferenceListText,
  type ReferenceListContentType,
} from '../core/secops/reference-lists';
import type { KnownReferenceList } from '../udm/index';
import type { SkippedPath } from './files';
import { lstatOrNothing, readSource, realInside, rootOf } from './input';
import type { Problem } from './languages';
import { cliText } from './text';
import { UsageError } from './usage';

export const LIST_EXTENSIONS: Readonly<Record<string, ReferenceListContentType>> = {
  '': 'CONTENT_TYPE_DEFAULT_STRING',
  '.txt': 'CONTENT_TYPE_DEFAULT_STRING',
  '.regex': 'REGEX',
  '.cidr': 'CIDR',
};

/** How many entries hover would preview; kept so the known-list table looks as the editor's. */
const PREVIEW = 5;

export interface ListFile {
  readonly path: string;
  readonly text: string;
  readonly problems: Problem[];
  /** The file was not read (a link out of the folder, too large, not UTF-8): why. */
  readonly skipped?: SkippedPath;
}

export interface LoadedLists {
  /** Entries by list name, for the checker (unknown names are errors, entries are checked). */
  readonly entries: Record<string, string[]>;
  /** Names with content types, for the checker's `in regex` / `in cidr` checks. */
  readonly known: Map<string, KnownReferenceList>;
  /** Every list file with what is wrong in it. */
  readonly files: ListFile[];
}

function whole(line: string, i: number): Pick<Problem, 'start' | 'end'> {
  return { start: { line: i, character: 0 }, end: { line: i, character: line.length } };
}

/** A file, or a link (to anything: readSource decides whether it may be followed). */
function isListFile(path: string): boolean {
  const stat = lstatOrNothing(path);
  return stat !== undefined && (stat.isFile() || stat.isSymbolicLink());
}

export function loadLists(dir: string): LoadedLists {
  let names: string[];
  let root: string;
  const shown = cliText(dir);
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`--lists ${shown}: not a folder`);
    const inside = realInside(dir, rootOf(dir));
    if ('skipped' in inside) throw new UsageError(`--lists ${shown}: ${inside.skipped}`);
    root = inside.real;
    names = readdirSync(dir).sort();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--lists ${shown}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const entries: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const known = new Map<string, KnownReferenceList>();
  const files: ListFile[] = [];
  const pathOf = new Map<string, string>();
  for (const fileName of names) {
    if (fileName.startsWith('.')) continue;
    const path = join(dir, fileName);
    const ext = extname(fileName).toLowerCase();
    const type = LIST_EXTENSIONS[ext];
    if (type === undefined || !isListFile(path)) continue;
    const name = fileName.slice(0, fileName.length - ext.length);
    const read = readSource(path, root);
    if ('skipped' in read) {
      files.push({ path, text: '', problems: [], skipped: { path, reason: read.skipped, code: read.code } });
      continue;
    }
    const text = read.text;
    const lines = splitReferenceListText(text);
    const problems: Problem[] = [];
    const badName = checkReferenceListName(name);
    const other = pathOf.get(name);
    if (badName) problems.push({ severity: 'error', message: badName, code: 'list-name', ...whole(lines[0] ?? '', 0) });
    else if (other)
      problems.push({
        severity: 'error',
        message: `Another file already defines %${name} (${other}); keep one file per list.`,
        code: 'list-name',
        ...whole(lines[0] ?? '', 0),
      });
    for (const p of lintReferenceList(type, lines))
      problems.push({
        severity: p.severity,
        message: p.message,
        code: 'list-entry',
        start: { line: p.line, character: p.start },
        end: { line: p.line, character: Math.max(p.start, p.end) },
      });
    files.push({ path, text, problems });
    if (badName || other) continue;
    pathOf.set(name, path);
    const listed = referenceListEntries(lines);
    entries[name] = listed;
    known.set(name, { name, contentType: type, size: listed.length, preview: listed.slice(0, PREVIEW) });
  }
  return { entries, known, files };
}
