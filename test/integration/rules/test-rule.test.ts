// Test Rule's command flow under the vscode fake, against the in-process sandbox through the real
// Search API client: declining the consent spends no udmSearch, agreeing spends one per event
// variable and shows the result, Cancel aborts the search in flight, a rule with errors or a spent
// hourly budget is refused before any search, with a message that says what to do.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { SecOpsClient } from '../../../src/core/secops/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { RateLimiter, SECOPS_BUDGETS } from '../../../src/core/ratelimit';
import type { ToRuleTestView } from '../../../src/core/secops/rule-test/protocol';
import type * as RulesModule from '../../../src/features/rules';
import type * as CommandsModule from '../../../src/features/rules/commands';
import type { RuleTestDeps } from '../../../src/features/rules/deps';
import { fakeWebviewPanel } from '../../support/fake-webview-panel';
import { ruleWorkerRoot } from '../../support/rule-worker-host';
import { fakeExtensionContext, record, useFakeVscode } from '../../unit/fakes/vscode';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { activateRules } = require('../../../src/features/rules') as typeof RulesModule;
const { testRule } = require('../../../src/features/rules/commands') as typeof CommandsModule;

const ROOT = join(__dirname, '../../..');
const RULE_FILE = join(ROOT, 'test/e2e/fixtures/workspace/rules/repeated_failed_logins.yaral');
const HOUR = 3_600_000;

/** A text document as the command reads it. */
function fakeDocument(path: string, text: string): Record<string, unknown> {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  return {
    uri: vscode.Uri.file(path),
    languageId: 'yaral',
    getText: () => text,
    positionAt: (offset: number) => {
      let line = 0;
      while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
      return { line, character: offset - lineStarts[line] };
    },
    offsetAt: () => 0,
  };
}

async function sandboxCalls(sb: Sandbox, method: string): Promise<number> {
  const res = await fetch(`${sb.http}/sandbox/v1/state`);
  const state = (await res.json()) as { calls: Record<string, number> };
  return state.calls[method] ?? 0;
}

describe('Test Rule: the command flow against the sandbox', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let context: ReturnType<typeof fakeExtensionContext>;
  let posted: ToRuleTestView[];
  let panels: number;
  let consent: string | undefined;
  let warnings: Array<{ text: string; detail?: string }>;
  let client: SecOpsClient;
  let signals: AbortSignal[];
  let cancel: () => void;
  let progressed: Promise<void>;
  let ctx: ReturnType<typeof activateRules>['ctx'];
  let fromPage: (message: unknown) => void;
  let opened: Array<{ kind: 'event' | 'events'; title?: string; names: string[] }>;

  const ruleText = readFileSync(RULE_FILE, 'utf8');
  let documents: Map<string, Record<string, unknown>>;

  function deps(limiter?: RateLimiter): RuleTestDeps {
    client = new SecOpsClient({ baseUrl: sb.http, tokens: sandboxTokenSource(), ...(limiter ? { limiter } : {}) });
    const udmSearch = client.udmSearch.bind(client);
    client.udmSearch = (req, signal) => {
      if (signal) signals.push(signal);
      return udmSearch(req, signal);
    };
    return {
      client: () => client,
      timeRange: () => ({ kind: 'preset', preset: '7d' }),
      pickTimeRange: async (current) => current,
      confirmMore: async () => false,
      showEvents: (title, events) => void opened.push({ kind: 'events', title, names: events.map((e) => e.name) }),
      openEvent: async (event) => {
        opened.push({ kind: 'event', names: [event.name] });
        return {} as never;
      },
    };
  }

  beforeEach(async () => {
    sb = await startSandbox({ seed: 'demo' });
    posted = [];
    panels = 0;
    warnings = [];
    signals = [];
    opened = [];
    record.messages.length = 0;
    consent = 'Run Test';
    documents = new Map([[RULE_FILE, fakeDocument(RULE_FILE, ruleText)]]);
    vscode.workspace.openTextDocument = async (uri: { path: string }) => {
      const doc = documents.get(uri.path);
      if (!doc) throw new Error(`no document ${uri.path}`);
      return doc;
    };
    vscode.workspace.asRelativePath = (uri: { path: string }) => uri.path;
    vscode.languages = { getDiagnostics: () => [], registerCodeLensProvider: () => ({ dispose() {} }) };
    vscode.window.registerWebviewPanelSerializer = () => ({ dispose() {} });
    vscode.window.showWarningMessage = async (text: string, options: { detail?: string }, ...buttons: string[]) => {
      warnings.push({ text, ...(options?.detail ? { detail: options.detail } : {}) });
      return buttons.includes(consent ?? '') ? consent : undefined;
    };
    let cancelListeners: Array<() => void> = [];
    let onProgress: () => void = () => undefined;
    progressed = new Promise((resolve) => (onProgress = resolve));
    cancel = () => cancelListeners.forEach((l) => l());
    vscode.window.withProgress = async (_options: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) => {
      cancelListeners = [];
      const token = {
        isCancellationRequested: false,
        onCancellationRequested: (l: () => void) => {
          cancelListeners.push(l);
          return { dispose: () => (cancelListeners = cancelListeners.filter((x) => x !== l)) };
        },
      };
      return task({ report: () => onProgress() }, token);
    };
    vscode.window.createWebviewPanel = () => {
      panels++;
      // The page says it is ready as soon as it loads.
      const panel = fakeWebviewPanel<ToRuleTestView>({ ready: true, onPost: (m) => posted.push(m) });
      fromPage = panel.fromPage;
      return panel.webviewPanel;
    };
    context = fakeExtensionContext({}, ROOT);
  });

  afterEach(async () => {
    for (const d of context.subscriptions) d.dispose();
    await sb.close();
  });

  function start(limiter?: RateLimiter): void {
    // The engine computes in its worker, as the extension starts it (dist/rule-worker.js).
    ctx = activateRules(context, { extensionUri: vscode.Uri.file(ruleWorkerRoot()) } as never, deps(limiter)).ctx;
  }

  const target = (): unknown => ({ uri: vscode.Uri.file(RULE_FILE), offset: ruleText.indexOf('rule ') });
  const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

  it('declining the consent spends no udmSearch and opens no panel', async () => {
    start();
    consent = undefined;
    const before = await sandboxCalls(sb, 'secops.udmSearch');
    await testRule(ctx, target());
    assert.equal(await sandboxCalls(sb, 'secops.udmSearch'), before);
    assert.equal(panels, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].text, /repeated_failed_logins .* spends 1 udmSearch call \(one per event variable: \$e\)/);
    assert.match(warnings[0].detail ?? '', /\d+ of 360 udmSearch calls are left this hour/);
  });

  it('agreeing spends one search per event variable and shows the result in the rule’s panel', async () => {
    start();
    const before = await sandboxCalls(sb, 'secops.udmSearch');
    await testRule(ctx, target());
    await settle();
    assert.equal((await sandboxCalls(sb, 'secops.udmSearch')) - before, 1);
    assert.equal(panels, 1);
    const result = posted.find((m) => m.type === 'result');
    assert.ok(result && result.type === 'result', `no result: ${JSON.stringify(posted)}`);
    assert.equal(result.run.ruleName, 'repeated_failed_logins');
    assert.equal(result.run.searches, 1);
    // The events the test read are those udmSearch gives for $e's own statements.
    const now = Date.now();
    const direct = await new SecOpsClient({ baseUrl: sb.http, tokens: sandboxTokenSource() }).udmSearch({
      query: 'metadata.event_type = "USER_LOGIN"\nsecurity_result.action = "BLOCK"',
      startTime: Date.parse(result.run.startTime),
      endTime: Math.max(Date.parse(result.run.endTime), now),
      limit: 10_000,
    });
    assert.ok(direct.events.length > 0, 'the demo data has blocked sign-ins');
    assert.equal(result.run.eventsRead, direct.events.length);
    assert.equal(result.detections.length, Math.min(result.run.detectionsTotal, 1000));
  });

  it('reads the reference lists the rule names from the SecOps API', async () => {
    const listRule = join(ROOT, 'test/e2e/fixtures/workspace/rules/suspicious_domain_lookups.yaral');
    documents.set(listRule, fakeDocument(listRule, readFileSync(listRule, 'utf8')));
    start();
    const searches = await sandboxCalls(sb, 'secops.udmSearch');
    const lists = await sandboxCalls(sb, 'secops.getReferenceList');
    await testRule(ctx, { uri: vscode.Uri.file(listRule), offset: 0 });
    await settle();
    assert.equal((await sandboxCalls(sb, 'secops.udmSearch')) - searches, 1);
    assert.equal((await sandboxCalls(sb, 'secops.getReferenceList')) - lists, 1);
    const result = posted.find((m) => m.type === 'result');
    assert.ok(result && result.type === 'result' && result.run.ruleName === 'suspicious_domain_lookups');
    assert.ok(result.run.eventsRead > 0, 'the demo data has look-ups of listed domains');
  });

  it('Cancel aborts the search in flight and computes nothing', async () => {
    start();
    // Without the abort the search would take ten minutes: far longer than this test may run.
    await fetch(`${sb.http}/sandbox/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ method: 'secops.udmSearch', latencyMs: 600_000 }]),
    });
    const running = testRule(ctx, target());
    await progressed;
    while (signals.length === 0) await settle();
    cancel();
    await assert.rejects(running, (err: Error) => err.name === 'CancelledError');
    assert.equal(signals[0].aborted, true, 'the client was handed the aborted signal');
    assert.equal(posted.filter((m) => m.type === 'result').length, 0);
    const failed = posted.find((m) => m.type === 'failed');
    assert.ok(failed && failed.type === 'failed' && failed.cancelled);
  });

  it('a rule with errors is not tested: the message points at the Problems panel', async () => {
    start();
    const broken = ruleText.replace('match:\n    $user over 24h', 'match:\n    $user over');
    documents.set(RULE_FILE, fakeDocument(RULE_FILE, broken));
    const before = await sandboxCalls(sb, 'secops.udmSearch');
    await testRule(ctx, target());
    assert.equal(await sandboxCalls(sb, 'secops.udmSearch'), before);
    const error = record.messages.find((m) => m.level === 'error');
    assert.ok(error, 'an error message');
    assert.match(error.text, /repeated_failed_logins has errors, so it cannot be tested: line \d+: .*Problems panel/);
    assert.equal(warnings.length, 0, 'no consent asked');
  });

  it('a spent hourly budget is refused before asking, saying when a search frees up', async () => {
    const limiter = new RateLimiter({ ...SECOPS_BUDGETS, udmSearch: { limit: 1, windowMs: HOUR } });
    start(limiter);
    await client.udmSearch({
      query: 'metadata.event_type = "USER_LOGIN"',
      startTime: Date.now() - HOUR,
      endTime: Date.now(),
      limit: 1,
    });
    await assert.rejects(
      testRule(ctx, target()),
      /hourly udmSearch budget is spent: .* 0 of 1 are left\. The next one frees up at/,
    );
    assert.equal(warnings.length, 0);
  });

  it('a detection’s events open from the page: one as its document, all in the events table', async () => {
    start();
    const udm = (id: string, t: string) => ({
      metadata: { id, eventType: 'USER_LOGIN', eventTimestamp: t },
      target: { user: { userid: 'alice' } },
    });
    const window = { startMs: 0, endMs: 10, start: '1970-01-01T00:00:00Z', end: '1970-01-01T00:00:00.010Z' };
    ctx.runs.show(
      {
        ruleName: 'repeated_failed_logins',
        uri: vscode.Uri.file(RULE_FILE).toString(),
        window,
        plan: { ruleName: 'repeated_failed_logins', searches: [], untestable: [] },
        referenceLists: {},
        result: {
          detections: [
            {
              match: { user: 'alice' },
              windowStart: 1,
              windowEnd: 5,
              outcomes: { failures: 2 },
              riskScore: 20,
              events: {
                e: [
                  { id: 'AAA=', udm: udm('AAA=', '2026-11-26T10:00:00Z') },
                  { id: 'AAE=', udm: udm('AAE=', '2026-11-26T11:00:00Z') },
                ],
              },
            },
          ],
          notes: [],
        },
        searches: 1,
        eventsRead: 2,
        notes: [],
      },
      window,
    );
    await settle();
    const result = posted.find((m) => m.type === 'result');
    assert.ok(result && result.type === 'result');
    assert.deepEqual(result.detections[0].match, [['user', 'alice']]);
    const runId = result.run.runId;
    fromPage({ type: 'openEvent', runId, detection: 0, variable: 'e', index: 1 });
    fromPage({ type: 'openEvents', runId, detection: 0 });
    // Malformed or unknown asks are dropped before anything acts on them.
    fromPage({ type: 'openEvent', runId, detection: 0, variable: '../x', index: 0 });
    fromPage({ type: 'openEvents', runId: 'another run', detection: 0 });
    await settle();
    assert.deepEqual(opened, [
      { kind: 'event', names: ['AAE='] },
      {
        kind: 'events',
        title: 'Events of repeated_failed_logins detection 1 ($user = alice)',
        names: ['AAA=', 'AAE='],
      },
    ]);
    assert.deepEqual(
      record.messages.map((m) => m.text),
      ['Test Rule: This result is no longer held; Run Again to open its events.'],
    );
  });

  it('a panel restored after a reload runs nothing until Run Again, which asks before searching', async () => {
    start();
    consent = undefined;
    const restored = vscode.window.createWebviewPanel();
    panels = 0;
    ctx.runs.restore(restored, {
      run: {
        runId: 'kept-run',
        ruleName: 'repeated_failed_logins',
        uri: vscode.Uri.file(RULE_FILE).toString(),
        startTime: '2026-11-20T00:00:00Z',
        endTime: '2026-11-27T00:00:00Z',
        searches: 1,
        eventsRead: 3,
        notes: [],
        detectionsTotal: 1,
        ranAt: '2026-11-27T00:00:00Z',
      },
    });
    await settle();
    const before = await sandboxCalls(sb, 'secops.udmSearch');
    fromPage({ type: 'openEvents', runId: 'kept-run', detection: 0 });
    await settle();
    assert.match(record.messages[0]?.text ?? '', /restored after a reload without its events; Run Again/);
    fromPage({ type: 'rerun', runId: 'kept-run' });
    while (warnings.length === 0) await settle();
    assert.match(warnings[0].text, /Test repeated_failed_logins over 2026-11-20T00:00:00Z – 2026-11-27T00:00:00Z\?/);
    assert.equal(await sandboxCalls(sb, 'secops.udmSearch'), before, 'declined: nothing spent');
    assert.equal(panels, 0, 'the restored panel is the rule’s panel');
  });
});
