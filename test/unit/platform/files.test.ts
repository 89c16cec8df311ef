// Atomic writes (exports, reports, chart images through VS Code's file system; the code cache through
// Node's) and the chart folder question of the Markdown export. VS Code's file system is the fake's,
// backed by a real temporary folder.
import { strict as assert } from 'node:assert';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { useFakeVscode } from '../fakes/vscode';
import { writeFileAtomicSync } from '../../../src/core/files';
import type * as PlatformFilesModule from '../../../src/platform/files';
import type * as ExportFilesModule from '../../../src/features/notebooks/export-files';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { writeFileAtomic } = require('../../../src/platform/files') as typeof PlatformFilesModule;
const { chooseChartFolder, NEW_FOLDER_CHOICE, REPLACE_CHOICE } =
  require('../../../src/features/notebooks/export-files') as typeof ExportFilesModule;

interface FsCalls {
  writes: string[];
  /** Makes the next writeFile write half its bytes and fail, as a crash or a full disk would. */
  failWrite?: boolean;
  failRename?: boolean;
}

function nodeBackedFs(calls: FsCalls): unknown {
  return {
    writeFile: async (uri: { fsPath: string }, data: Uint8Array) => {
      calls.writes.push(uri.fsPath);
      if (calls.failWrite) {
        writeFileSync(uri.fsPath, data.slice(0, Math.floor(data.length / 2)));
        throw new Error('ENOSPC: no space left on device');
      }
      writeFileSync(uri.fsPath, data);
    },
    rename: async (from: { fsPath: string }, to: { fsPath: string }, options?: { overwrite?: boolean }) => {
      if (calls.failRename) throw new Error('EACCES: permission denied');
      assert.equal(options?.overwrite, true);
      renameSync(from.fsPath, to.fsPath);
    },
    delete: async (uri: { fsPath: string }) => rmSync(uri.fsPath, { force: true }),
    stat: async (uri: { fsPath: string }) => statSync(uri.fsPath),
    createDirectory: async (uri: { fsPath: string }) => mkdirSync(uri.fsPath, { recursive: true }),
  };
}

describe('atomic file writes', () => {
  let dir: string;
  let calls: FsCalls;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cloudbench-files-'));
    calls = { writes: [] };
    vscode.workspace.fs = nodeBackedFs(calls);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const uri = (name: string) => vscode.Uri.file(join(dir, name));

  it('writes through a temporary file in the same folder and leaves nothing else behind', async () => {
    await writeFileAtomic(uri('report.md'), new TextEncoder().encode('# new'));
    assert.equal(readFileSync(join(dir, 'report.md'), 'utf8'), '# new');
    assert.equal(calls.writes.length, 1);
    assert.notEqual(calls.writes[0], join(dir, 'report.md'), 'never written in place');
    assert.equal(dirname(calls.writes[0]), dir, 'the temporary file is beside the target');
    assert.deepEqual(readdirSync(dir), ['report.md']);
  });

  it('a write that fails half way leaves the old file whole and no temporary file', async () => {
    writeFileSync(join(dir, 'results.csv'), 'old,complete\r\n');
    calls.failWrite = true;
    await assert.rejects(writeFileAtomic(uri('results.csv'), new TextEncoder().encode('new,'.repeat(1000))), /ENOSPC/);
    assert.equal(readFileSync(join(dir, 'results.csv'), 'utf8'), 'old,complete\r\n');
    assert.deepEqual(readdirSync(dir), ['results.csv']);
  });

  it('a rename that fails leaves the old file and removes the temporary one', async () => {
    writeFileSync(join(dir, 'metrics.csv'), 'old');
    calls.failRename = true;
    await assert.rejects(writeFileAtomic(uri('metrics.csv'), new TextEncoder().encode('new')), /EACCES/);
    assert.equal(readFileSync(join(dir, 'metrics.csv'), 'utf8'), 'old');
    assert.deepEqual(readdirSync(dir), ['metrics.csv']);
  });

  it('the Node writer (code cache) replaces whole files and cleans up after a failure', () => {
    const target = join(dir, 'bundle.js.cache');
    writeFileAtomicSync(target, 'first');
    writeFileAtomicSync(target, Buffer.from('second'));
    assert.equal(readFileSync(target, 'utf8'), 'second');
    assert.deepEqual(readdirSync(dir), ['bundle.js.cache']);
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'x'), 'x');
    assert.throws(() => writeFileAtomicSync(join(dir, 'taken'), 'over a folder'));
    assert.deepEqual(readdirSync(dir).sort(), ['bundle.js.cache', 'taken']);
  });
});

describe('chart folder of the Markdown export', () => {
  let dir: string;
  const asked: string[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cloudbench-charts-'));
    vscode.workspace.fs = nodeBackedFs({ writes: [] });
    asked.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const report = () => vscode.Uri.file(join(dir, 'hunt.md'));
  const answer = (choice: string | undefined) => (message: string, detail: string) => {
    asked.push(`${message}\n${detail}`);
    return Promise.resolve(choice);
  };
  const earlier = (folder: string, ...files: string[]) => {
    mkdirSync(join(dir, folder), { recursive: true });
    for (const f of files) writeFileSync(join(dir, folder, f), '<svg/>');
  };

  it('uses the folder beside the report without asking when no chart would be replaced', async () => {
    earlier('hunt-charts', 'unrelated.svg');
    assert.equal(await chooseChartFolder(report(), 'hunt', ['query-1.svg'], answer(undefined)), 'hunt-charts');
    assert.deepEqual(asked, []);
  });

  it('asks before replacing charts of an earlier export, naming them', async () => {
    earlier('hunt-charts', 'query-1.svg', 'query-3.svg');
    const files = ['query-1.svg', 'query-2.svg', 'query-3.svg'];
    assert.equal(await chooseChartFolder(report(), 'hunt', files, answer(REPLACE_CHOICE)), 'hunt-charts');
    assert.equal(asked.length, 1);
    assert.match(asked[0], /"hunt-charts" already holds 2 chart images/);
    assert.match(asked[0], /query-1\.svg, query-3\.svg/);
  });

  it('a new folder is one that does not exist yet; dismissing the question writes nothing', async () => {
    earlier('hunt-charts', 'query-1.svg');
    earlier('hunt-charts-2');
    assert.equal(
      await chooseChartFolder(report(), 'hunt', ['query-1.svg'], answer(NEW_FOLDER_CHOICE)),
      'hunt-charts-3',
    );
    assert.equal(await chooseChartFolder(report(), 'hunt', ['query-1.svg'], answer(undefined)), undefined);
  });

  it('names in the question are text, not links', async () => {
    const name = '[x](command:workbench.action.terminal.new)';
    earlier(`${name}-charts`, 'query-1.svg');
    await chooseChartFolder(report(), name, ['query-1.svg'], answer(undefined));
    assert.ok(!/\]\(command:/.test(asked[0]), asked[0]);
  });
});
