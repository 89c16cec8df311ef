// `cloudbench format`: the editor's Format Document over files. Without --check it writes a file
// only when its text changes (atomically, so an interrupted run never leaves half a file); with
// --check it writes nothing and lists the files that would change.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { collectFiles, displayPath, kindOf } from './files';
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

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.cloudbench-${process.pid}.tmp`;
  // The file keeps its permissions (an executable bit, a group's write access).
  writeFileSync(tmp, text, { encoding: 'utf8', mode: statSync(path).mode & 0o7777 });
  renameSync(tmp, path);
}

export function runFormat(paths: readonly string[], checkOnly: boolean): FormatOutcome[] {
  return collectFiles('format', paths).map((path): FormatOutcome => {
    const file = displayPath(path);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      return {
        file,
        status: 'refused',
        reason: `cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      };
    }
    const r = formatFile(path, text);
    if ('refusal' in r) return { file, status: 'refused', reason: r.refusal };
    if (r.text === text) return { file, status: 'unchanged' };
    if (!checkOnly) writeAtomic(path, r.text);
    return { file, status: 'changed' };
  });
}
