// Which files a command works on: every file under the given paths whose extension a language or a
// container (a notebook) claims, in a stable order. Folders named node_modules and hidden folders
// (.git, .cache …) are skipped; a file named explicitly is always taken when its extension is known.
// Links are followed only inside their root (input.ts).
import { readdirSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { LANGUAGES, type Language } from './languages';
import { notebookContainer, type Container } from './notebook';
import { realInside, rootOf, type SkipCode } from './input';
import { cliText } from './text';
import { UsageError } from './usage';

/** Files that hold documents of a language inside them, by extension. */
export const CONTAINERS: ReadonlyMap<string, Container> = new Map([['.udmnb', notebookContainer]]);

export type FileKind = { readonly language: Language } | { readonly container: Container };

export function kindOf(path: string): FileKind | undefined {
  const ext = extname(path).toLowerCase();
  const language = LANGUAGES.get(ext);
  if (language) return { language };
  const container = CONTAINERS.get(ext);
  return container ? { container } : undefined;
}

export function knownExtensions(): string[] {
  return [...LANGUAGES.keys(), ...CONTAINERS.keys()];
}

function skipFolder(name: string): boolean {
  return name === 'node_modules' || name.startsWith('.');
}

/** A file to work on, with the root its links may not leave. */
export interface SourceFile {
  readonly path: string;
  readonly root: string;
}

/** A path found under the roots and left alone, with why (a link out of its root). */
export interface SkippedPath {
  readonly path: string;
  readonly reason: string;
  readonly code: SkipCode;
}

export interface Collected {
  readonly files: SourceFile[];
  readonly skipped: SkippedPath[];
}

/**
 * The files to work on under `paths` (default: the current folder), and the links skipped because
 * they lead out of their root (see input.ts). Throws UsageError for a missing path, and when there
 * is nothing at all to work on (as ESLint does for a pattern that matches no file).
 */
export function collectFiles(command: string, paths: readonly string[]): Collected {
  const roots = paths.length ? paths : ['.'];
  const files = new Map<string, SourceFile>();
  const skipped: SkippedPath[] = [];
  for (const given of roots) {
    let stat;
    try {
      stat = statSync(given);
    } catch {
      throw new UsageError(`${command}: no such file or folder: ${cliText(given)}`);
    }
    const root = rootOf(given);
    if (stat.isDirectory()) {
      const inside = realInside(given, root);
      if ('skipped' in inside) skipped.push({ path: given, reason: inside.skipped, code: inside.code });
      else walk(given, inside.real, files, skipped);
      continue;
    }
    if (!kindOf(given))
      throw new UsageError(`${command}: ${cliText(given)} is not a ${knownExtensions().join(', ')} file`);
    files.set(given, { path: given, root });
  }
  if (files.size === 0 && skipped.length === 0)
    throw new UsageError(
      `${command}: no ${knownExtensions().join(', ')} file under ${roots.map(cliText).join(', ')}: nothing to ${command}`,
    );
  return { files: [...files.values()], skipped };
}

function walk(dir: string, root: string, out: Map<string, SourceFile>, skipped: SkippedPath[]): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!skipFolder(e.name)) walk(path, root, out, skipped);
    } else if (e.isFile()) {
      if (kindOf(e.name)) out.set(path, { path, root });
    } else if (e.isSymbolicLink()) {
      // A link to a file inside the root is read (through its real path); a link to a folder is
      // not walked (the folder is walked where it lies, if it is under the root); a link out of
      // the root is reported, whatever it points at.
      const inside = realInside(path, root);
      if ('skipped' in inside) {
        if (inside.code === 'outside-root') skipped.push({ path, reason: inside.skipped, code: inside.code });
      } else if (kindOf(e.name) && isFile(inside.real)) out.set(path, { path, root });
    }
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A path as reports show it: relative to the current folder when inside it, with forward slashes. */
export function displayPath(path: string, cwd = process.cwd()): string {
  const rel = relative(cwd, path);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  return sep === '/' ? shown : shown.split(sep).join('/');
}
