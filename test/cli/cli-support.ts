// The built `cloudbench` command as the tests run it: dist/cli.js when the build is newer than every
// source it bundles (the artifact `npm run build` writes), otherwise the same bundle (the options of
// scripts/cli-bundle.mjs) built into a temporary folder, so a stale build never decides a test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { BuildOptions } from 'esbuild';

export const ROOT = join(__dirname, '..', '..');

interface CliBundle {
  cliBundleOptions: (root: string, outfile: string) => BuildOptions;
  makeExecutable: (outfile: string) => void;
}

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let n = 0;
  for (const entry of readdirSync(path)) n = Math.max(n, newest(join(path, entry)));
  return n;
}

let built: string | undefined;

/** The path of the built CLI (builds it when dist/ is missing or older than the sources). */
export async function cliPath(): Promise<string> {
  if (built) return built;
  const dist = join(ROOT, 'dist', 'cli.js');
  const sources = Math.max(
    newest(join(ROOT, 'src/cli')),
    newest(join(ROOT, 'src/udm')),
    newest(join(ROOT, 'src/core')),
    newest(join(ROOT, 'package.json')),
    newest(join(ROOT, 'scripts/cli-bundle.mjs')),
  );
  if (existsSync(dist) && statSync(dist).mtimeMs >= sources) return (built = dist);
  const bundle = (await import(pathToFileURL(join(ROOT, 'scripts/cli-bundle.mjs')).href)) as CliBundle;
  const esbuild = await import('esbuild');
  const folder = mkdtempSync(join(tmpdir(), 'cloudbench-cli-build-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  const out = join(folder, 'cli.js');
  await esbuild.build(bundle.cliBundleOptions(ROOT, out));
  bundle.makeExecutable(out);
  return (built = out);
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI as a process (through its shebang) in `cwd`; the environment has no credentials. */
export function runCli(cli: string, args: readonly string[], cwd: string): CliResult {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: cwd };
  // Detections carry their events: room for a large answer.
  const r = spawnSync(cli, args, { cwd, env, encoding: 'utf8', timeout: 60_000, maxBuffer: 512 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const folders: string[] = [];

/** A fresh folder with the given files (paths relative to it); removed by removeWorkspaces. */
export function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cloudbench-cli-'));
  folders.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

/** 1-based line and column of the first `needle` in `text` (after `from`), counted independently. */
export function positionOf(text: string, needle: string, from = 0): { line: number; column: number } {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`${needle} not in the text`);
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

export function removeWorkspaces(): void {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The SARIF 2.1.0 schema (draft-04) as published in the npm registry with Microsoft's SARIF matchers. */
export function assertValidSarif(log: unknown): void {
  const schema = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
  );
  // The schema's language-tag pattern is written for JavaScript's non-unicode regular expressions.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
}
