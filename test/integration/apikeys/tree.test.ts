import * as assert from 'node:assert/strict';
import { useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as KeysTreeModule from '../../../src/features/keys/tree';

useFakeVscode();
// Loaded after the fake is installed: the tree module imports `vscode`.
const tree = require('../../../src/features/keys/tree') as typeof KeysTreeModule;

const NO_RETRY = { maxRetries: 0, initialBackoffMs: 10, maxBackoffMs: 10, multiplier: 1, retryable: [] };

/** The `viewItem =~ /.../` patterns package.json's menus use for API keys commands. */
function menuPatterns(command: string): RegExp[] {
  const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
    contributes: { menus: { 'view/item/context': Array<{ command: string; when: string }> } };
  };
  return manifest.contributes.menus['view/item/context']
    .filter((m) => m.command === command)
    .map((m) => /viewItem =~ \/(.+?)\//.exec(m.when)?.[1])
    .filter((p): p is string => !!p)
    .map((p) => new RegExp(p));
}

describe('API Keys tree against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ApiKeysClient;

  afterEach(async () => {
    await sandbox.close();
  });

  it("counts the days left to undelete on the server's clock: 30 on the day of deletion", async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = new ApiKeysClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource(), retry: NO_RETRY });
    // The sandbox clock runs ahead of this machine's, as a server's may: only its Date header tells.
    sandbox.clock.advance(3 * 86_400);
    const victim = 'projects/cloudbench-demo/locations/global/keys/maps-web';
    await client.deleteKey(victim, undefined);
    const deletedRow = async () => {
      // Without a clock of its own, the model counts on the service's.
      const provider = new tree.KeysTreeProvider(() => new tree.KeysModel('cloudbench-demo', client));
      const [project] = await provider.getChildren();
      const group = (await provider.getChildren(project)).find((c) => c instanceof tree.DeletedGroupNode)!;
      const rows = await provider.getChildren(group);
      const row = rows.find((r) => r instanceof tree.KeyNode && r.key.name === victim);
      return row ? String(row.description) : undefined;
    };
    assert.equal(await deletedRow(), 'maps-web · deleted, 30 days to undelete');
    sandbox.clock.advance(10 * 86_400 + 3600);
    assert.equal(await deletedRow(), 'maps-web · deleted, 20 days to undelete');
    // 11.5 hours left: the whole hours shown stay 11 however many seconds the calls take.
    sandbox.clock.advance(19 * 86_400 + 11 * 3600 + 1800);
    assert.equal(await deletedRow(), 'maps-web · deleted, 11 hours to undelete');
    sandbox.clock.advance(86_400);
    assert.equal(await deletedRow(), undefined, 'past the window the service no longer lists it');
  });

  it('shows project → keys with summaries, a Deleted keys group with days left, and menu-ready context values', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = new ApiKeysClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource(), retry: NO_RETRY });
    const provider = new tree.KeysTreeProvider(
      () => new tree.KeysModel('cloudbench-demo', client, () => sandbox.clock.now()),
    );
    const [project] = await provider.getChildren();
    assert.ok(project instanceof tree.ProjectNode);
    const children = await provider.getChildren(project);
    const keys = children.filter((c): c is InstanceType<typeof tree.KeyNode> => c instanceof tree.KeyNode);
    assert.ok(keys.length >= 10);
    const web = keys.find((k) => k.key.name.endsWith('/maps-web'))!;
    assert.equal(web.label, 'Maps JavaScript (website)');
    assert.equal(web.description, 'maps-web · 2 referrers · maps-backend.googleapis.com');
    assert.match(web.tooltip as string, /UID: [0-9a-f-]{36}/);
    assert.match(web.tooltip as string, /Created: \d{4}-/);
    const bound = keys.find((k) => k.key.serviceAccountEmail)!;
    assert.match(bound.tooltip as string, /Service account: .+@.+\.iam\.gserviceaccount\.com/);
    assert.equal(bound.contextValue, 'key.active.bound');

    assert.ok(
      menuPatterns('cloudbench.keys.editRestrictions').length > 0 &&
        menuPatterns('cloudbench.keys.undelete').length > 0,
    );
    for (const pattern of [
      ...menuPatterns('cloudbench.keys.editRestrictions'),
      ...menuPatterns('cloudbench.keys.delete'),
    ]) {
      assert.ok(
        keys.every((k) => pattern.test(k.contextValue!)),
        `${pattern} matches every active key`,
      );
    }
    const group = children.find((c) => c instanceof tree.DeletedGroupNode)!;
    const deleted = await provider.getChildren(group);
    assert.ok(deleted.length >= 1);
    for (const node of deleted) {
      assert.ok(node instanceof tree.KeyNode && node.deleted);
      assert.match(String(node.description), /deleted, \d+ days? to undelete/);
      for (const pattern of menuPatterns('cloudbench.keys.undelete')) assert.ok(pattern.test(node.contextValue!));
      for (const pattern of menuPatterns('cloudbench.keys.editRestrictions'))
        assert.ok(!pattern.test(node.contextValue!));
    }
  });

  it('pages with a Load more node and finds a key on a later page', async () => {
    sandbox = await startSandbox({ seed: 'empty' });
    client = new ApiKeysClient({
      baseUrl: sandbox.http,
      tokens: sandboxTokenSource(),
      retry: NO_RETRY,
      pollInitialDelayMs: 1,
    });
    for (let i = 0; i < 55; i++) await client.createKey('paged', { keyId: `key-${String(i).padStart(2, '0')}` });
    const provider = new tree.KeysTreeProvider(() => new tree.KeysModel('paged', client));
    const [project] = await provider.getChildren();
    const first = await provider.getChildren(project);
    assert.equal(first.filter((c) => c instanceof tree.KeyNode).length, 50);
    const more = first.find((c) => c instanceof tree.LoadMoreNode);
    assert.ok(more);
    assert.equal(more.description, '50 shown · next 50');
    assert.match(more.tooltip as string, /^50 keys shown\. Loads up to 50 more/);
    // The tree and a reveal asking at once load the page only once.
    await Promise.all([provider.current!.loadMore(), provider.current!.loadMore()]);
    const second = await provider.getChildren(project);
    assert.equal(second.filter((c) => c instanceof tree.KeyNode).length, 55);
    assert.ok(!second.some((c) => c instanceof tree.LoadMoreNode));

    provider.refresh();
    await provider.getChildren();
    const found = await provider.findNode('projects/paged/locations/global/keys/key-54', false);
    assert.ok(found, 'a key on the second page is found');
    assert.equal(provider.getParent(found), found.parent);
  });
});

describe('API Keys tree when the service refuses', () => {
  it('shows the refusal with what to do in place of the keys', async () => {
    const sandbox = await startSandbox({ seed: 'demo' });
    try {
      const res = await fetch(`${sandbox.http}/sandbox/v1/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rules: [{ method: 'apikeys.keys.list', errorRate: 1, codes: ['PERMISSION_DENIED'] }] }),
      });
      assert.equal(res.status, 200);
      const client = new ApiKeysClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource(), retry: NO_RETRY });
      const provider = new tree.KeysTreeProvider(() => new tree.KeysModel('cloudbench-demo', client));
      const [project] = await provider.getChildren();
      const children = await provider.getChildren(project);
      const message = children.find((c) => c instanceof tree.MessageNode);
      assert.ok(message);
      // The row carries a fix button: Check Connection explains a refusal.
      assert.equal(message.contextValue, 'keysError.fix');
      assert.equal(message.fix?.command, 'cloudbench.checkConnection');
      assert.equal(message.command?.command, 'cloudbench.runFix');
      assert.match(
        message.label as string,
        /Could not list keys: .*PERMISSION_DENIED.*roles\/serviceusage\.apiKeysAdmin/,
      );
    } finally {
      await sandbox.close();
    }
  });
});
