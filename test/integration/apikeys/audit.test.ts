// The key audit through the real API Keys REST client: the sandbox's demo keys give every finding,
// fixing a key (restrictions, a successor) makes its finding go, the tree's rows carry the findings
// with the context value the "Fix Audit Finding" menu needs, and a hostile server's answers
// (malformed createTime, markup and workflow commands in display names) stay data.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import { auditKeys, successorKeyIds, type AuditReport, type AuditRule } from '../../../src/core/apikeys/audit';
import { formatAuditMarkdown } from '../../../src/core/apikeys/audit-report';
import type { ApiKey } from '../../../src/core/apikeys/types';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type * as KeysTreeModule from '../../../src/features/keys/tree';

useFakeVscode();
const tree = require('../../../src/features/keys/tree') as typeof KeysTreeModule;

const PROJECT = 'cloudbench-demo';
const NO_RETRY = { maxRetries: 0, initialBackoffMs: 10, maxBackoffMs: 10, multiplier: 1, retryable: [] };

function fixMenuPatterns(): RegExp[] {
  const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
    contributes: { menus: { 'view/item/context': Array<{ command: string; when: string }> } };
  };
  return manifest.contributes.menus['view/item/context']
    .filter((m) => m.command === 'cloudbench.keys.fixAuditFinding')
    .map((m) => new RegExp(/viewItem =~ \/(.+?)\/$/.exec(m.when)![1]));
}

async function collect(client: ApiKeysClient, showDeleted = false): Promise<ApiKey[]> {
  const keys: ApiKey[] = [];
  for await (const k of client.iterateKeys(PROJECT, { showDeleted })) keys.push(k);
  return keys;
}

function rulesOf(report: AuditReport, keyId: string): AuditRule[] {
  const entry = report.keys.find((k) => k.keyId === keyId);
  assert.ok(entry, `${keyId} is in the report`);
  return entry.findings.map((f) => f.rule);
}

describe('Key audit against the sandbox', function () {
  let sandbox: Sandbox;
  let client: ApiKeysClient;

  beforeEach(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = new ApiKeysClient({
      baseUrl: sandbox.http,
      tokens: sandboxTokenSource(),
      retry: NO_RETRY,
      pollInitialDelayMs: 5,
      pollMaxDelayMs: 20,
    });
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('finds each CIS finding on the demo keys, passes the clean ones and leaves deleted keys out', async () => {
    const report = auditKeys(PROJECT, await collect(client, true), { now: client.serverNow(), maxAgeDays: 90 });
    assert.equal(
      report.deletedSkipped,
      1,
      'old-maps-key (deleted 10 days ago) is listed with showDeleted and left out',
    );
    assert.ok(!report.keys.some((k) => k.keyId === 'old-maps-key'));
    assert.deepEqual(rulesOf(report, 'gemini-prototype'), ['application-restriction-missing']);
    assert.deepEqual(rulesOf(report, 'any-com-widget'), ['application-restriction-wide']);
    assert.deepEqual(rulesOf(report, 'ipv6-ingest'), ['api-restriction-missing']);
    assert.deepEqual(rulesOf(report, 'all-cloud-apis'), ['api-restriction-all']);
    assert.deepEqual(rulesOf(report, 'maps-web'), ['rotation-overdue']);
    assert.deepEqual(rulesOf(report, 'unrestricted-dev'), [
      'application-restriction-missing',
      'api-restriction-missing',
    ]);
    assert.deepEqual(rulesOf(report, 'vertex-bound'), []);
    assert.deepEqual(rulesOf(report, 'partner-portal'), []);
    for (const [rule, count] of Object.entries(report.summary.byRule))
      if (rule !== 'rotation-unknown') assert.ok(count > 0, `no demo key has ${rule}`);
    // The sandbox always gives a creation time; a malformed one is the hostile server's case below.
    assert.equal(report.summary.byRule['rotation-unknown'], 0);
  });

  it('loses a finding once the key is fixed: an API restriction added, a successor created', async () => {
    const name = `projects/${PROJECT}/locations/global/keys/ipv6-ingest`;
    const before = await client.getKey(name);
    const fixed = await client.updateRestrictions(
      name,
      { ...before.restrictions, apiTargets: [{ service: 'pubsub.googleapis.com' }] },
      before.etag,
    );
    let report = auditKeys(PROJECT, await collect(client), { now: client.serverNow(), maxAgeDays: 90 });
    assert.deepEqual(rulesOf(report, 'ipv6-ingest'), []);
    assert.deepEqual(fixed.restrictions?.apiTargets, [{ service: 'pubsub.googleapis.com' }]);

    // 60 days on, partner-portal (45 days old) is due; its successor with the same restrictions is not.
    sandbox.clock.advance(60 * 86_400);
    const old = await client.getKey(`projects/${PROJECT}/locations/global/keys/partner-portal`);
    report = auditKeys(PROJECT, await collect(client), { now: client.serverNow(), maxAgeDays: 90 });
    assert.deepEqual(rulesOf(report, 'partner-portal'), ['rotation-overdue']);
    const [keyId] = successorKeyIds('partner-portal', client.serverNow());
    const successor = await client.createKey(PROJECT, {
      keyId,
      displayName: old.displayName!,
      restrictions: old.restrictions!,
      annotations: { rotatedFrom: 'partner-portal' },
    });
    assert.ok(successor.keyString, 'the create result carries the new key string');
    report = auditKeys(PROJECT, await collect(client), { now: client.serverNow(), maxAgeDays: 90 });
    assert.deepEqual(rulesOf(report, keyId), []);
    assert.deepEqual((await client.getKey(successor.name)).restrictions, old.restrictions);
    assert.ok(!JSON.stringify(report).includes(successor.keyString), 'no key string in the report');
    assert.ok(!formatAuditMarkdown(report).includes(successor.keyString));
  });

  it('decorates the tree rows with their findings once an audit ran, for the Fix Audit Finding menu', async () => {
    const audit: { maxAge?: number } = {};
    const provider = new tree.KeysTreeProvider(() => new tree.KeysModel(PROJECT, client, () => sandbox.clock.now()));
    provider.auditMaxAgeDays = () => audit.maxAge;
    const rows = async (): Promise<Array<InstanceType<typeof tree.KeyNode>>> => {
      const [project] = await provider.getChildren();
      return (await provider.getChildren(project)).filter(
        (c): c is InstanceType<typeof tree.KeyNode> => c instanceof tree.KeyNode,
      );
    };
    const patterns = fixMenuPatterns();
    assert.ok(patterns.length > 0);
    const plain = await rows();
    assert.ok(plain.every((r) => r.findings.length === 0 && !patterns.some((p) => p.test(r.contextValue!))));

    audit.maxAge = 90;
    provider.refresh();
    const audited = await rows();
    const ingest = audited.find((r) => r.key.name.endsWith('/ipv6-ingest'))!;
    assert.equal(ingest.description, 'ipv6-ingest · ⚠ 1 audit finding · 2 IPs · any API');
    assert.match(ingest.tooltip as string, /⚠ 1\.14 No API restriction: /);
    assert.ok(patterns.every((p) => p.test(ingest.contextValue!)));
    const clean = audited.find((r) => r.key.name.endsWith('/vertex-bound'))!;
    assert.equal(clean.contextValue, 'key.active.bound');
    assert.ok(!patterns.some((p) => p.test(clean.contextValue!)));
    const open = audited.find((r) => r.key.name.endsWith('/vertex-bound-open'))!;
    assert.equal(open.contextValue, 'key.active.bound.finding', 'a bound key keeps its .bound part');
  });
});

describe('Key audit of a hostile server answer', () => {
  let server: Server;
  let keys: unknown[];

  before(async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('date', new Date('2026-12-07T09:00:00Z').toUTCString());
      if (req.url?.startsWith('/v2/projects/p/locations/global/keys')) res.end(JSON.stringify({ keys }));
      else {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { code: 404, message: 'no', status: 'NOT_FOUND' } }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('keeps a malformed createTime and hostile display names as data', async () => {
    keys = [
      { name: 'projects/p/locations/global/keys/a', displayName: 'ok', createTime: 'not-a-time' },
      { name: 'projects/p/locations/global/keys/b', displayName: 'x\n::error file=x::owned', createTime: 1234 },
      {
        name: 'projects/p/locations/global/keys/c',
        displayName: '<script>alert(1)</script>[run](command:workbench.action.terminal.new)',
        createTime: '2026-12-01T00:00:00Z',
        restrictions: { browserKeyRestrictions: 'not an object', apiTargets: [{ service: null }, 7] },
      },
    ];
    const port = (server.address() as AddressInfo).port;
    const client = new ApiKeysClient({
      baseUrl: `http://127.0.0.1:${port}`,
      tokens: sandboxTokenSource(),
      retry: NO_RETRY,
    });
    const listed: ApiKey[] = [];
    for await (const k of client.iterateKeys('p')) listed.push(k);
    const report = auditKeys('p', listed, { now: client.serverNow(), maxAgeDays: 90 });
    assert.deepEqual(
      report.keys.map((k) => k.findings.map((f) => f.rule)),
      [
        ['application-restriction-missing', 'api-restriction-missing', 'rotation-unknown'],
        ['application-restriction-missing', 'api-restriction-missing', 'rotation-unknown'],
        ['application-restriction-missing'],
      ],
    );
    const text = formatAuditMarkdown(report);
    assert.ok(
      text.split('\n').every((line) => !line.startsWith('::')),
      'a display name started a workflow command',
    );
    assert.ok(!/<script|\]\(command:/i.test(text), 'markup from a display name is live in the Markdown');
  });
});
