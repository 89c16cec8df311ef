// The V8 code cache of lazily loaded bundles (src/core/bundle-loader.ts). Every load runs in a fresh
// Node process, as in the extension host: within one process V8 keeps compiled scripts in memory,
// which would hide whether the cache on disk was really used.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCacheFile } from '../../../src/core/bundle-loader';

const LOADER = join(__dirname, '../../../src/core/bundle-loader.ts');

interface ChildResult {
  cache: string;
  cacheFile: string | null;
  answer: unknown;
  persisted: boolean;
  logs: string[];
}

/** Loads the bundle in a fresh process, calls its answer() with a host module, persists the cache. */
function loadInChild(file: string, cacheDir: string | undefined, persist = true): ChildResult {
  const script = `
    const { loadBundle } = require(${JSON.stringify(LOADER)});
    const logs = [];
    const b = loadBundle({
      file: ${JSON.stringify(file)},
      cacheDir: ${JSON.stringify(cacheDir ?? null)} ?? undefined,
      host: { 'host:greeting': { word: 'hello' } },
      log: (m) => logs.push(m),
    });
    const answer = b.exports.answer();
    const persisted = ${persist} ? b.persist() : false;
    process.stdout.write(JSON.stringify({ cache: b.cache, cacheFile: b.cacheFile ?? null, answer, persisted, logs }));
  `;
  const child = spawnSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], {
    cwd: join(__dirname, '../../..'),
    encoding: 'utf8',
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as ChildResult;
}

/** A CommonJS bundle with enough functions for V8 to have something to cache. */
function bundleSource(version: number): string {
  const helpers = Array.from(
    { length: 50 },
    (_, i) => `function helper${i}(x) { return [x, ${i}, ${version}].map((v) => String(v)).join('-'); }`,
  ).join('\n');
  return `'use strict';
const greeting = require('host:greeting');
const path = require('node:path');
${helpers}
exports.answer = () => ({ version: ${version}, greeting: greeting.word, sep: path.sep, sample: helper49('x') });
`;
}

describe('bundle loader with a V8 code cache (src/core/bundle-loader.ts)', function () {
  this.timeout(60_000);
  let dir: string;
  let bundle: string;
  let cacheDir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cloudbench-bundle-loader-'));
    bundle = join(dir, 'client.js');
    cacheDir = join(dir, 'storage', 'code-cache');
    writeFileSync(bundle, bundleSource(1));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cacheFiles = (): string[] => (existsSync(cacheDir) ? readdirSync(cacheDir).sort() : []);
  const expected = (version: number): unknown => ({
    version,
    greeting: 'hello',
    sep: '/',
    sample: `x-49-${version}`,
  });

  it('loads without a cache folder, taking shared modules from the host and the rest from Node', () => {
    const r = loadInChild(bundle, undefined);
    assert.equal(r.cache, 'disabled');
    assert.equal(r.cacheFile, null);
    assert.equal(r.persisted, false);
    assert.deepEqual(r.answer, expected(1));
  });

  it('writes the cache after the first use and uses it on the next start without writing again', () => {
    const first = loadInChild(bundle, cacheDir);
    assert.equal(first.cache, 'missing');
    assert.equal(first.persisted, true);
    assert.deepEqual(cacheFiles(), [first.cacheFile!.slice(cacheDir.length + 1)]);
    const written = readFileSync(first.cacheFile!);
    assert.ok(written.length > 32 + 100, `cache of ${written.length} bytes`);

    const second = loadInChild(bundle, cacheDir);
    assert.equal(second.cache, 'used');
    assert.equal(second.cacheFile, first.cacheFile);
    assert.equal(second.persisted, false);
    assert.deepEqual(second.answer, expected(1));
    assert.deepEqual(readFileSync(first.cacheFile!), written, 'a used cache is left as it is');
    assert.deepEqual(second.logs, []);
  });

  it('builds a new cache when the bundle changes and removes the old one', () => {
    const first = loadInChild(bundle, cacheDir);
    // Same length, other content: V8's own check (the source length) would not notice.
    writeFileSync(bundle, bundleSource(2));
    assert.equal(readFileSync(bundle).length, bundleSource(1).length);
    const changed = loadInChild(bundle, cacheDir);
    assert.equal(changed.cache, 'missing');
    assert.notEqual(changed.cacheFile, first.cacheFile);
    assert.deepEqual(changed.answer, expected(2));
    assert.deepEqual(cacheFiles(), [changed.cacheFile!.slice(cacheDir.length + 1)], 'the old cache is gone');
    assert.equal(loadInChild(bundle, cacheDir).cache, 'used');
  });

  it('keys the cache on the source, V8 version and architecture', () => {
    const a = codeCacheFile(cacheDir, bundle, bundleSource(1));
    assert.equal(codeCacheFile(cacheDir, bundle, bundleSource(1)), a);
    assert.notEqual(codeCacheFile(cacheDir, bundle, bundleSource(2)), a);
    assert.match(a, /client\.js\.[0-9a-f]{20}\.v8cache$/);
  });

  it('ignores a damaged cache file, loads the bundle as usual and replaces the file', () => {
    const first = loadInChild(bundle, cacheDir);
    const file = first.cacheFile!;
    const damaged = Buffer.from(readFileSync(file));
    for (let i = 40; i < damaged.length; i += 97) damaged[i] = (damaged[i] ?? 0) ^ 0xff;
    writeFileSync(file, damaged);

    const r = loadInChild(bundle, cacheDir);
    assert.equal(r.cache, 'corrupt');
    assert.deepEqual(r.answer, expected(1));
    assert.equal(r.persisted, true);
    assert.match(r.logs.join('\n'), /checksum does not match/);
    assert.notDeepEqual(readFileSync(file), damaged, 'the damaged file was replaced');
    assert.equal(loadInChild(bundle, cacheDir).cache, 'used');
  });

  it('treats a truncated or empty cache file as damaged', () => {
    const file = loadInChild(bundle, cacheDir).cacheFile!;
    for (const content of [Buffer.alloc(0), readFileSync(file).subarray(0, 20)]) {
      writeFileSync(file, content);
      const r = loadInChild(bundle, cacheDir);
      assert.equal(r.cache, 'corrupt');
      assert.deepEqual(r.answer, expected(1));
      assert.match(r.logs.join('\n'), /truncated/);
    }
  });

  it('falls back to a plain compile when V8 refuses cached data that passes the checksum', () => {
    const file = loadInChild(bundle, cacheDir).cacheFile!;
    // Well-formed for our checksum, meaningless to V8.
    const junk = Buffer.from('not a V8 code cache, but checksummed correctly'.repeat(20));
    writeFileSync(file, Buffer.concat([createHash('sha256').update(junk).digest(), junk]));

    const r = loadInChild(bundle, cacheDir);
    assert.equal(r.cache, 'rejected');
    assert.deepEqual(r.answer, expected(1));
    assert.equal(r.persisted, true);
    assert.equal(loadInChild(bundle, cacheDir).cache, 'used');
  });

  it('still loads when the cache cannot be written, and says why', () => {
    writeFileSync(join(dir, 'storage'), 'a file where the folder should be');
    const r = loadInChild(bundle, cacheDir);
    assert.equal(r.cache, 'missing');
    assert.deepEqual(r.answer, expected(1));
    assert.equal(r.persisted, false);
    assert.match(r.logs.join('\n'), /not written/);
  });

  it('reports a syntax error in the bundle itself instead of hiding it', () => {
    writeFileSync(bundle, 'exports.answer = () => {');
    const child = spawnSync(
      process.execPath,
      [
        '-r',
        'tsx/cjs',
        '-e',
        `require(${JSON.stringify(LOADER)}).loadBundle({ file: ${JSON.stringify(bundle)}, cacheDir: ${JSON.stringify(cacheDir)} })`,
      ],
      { cwd: join(__dirname, '../../..'), encoding: 'utf8' },
    );
    assert.notEqual(child.status, 0);
    assert.match(child.stderr, /SyntaxError/);
  });
});
