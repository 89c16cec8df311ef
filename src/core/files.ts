// Files Cloudbench writes with Node's fs (the code cache): written whole to a temporary file in the
// same folder, flushed, then renamed over the target, so a crash or a full disk mid-write leaves the
// old file or none, never a truncated one. Same folder, because a rename is atomic only within one
// file system. Files written through VS Code's file system use src/platform/files.ts.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A name for the temporary sibling of `path`: hidden, unique, recognisable as Cloudbench's. */
export function temporarySibling(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export function writeFileAtomicSync(path: string, data: Uint8Array | string): void {
  const temp = temporarySibling(path);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
