// Saving a reference list from the editor, against the real sandbox (the `vscode` module is the
// unit-test fake): local checks refuse a bad line before anything is sent, a save updates the list
// and what the language support knows, a list changed on the server since it was opened is never
// overwritten without asking, and creating a list whose name was taken keeps the edit.
import assert from 'node:assert/strict';
import { useFakeVscode } from '../../unit/fakes/vscode';
import type { Sandbox } from '../../../src/emulator/sandbox';
import type { ReferenceListDetails } from '../../../src/core/secops/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { call, freshSandbox, qs } from '../sandbox-http/helpers';

useFakeVscode();
/* eslint-disable @typescript-eslint/consistent-type-imports -- loaded after the fake is installed */
const { ReferenceListsModel } =
  require('../../../src/features/referenceLists/model') as typeof import('../../../src/features/referenceLists/model');
const { ReferenceListFileSystem, ReferenceListDiagnostics, listUri, SaveRefusedError } =
  require('../../../src/features/referenceLists/documents') as typeof import('../../../src/features/referenceLists/documents');
/* eslint-enable @typescript-eslint/consistent-type-imports */

function servicesFor(sb: Sandbox): any {
  const settings = {
    secops: { region: undefined, credentialsFile: undefined },
    credentialsFile: undefined,
    timeoutMs: 10_000,
    retry: { maxRetries: 1, initialBackoffMs: 5, maxBackoffMs: 10, multiplier: 2, retryable: ['UNAVAILABLE'] },
  };
  return {
    connection: () => ({ settings, endpoint: () => sb.http, secopsTokens: () => sandboxTokenSource() }),
    onDidChangeConnection: () => ({ dispose: () => undefined }),
  };
}

const text = (lines: string[]): Uint8Array => Buffer.from(`${lines.join('\n')}\n`, 'utf8');
const decode = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

describe('reference lists: saving from the editor', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  let published: Array<readonly ReferenceListDetails[]>;
  let loadErrors: Array<string | undefined>;
  let prompts: string[];
  let choice: 'merge' | 'overwrite' | 'cancel';
  /** What the user saw, in order: 'compare' (both versions side by side) and 'ask'. */
  let seen: string[];
  let compared: Array<[string, string]>;
  let model: InstanceType<typeof ReferenceListsModel>;
  let files: InstanceType<typeof ReferenceListFileSystem>;

  beforeEach(async () => {
    sb = await freshSandbox('demo');
    published = [];
    loadErrors = [];
    prompts = [];
    compared = [];
    seen = [];
    choice = 'cancel';
    model = new ReferenceListsModel(servicesFor(sb), (lists, loadError) => {
      published.push(lists);
      loadErrors.push(loadError);
    });
    files = new ReferenceListFileSystem(
      model,
      new ReferenceListDiagnostics(),
      async (name) => {
        prompts.push(name);
        seen.push('ask');
        return choice;
      },
      async (server, mine) => {
        compared.push([server.toString(), mine.toString()]);
        seen.push('compare');
      },
    );
  });
  afterEach(async () => {
    files.dispose();
    model.dispose();
    await sb.close();
  });

  const serverLines = async (name: string): Promise<string[]> =>
    (await call(sb, 'GET', `/v2/lists/${name}`)).body.lines as string[];

  it('opens a list as its lines, comments kept, and loads every list for the language support', async () => {
    const uri = listUri('critical_servers');
    assert.equal(uri.scheme, 'cloudbench-list');
    assert.equal(decode(await files.readFile(uri)), `${(await serverLines('critical_servers')).join('\n')}\n`);
    assert.ok(decode(await files.readFile(uri)).startsWith('// Tier 0'));
    await model.ensureLoaded();
    assert.equal(published.length, 1);
    const regex = published[0].find((l) => l.name === 'phishing_domain_patterns');
    assert.equal(regex?.contentType, 'REGEX');
  });

  it('refuses to save a bad regex line and sends nothing; the fixed text saves and is published', async () => {
    const uri = listUri('bad_process_paths');
    await files.readFile(uri);
    const before = await serverLines('bad_process_paths');
    await assert.rejects(files.writeFile(uri, text([...before, 'evil(.exe'])), (e) => {
      return e instanceof SaveRefusedError && /Not saved: 1 line is not valid/.test(e.message);
    });
    assert.deepEqual(await serverLines('bad_process_paths'), before);
    await model.ensureLoaded();
    published.length = 0;
    await files.writeFile(uri, text([...before, '// added from the editor', 'evil\\.exe$']));
    assert.deepEqual(await serverLines('bad_process_paths'), [...before, '// added from the editor', 'evil\\.exe$']);
    assert.equal(published.length, 1);
    assert.deepEqual(model.find('bad_process_paths')?.lines.slice(-1), ['evil\\.exe$']);
    const stat = await files.stat(uri);
    assert.ok(stat.mtime > 0);
  });

  it('shows both versions, then asks, before replacing a list someone else changed; cancel keeps both', async () => {
    const uri = listUri('admin_users');
    await files.readFile(uri);
    await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
      body: { name: 'admin_users', lines: ['someone.else'] },
    });
    await assert.rejects(files.writeFile(uri, text(['mine'])), /changed on the server since you opened it/);
    assert.deepEqual(seen, ['compare', 'ask'], 'the comparison is on screen before the question');
    assert.deepEqual(prompts, ['admin_users']);
    assert.match(compared[0][0], /^cloudbench-list-server:/);
    assert.equal(compared[0][1], uri.toString());
    assert.equal(files.serverCopy(listUri('admin_users')), 'someone.else\n');
    assert.deepEqual(await serverLines('admin_users'), ['someone.else']);
    // Cancelled: the next save shows both versions and asks again.
    await assert.rejects(files.writeFile(uri, text(['mine'])), /changed on the server since you opened it/);
    assert.deepEqual(seen, ['compare', 'ask', 'compare', 'ask']);
    assert.deepEqual(await serverLines('admin_users'), ['someone.else']);
  });

  it('merge first refuses this save; the merged text saves next without another question', async () => {
    const uri = listUri('admin_users');
    await files.readFile(uri);
    await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
      body: { name: 'admin_users', lines: ['someone.else'] },
    });
    choice = 'merge';
    await assert.rejects(files.writeFile(uri, text(['mine'])), /Bring those lines into your edit/);
    assert.deepEqual(seen, ['compare', 'ask']);
    assert.deepEqual(await serverLines('admin_users'), ['someone.else']);
    await files.writeFile(uri, text(['someone.else', 'mine']));
    assert.deepEqual(await serverLines('admin_users'), ['someone.else', 'mine']);
    assert.equal(prompts.length, 1, 'no second question once the server version was seen');
  });

  it('a retry of the text refused at Merge First is asked about again, never saved over the server change', async () => {
    const uri = listUri('threat_ip_ranges');
    const opened = decode(await files.readFile(uri));
    const mine = `${opened}10.31.0.0/16\n`;
    const theirs = [...(await serverLines('threat_ip_ranges')), '10.99.0.0/16'];
    await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
      body: { name: 'threat_ip_ranges', lines: theirs },
    });
    choice = 'merge';
    // Save All, then the editor's Retry, then File > Save: each is the same writeFile of the same text.
    for (let attempt = 1; attempt <= 3; attempt++) {
      await assert.rejects(
        files.writeFile(uri, Buffer.from(mine, 'utf8')),
        (e) => e instanceof SaveRefusedError && /added there: 10\.99\.0\.0\/16/.test(e.message),
      );
      assert.equal(prompts.length, attempt, `attempt ${attempt} asked`);
      assert.deepEqual(await serverLines('threat_ip_ranges'), theirs, `attempt ${attempt} left the server's line`);
    }
    assert.deepEqual(seen, ['compare', 'ask', 'compare', 'ask', 'compare', 'ask']);
    // Merged: saved without another question, their line kept.
    await files.writeFile(uri, Buffer.from(`${opened}10.99.0.0/16\n10.31.0.0/16\n`, 'utf8'));
    assert.equal(prompts.length, 3);
    assert.deepEqual(await serverLines('threat_ip_ranges'), [...theirs, '10.31.0.0/16']);
  });

  it('a line the server removed that the edit still holds is a conflict too', async () => {
    const uri = listUri('admin_users');
    const lines = (await serverLines('admin_users')).filter((l) => l.trim() !== '');
    await files.readFile(uri);
    const removed = lines.at(-1)!;
    await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
      body: { name: 'admin_users', lines: lines.slice(0, -1) },
    });
    await assert.rejects(files.writeFile(uri, text([...lines, 'new.user'])), (e) =>
      (e as Error).message.includes(`removed there: ${removed}`),
    );
    assert.deepEqual(await serverLines('admin_users'), lines.slice(0, -1));
  });

  it('never sends a blank line, and the server copy ends like the edit (no invented blank line)', async () => {
    const uri = listUri('corp_networks');
    const before = await serverLines('corp_networks');
    await files.readFile(uri);
    await files.writeFile(uri, Buffer.from(`${before.join('\n')}\n\n   \n10.77.0.0/16\n\n`, 'utf8'));
    const saved = await serverLines('corp_networks');
    assert.deepEqual(saved, [...before.filter((l) => l.trim() !== ''), '10.77.0.0/16']);
    assert.ok(!saved.some((l) => l.trim() === ''), `sent ${JSON.stringify(saved)}`);

    await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
      body: { name: 'corp_networks', lines: [...saved, '10.99.0.0/16'] },
    });
    // The edit typed on the document's last line: no final newline, so neither has the server copy.
    await assert.rejects(files.writeFile(uri, Buffer.from(`${saved.join('\n')}\n10.31.0.0/16`, 'utf8')));
    assert.equal(files.serverCopy(uri), [...saved, '10.99.0.0/16'].join('\n'));
  });

  it('overwrite replaces the server version only when chosen', async () => {
    const uri = listUri('corp_networks');
    await files.readFile(uri);
    await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
      body: { name: 'corp_networks', lines: ['10.0.0.0/8'] },
    });
    choice = 'overwrite';
    await files.writeFile(uri, text(['10.10.0.0/16', '10.30.0.0/16']));
    assert.deepEqual(seen, ['compare', 'ask'], 'never overwritten before both versions were shown');
    assert.deepEqual(await serverLines('corp_networks'), ['10.10.0.0/16', '10.30.0.0/16']);
  });

  it('creates a list on its first save; a name taken meanwhile is refused with the edit kept', async () => {
    const uri = files.startCreate('egress_proxies', 'Proxies allowed to reach the internet', 'CIDR');
    assert.equal(decode(await files.readFile(uri)), '');
    assert.equal(files.contentTypeOf(uri), 'CIDR');
    await assert.rejects(files.writeFile(uri, text(['// none yet'])), /Not saved/);
    assert.equal((await call(sb, 'GET', '/v2/lists/egress_proxies')).status, 404);
    await files.writeFile(uri, text(['10.10.0.20/32']));
    const created = (await call(sb, 'GET', '/v2/lists/egress_proxies')).body;
    assert.equal(created.contentType, 'CIDR');
    assert.equal(created.description, 'Proxies allowed to reach the internet');
    assert.equal(files.isPendingCreate('egress_proxies'), false);

    const again = files.startCreate('admin_users', 'Taken', 'CONTENT_TYPE_DEFAULT_STRING');
    await assert.rejects(files.writeFile(again, text(['x'])), /already exists on the server\. Your lines are still/);
    assert.equal(files.isPendingCreate('admin_users'), true, 'the document stays a creation, nothing lost');
  });

  it('when a reload fails, hands the language support the lists loaded before, with the reason', async () => {
    await model.ensureLoaded();
    const loaded = published.at(-1)!.map((l) => l.name);
    assert.ok(loaded.length > 0);
    assert.deepEqual(loadErrors, [undefined], 'the lists the server listed: no load error');
    await call(sb, 'POST', '/sandbox/v1/faults', {
      body: { rules: [{ method: 'secops.listReferenceLists', errorRate: 1, codes: [403] }] },
    });
    await model.refresh();
    assert.equal(model.current.kind, 'error');
    assert.deepEqual(
      published.at(-1)!.map((l) => l.name),
      loaded,
    );
    assert.match(loadErrors.at(-1) ?? '', /PERMISSION_DENIED|403/);
  });

  it('refuses what the API cannot do: delete and rename', () => {
    assert.throws(() => files.delete());
    assert.throws(() => files.rename());
  });
});
