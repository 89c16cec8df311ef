// Reading files from a repository that may be hostile. The policy, in one place:
// - A symbolic link is followed only when its real path lies inside the root it was found under:
//   a folder or list folder given on the command line, or, for a path given on the command line
//   that is itself a link, the folder holding it. A link out of the root is skipped and reported;
//   its target is never opened, so its content cannot reach stdout, stderr or a SARIF log.
// - Only regular files are read (no FIFO, device or socket), through the real path with
//   O_NOFOLLOW, size checked before reading and the read itself bounded (a /proc file says 0).
// - The bytes must be UTF-8 (checked strictly): anything else is reported, never decoded with
//   replacement characters (which `format` would then write back). A UTF-8 byte order mark is
//   kept apart so the text the language service sees starts where the editor's does.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { dirname, relative, resolve, sep, isAbsolute } from 'node:path';

/** Largest query, rule or reference list file read: larger ones are reported and skipped. */
export const MAX_SOURCE_BYTES = 10 * 1024 * 1024;
/** Largest events file read (`stats`, `test-rule`). */
export const MAX_EVENTS_BYTES = 256 * 1024 * 1024;

const BOM = '\uFEFF';

export type ReadOutcome =
  | { readonly text: string; readonly bom: boolean }
  /** Why the file was not read; `code` is the rule id reports give it. */
  | { readonly skipped: string; readonly code: SkipCode };

export type SkipCode = 'outside-root' | 'not-utf8' | 'too-large' | 'not-a-file' | 'unreadable';

/** The folder a path given on the command line may reach: itself, or its folder when it is a link. */
export function rootOf(path: string): string {
  const abs = resolve(path);
  let base = abs;
  try {
    if (lstatSync(abs).isSymbolicLink()) base = dirname(abs);
  } catch {
    // A missing path is the caller's usage error.
  }
  try {
    return realpathSync(base);
  } catch {
    return base;
  }
}

export function isInside(root: string, real: string): boolean {
  const rel = relative(root, real);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** The real path of `path` when it stays inside `root`, else why it is skipped. */
export function realInside(path: string, root: string): { real: string } | { skipped: string; code: SkipCode } {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    return { skipped: `cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`, code: 'unreadable' };
  }
  if (!isInside(root, real))
    return {
      skipped: 'a symbolic link to a place outside the folder it was found in; not followed',
      code: 'outside-root',
    };
  return { real };
}

/** The file's text, or why it was not read; never follows a link out of `root`. */
export function readSource(path: string, root: string, maxBytes = MAX_SOURCE_BYTES): ReadOutcome {
  const inside = realInside(path, root);
  if ('skipped' in inside) return inside;
  let fd: number;
  try {
    fd = openSync(inside.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    return { skipped: `cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`, code: 'unreadable' };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { skipped: 'not a regular file; not read', code: 'not-a-file' };
    if (stat.size > maxBytes)
      return {
        skipped: `${megabytes(stat.size)}, larger than the ${megabytes(maxBytes)} read at most; not checked`,
        code: 'too-large',
      };
    // Read one byte more than allowed: a file whose size the system does not know cannot slip by.
    let buf = Buffer.allocUnsafe(Math.min(maxBytes + 1, stat.size + 1));
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        if (length > maxBytes) break;
        const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(64 * 1024, length * 2)));
        buf.copy(bigger, 0, 0, length);
        buf = bigger;
      }
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes)
      return { skipped: `larger than the ${megabytes(maxBytes)} read at most; not checked`, code: 'too-large' };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf.subarray(0, length));
    } catch {
      return { skipped: 'not UTF-8; not checked', code: 'not-utf8' };
    }
    const bom = text.startsWith(BOM);
    return { text: bom ? text.slice(1) : text, bom };
  } catch (err) {
    return { skipped: `cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`, code: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}

/** A file's text with the byte order mark it was read with. */
export function withBom(text: string, bom: boolean): string {
  return bom ? BOM + text : text;
}

/**
 * A file named by a flag (`--query`, `--events`, the rule): its text, or why it was not read. A
 * path that does not exist or is a folder is a usage error (`UsageError` of the caller's making).
 */
export function readGiven(path: string, maxBytes: number, usageError: (why: string) => Error): ReadOutcome {
  let stat;
  try {
    stat = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(code === 'ENOENT' ? 'no such file' : (code ?? 'cannot read it'));
  }
  if (stat.isDirectory()) throw usageError('a folder, not a file');
  return readSource(path, rootOf(path), maxBytes);
}

/** What is at `path` itself (a link is not followed), or undefined when nothing there can be read. */
export function lstatOrNothing(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
