// Which files a command works on: every file under the given paths whose extension a language or a
// container (a notebook) claims, in a stable order. Folders named node_modules and hidden folders
// (.git, .cache …) are skipped; a file named explicitly is always taken when its extension is known.
import { readdirSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { LANGUAGES, type Language } from './languages';
import { notebookContainer, type Container } from './notebook';
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

/** The files to work on under `paths` (default: the current folder). Throws UsageError for a missing path. */
export function collectFiles(command: string, paths: readonly string[]): string[] {
  const roots = paths.length ? paths : ['.'];
  const out = new Set<string>();
  for (const root of roots) {
    let stat;
    try {
      stat = statSync(root);
    } catch {
      throw new UsageError(`${command}: no such file or folder: ${root}`);
    }
    if (stat.isDirectory()) {
      walk(root, out);
      continue;
    }
    if (!kindOf(root)) throw new UsageError(`${command}: ${root} is not a ${knownExtensions().join(', ')} file`);
    out.add(root);
  }
  return [...out];
}

function walk(dir: string, out: Set<string>): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!skipFolder(e.name)) walk(path, out);
    } else if (e.isFile() || (e.isSymbolicLink() && isFile(path))) {
      if (kindOf(e.name)) out.add(path);
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
