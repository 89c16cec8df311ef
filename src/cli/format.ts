// `cloudbench format`: the editor's Format Document over files. Without --check it writes a file
// only when its text changes (atomically, so an interrupted run never leaves half a file); with
// --check it writes nothing and lists the files that would change. It never writes through a
// symbolic link, nor a file that is not UTF-8 (which decoding would corrupt); a byte order mark
// stays.
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { collectFiles, displayPath, kindOf } from './files';
import { readSource, withBom } from './input';
import { ContainerError } from './notebook';

export interface FormatOutcome {
  readonly file: string;
  /** What happened: unchanged, (would be) changed, or why it could not be formatted. */
  readonly status: 'unchanged' | 'changed' | 'refused';
  readonly reason?: string;
}

/** The formatted text of a file, or why it cannot be formatted. */
function formatFile(path: string, text: string): { text: string } | { refusal: string } {
  const kind = kindOf(path);
  if (!kind) return { text };
  if ('language' in kind) {
    const r = kind.language.format(text);
    // The editor applies the formatter's edit in the document's own line ends; so does the file.
    if ('text' in r && text.includes('\r\n')) return { text: r.text.replace(/\r?\n/g, '\r\n') };
    return r;
  }
  let docs;
  try {
    docs = kind.container.documents(text);
  } catch (err) {
    if (err instanceof ContainerError) return { refusal: err.message };
    throw err;
  }
  const texts: string[] = [];
  for (const doc of docs) {
    const r = doc.language.format(doc.text);
    if ('refusal' in r) return { refusal: `${doc.label}: ${r.refusal}` };
    texts.push(r.text);
  }
  return { text: kind.container.replace(text, docs, texts) };
}

/**
 * Writes through a new temporary file in the same folder (created exclusively, with the file's
 * mode) and a rename, so an interrupted run never leaves half a file. Never through a link: a link
 * is refused before this.
 */
function writeAtomic(path: string, text: string, mode: number): void {
  const tmp = join(dirname(path), `.${basename(path)}.cloudbench-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text, { encoding: 'utf8', mode, flag: 'wx' });
    // The umask may have taken bits away: the file keeps its permissions (an executable bit, a
    // group's write access).
    chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

function formatOne(path: string, root: string, checkOnly: boolean): FormatOutcome {
  const file = displayPath(path);
  let stat;
  try {
    stat = lstatSync(path);
  } catch (err) {
    return {
      file,
      status: 'refused',
      reason: `cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    };
  }
  // A link is never replaced by a file, whether it leads inside the root or out of it.
  if (stat.isSymbolicLink())
    return { file, status: 'refused', reason: 'a symbolic link; format the file it points to instead' };
  const read = readSource(path, root);
  if ('skipped' in read) return { file, status: 'refused', reason: read.skipped };
  const r = formatFile(path, read.text);
  if ('refusal' in r) return { file, status: 'refused', reason: r.refusal };
  if (r.text === read.text) return { file, status: 'unchanged' };
  if (!checkOnly) {
    try {
      writeAtomic(path, withBom(r.text, read.bom), stat.mode & 0o7777);
    } catch (err) {
      return {
        file,
        status: 'refused',
        reason: `cannot write it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      };
    }
  }
  return { file, status: 'changed' };
}

export function runFormat(paths: readonly string[], checkOnly: boolean): FormatOutcome[] {
  const { files, skipped } = collectFiles('format', paths);
  return [
    ...skipped.map((s): FormatOutcome => ({ file: displayPath(s.path), status: 'refused', reason: s.reason })),
    ...files.map(({ path, root }) => formatOne(path, root, checkOnly)),
  ];
}
