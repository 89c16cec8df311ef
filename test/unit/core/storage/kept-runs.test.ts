// Kept runs on disk: atomic writes, read back as written, bounded by count and size (oldest dropped
// first), unreadable or foreign files never break a restore.
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as JsonPieces from '../../../../src/core/json-pieces';
import { JsonText, StreamedJson } from '../../../../src/core/json-pieces';
import { KEPT_BYTES_MAX, KeptRuns, writeFileAtomic } from '../../../../src/core/storage/kept-runs';

describe('kept runs', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kept-runs-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('reads back what it kept, and nothing for an unknown or malformed id', async () => {
    const runs = new KeptRuns(dir);
    const value = { rows: [{ a: 1 }, { b: 'two' }], ranAt: '2026-01-01T00:00:00.000Z' };
    assert.equal(await runs.save('run-1', value), true);
    assert.deepEqual(await runs.load('run-1'), value);
    assert.equal(await runs.load('run-2'), undefined);
    assert.equal(await runs.load('../escape'), undefined);
    await assert.rejects(runs.save('../escape', value), /not a run id/);
    const files = await fs.readdir(dir);
    assert.deepEqual(files, ['run-1.run.json'], 'no temp file left behind');
  });

  it('writes rows given as their JSON text as that text, and reads them back as the rows', async () => {
    const runs = new KeptRuns(dir, { maxRuns: 20, maxBytes: 200 });
    const texts = ['{ "a" : 1 }', '{"b":"t\\u00e9"}'];
    const value = new StreamedJson({ version: 1, rows: texts.map((t) => new JsonText(t)), more: false }, 'rows');
    assert.equal(await runs.save('run-1', value), true);
    assert.equal(
      await fs.readFile(path.join(dir, 'run-1.run.json'), 'utf8'),
      `{"version":1,"rows":[${texts.join(',')}],"more":false}`,
    );
    assert.deepEqual(await runs.load('run-1'), { version: 1, rows: [{ a: 1 }, { b: 'té' }], more: false });
    // The bound counts the bytes written, text rows included.
    const large = new StreamedJson({ rows: [new JsonText(`"${'x'.repeat(300)}"`)] }, 'rows');
    assert.equal(await runs.save('run-2', large), false);
  });

  it('knows rows as text built by another copy of the module (the extension beside a test)', async () => {
    const file = require.resolve('../../../../src/core/json-pieces');
    const kept = require.cache[file];
    delete require.cache[file];
    try {
      const other = require(file) as typeof JsonPieces;
      assert.notEqual(other.JsonText, JsonText, 'a second copy');
      const value = new other.StreamedJson({ rows: [new other.JsonText('{"a" : 1}')] }, 'rows');
      assert.ok(value instanceof StreamedJson && value.body.rows instanceof Array);
      assert.equal(new JsonText('1') instanceof other.JsonText, true);
      assert.equal({ text: '1' } instanceof JsonText, false, 'a plain object with a text is not one');
      await new KeptRuns(dir).save('run-1', value);
      assert.equal(await fs.readFile(path.join(dir, 'run-1.run.json'), 'utf8'), '{"rows":[{"a" : 1}]}');
    } finally {
      if (kept) require.cache[file] = kept;
    }
  });

  it('keeps at most maxRuns, dropping the oldest first', async () => {
    const runs = new KeptRuns(dir, { maxRuns: 3, maxBytes: 1_000_000 });
    for (let i = 1; i <= 5; i++) {
      await runs.save(`r${i}`, { i });
      // Distinct modification times, oldest first, whatever the file system's resolution.
      const when = new Date(Date.now() - (10 - i) * 1000);
      await fs.utimes(path.join(dir, `r${i}.run.json`), when, when);
    }
    assert.deepEqual(await runs.list(), ['r5', 'r4', 'r3']);
    assert.equal(await runs.load('r1'), undefined);
  });

  it('keeps at most maxBytes in all, and never a run larger than the whole bound', async () => {
    const runs = new KeptRuns(dir, { maxRuns: 20, maxBytes: 250 });
    const big = (n: number): { pad: string; n: number } => ({ pad: 'x'.repeat(90), n });
    for (let i = 1; i <= 4; i++) {
      await runs.save(`b${i}`, big(i));
      const when = new Date(Date.now() - (10 - i) * 1000);
      await fs.utimes(path.join(dir, `b${i}.run.json`), when, when);
    }
    // Each file is about 110 bytes: two fit in 250.
    assert.deepEqual(await runs.list(), ['b4', 'b3']);
    assert.equal(await runs.save('huge', { pad: 'x'.repeat(1000) }), false);
    assert.equal(await runs.load('huge'), undefined);
    assert.deepEqual(await runs.list(), ['b4', 'b3']);
  });

  it('stops making the text of a run of rows as soon as it is past the bound, and keeps nothing', async () => {
    const runs = new KeptRuns(dir, { maxRuns: 20, maxBytes: 10_000 });
    let made = 0;
    // 100,000 rows of about 100 bytes: 10 MB of JSON against a 10 KB bound.
    const rows = Array.from({ length: 100_000 }, (_, i) => ({
      toJSON: () => {
        made++;
        return { i, pad: 'x'.repeat(90) };
      },
    }));
    assert.equal(await runs.save('large', new StreamedJson({ version: 1, rows }, 'rows')), false);
    assert.ok(made < 200, `${made} rows were made into text for a bound of about 100`);
    assert.equal(await runs.load('large'), undefined);
    // Multi-byte text within the character count but over the bound in UTF-8 is refused too.
    const wide = new StreamedJson({ rows: [{ s: 'é'.repeat(6_000) }] }, 'rows');
    assert.equal(await runs.save('wide', wide), false);
    assert.equal(await runs.save('fits', new StreamedJson({ rows: [{ s: 'é'.repeat(4_000) }] }, 'rows')), true);
  });

  it('a damaged file reads as nothing kept', async () => {
    const runs = new KeptRuns(dir);
    await fs.writeFile(path.join(dir, 'bad.run.json'), '{"rows": [1, 2');
    assert.equal(await runs.load('bad'), undefined);
  });

  it('an atomic write replaces the whole file and leaves no temp file', async () => {
    const file = path.join(dir, 'f.json');
    await writeFileAtomic(file, 'first');
    await writeFileAtomic(file, 'second');
    assert.equal(await fs.readFile(file, 'utf8'), 'second');
    assert.deepEqual(await fs.readdir(dir), ['f.json']);
    await assert.rejects(writeFileAtomic(path.join(dir, 'missing', 'f.json'), 'x'));
    assert.deepEqual(await fs.readdir(dir), ['f.json']);
  });

  describe('checked on the way in', () => {
    const write = (id: string, value: unknown): Promise<void> =>
      fs.writeFile(path.join(dir, `${id}.run.json`), typeof value === 'string' ? value : JSON.stringify(value));
    const info = (ranAt: unknown): Record<string, unknown> => ({ runId: 'run-1', title: 'q', kind: 'events', ranAt });

    it('refuses a file over the bound before reading it, and says so', async () => {
      const runs = new KeptRuns(dir, { maxRuns: 20, maxBytes: 1000 });
      await write('run-1', { version: 1, rows: [{ a: 'x'.repeat(2000) }] });
      const original = fs.readFile;
      let reads = 0;
      (fs as { readFile: unknown }).readFile = (...args: Parameters<typeof fs.readFile>) => {
        reads++;
        return original(...args);
      };
      try {
        const read = await runs.read('run-1');
        assert.equal(read.value, undefined);
        assert.equal(reads, 0, 'the file was not read');
        assert.match(read.notes.join(' '), /over the 0\.0 MB bound for kept runs: it was not read/);
        assert.equal(await runs.load('run-1'), undefined);
      } finally {
        (fs as { readFile: unknown }).readFile = original;
      }
    });

    it('drops rows that are not rows (a string, null, a number) and says how many', async () => {
      const runs = new KeptRuns(dir);
      await write('run-1', {
        version: 1,
        info: info('2026-01-01T00:00:00.000Z'),
        rows: [{ a: 1 }, 'row', null, 7, [1, 2], true],
      });
      const read = await runs.read('run-1');
      assert.deepEqual((read.value as { rows: unknown[] }).rows, [{ a: 1 }, [1, 2]]);
      assert.match(read.notes.join(' '), /4 kept rows were not rows/);
    });

    it('caps the rows at the run’s own limit, and at the bound when it has none', async () => {
      const rows = Array.from({ length: 30 }, (_, i) => ({ i }));
      await write('run-1', { version: 1, limit: 10, rows });
      await write('run-2', { version: 1, rows });
      await write('run-3', { version: 1, limit: 'all', rows });
      const runs = new KeptRuns(dir, { maxRuns: 20, maxBytes: KEPT_BYTES_MAX, maxRows: 25 });
      const one = await runs.read('run-1');
      assert.deepEqual((one.value as { rows: unknown[] }).rows, rows.slice(0, 10));
      assert.match(one.notes.join(' '), /20 rows more than its limit of 10/);
      assert.equal(((await runs.load('run-2')) as { rows: unknown[] }).rows.length, 25);
      assert.equal(((await runs.load('run-3')) as { rows: unknown[] }).rows.length, 25);
    });

    it('a run time that is not a date is dropped (shown as unknown), a real one kept', async () => {
      const runs = new KeptRuns(dir);
      for (const [i, bad] of ['1', '2001', 'yesterday', 12, '2026-13-45T99:00:00Z'].entries()) {
        await write(`bad-${i}`, { version: 1, info: info(bad), rows: [] });
        const read = await runs.read(`bad-${i}`);
        assert.equal('ranAt' in (read.value as { info: object }).info, false, JSON.stringify(bad));
        assert.equal((read.value as { info: { runId: string } }).info.runId, 'run-1');
        assert.match(read.notes.join(' '), /not a date: it is shown as unknown/);
      }
      await write('good', { version: 1, info: info('2026-11-27T04:00:00.123Z'), rows: [] });
      const good = await runs.read('good');
      assert.equal((good.value as { info: { ranAt: string } }).info.ranAt, '2026-11-27T04:00:00.123Z');
      assert.deepEqual(good.notes, []);
    });
  });
});
