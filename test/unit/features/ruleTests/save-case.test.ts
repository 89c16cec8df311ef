// Saving found events as a rule test case: a quiet range kept as a no-fire case (events file and
// case written, the case passes with cloudbench test's runner), a name already taken refused as
// typed, and events that would not give what the case claims refused with nothing written.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type * as SaveModule from '../../../../src/features/shared/rule-test-cases';
import type * as SearchSaveModule from '../../../../src/features/search/commands/test-case';
import { testRule } from '../../../../src/cli/test';
import { useFakeVscode } from '../../fakes/vscode';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { saveTestCase } = require('../../../../src/features/shared/rule-test-cases') as typeof SaveModule;
const { saveResultsAsTestCase } =
  require('../../../../src/features/search/commands/test-case') as typeof SearchSaveModule;

const RULE = `rule blocked_logins {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "USER_LOGIN"
    $e.security_result.action = "BLOCK"
    $e.target.user.userid = $user
  match:
    $user over 1h
  condition:
    #e >= 2
}
`;

const login = (id: string, t: string, user: string, action: string) => ({
  udm: {
    metadata: { id, eventTimestamp: t, eventType: 'USER_LOGIN' },
    principal: { hostname: 'lt-ana-01', ip: ['10.1.2.3'] },
    target: { user: { userid: user } },
    securityResult: [{ action: [action] }],
  },
});

describe('Save as Test Case', () => {
  let dir: string;
  let rule: any;
  let answers: { name?: string; validation?: (v: string) => unknown; redact: boolean };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cb-save-'));
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'rules'));
    writeFileSync(join(dir, 'rules', 'blocked_logins.yaral'), RULE);
    rule = vscode.Uri.file(join(dir, 'rules', 'blocked_logins.yaral'));
    vscode.workspace.textDocuments = [];
    vscode.workspace.asRelativePath = (u: { path: string }) => u.path.slice(dir.length + 1);
    vscode.workspace.fs = {
      stat: async (u: { fsPath: string }) => ({ type: 1, size: statSync(u.fsPath).size }),
      readFile: async (u: { fsPath: string }) => readFileSync(u.fsPath),
      writeFile: async (u: { fsPath: string }, bytes: Uint8Array) => {
        mkdirSync(dirname(u.fsPath), { recursive: true });
        writeFileSync(u.fsPath, bytes);
      },
    };
    vscode.window.showInputBox = async (o: { value: string; validateInput: (v: string) => unknown }) => {
      answers.validation = o.validateInput;
      return answers.name ?? o.value;
    };
    vscode.window.showQuickPick = async (items: Array<{ redact?: boolean; uri?: unknown }>) =>
      items[0]?.uri ? items[0] : items.find((i) => i.redact === answers.redact);
    vscode.workspace.findFiles = async () => [rule];
    vscode.workspace.openTextDocument = async (u: { fsPath: string }) => ({
      getText: () => readFileSync(u.fsPath, 'utf8'),
    });
    vscode.window.showTextDocument = async () => undefined;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = () =>
    testRule({ path: join(dir, 'rules', 'blocked_logins.yaral'), root: dir }, { paths: [] }).cases.map((c) => [
      c.name,
      c.status,
    ]);

  it('keeps a quiet range as a no-fire case that passes, names replaced', async () => {
    answers = { name: 'quiet Monday', redact: true };
    const events = [
      login('a', '2026-11-30T09:00:00Z', 'ines.costa', 'BLOCK'),
      login('b', '2026-11-30T11:00:00Z', 'ines.costa', 'BLOCK'),
      login('c', '2026-11-30T11:10:00Z', 'hugo.silva', 'ALLOW'),
    ];
    await saveTestCase({
      rule,
      ruleName: 'blocked_logins',
      ruleText: RULE,
      events,
      lists: {},
      fires: false,
      suggestedName: 'x',
    });
    const testFile = readFileSync(join(dir, 'rules', 'blocked_logins.test.yaml'), 'utf8');
    assert.match(
      testFile,
      /- name: quiet Monday\n\s+events: events\/blocked_logins-quiet-monday\.ndjson\n\s+expect:\n\s+fires: false/,
    );
    const stored = readFileSync(join(dir, 'rules', 'events', 'blocked_logins-quiet-monday.ndjson'), 'utf8');
    assert.equal(stored.trim().split('\n').length, 3);
    assert.ok(!stored.includes('ines.costa') && !stored.includes('10.1.2.3') && !stored.includes('lt-ana-01'));
    assert.match(stored, /"eventTimestamp":"2026-01-05T09:00:00(\.000)?Z"/);
    assert.deepEqual(run(), [['quiet Monday', 'passed']]);
  });

  it('adds a firing case after it, refusing a name the file already has', async () => {
    answers = { name: 'two blocked in an hour', redact: false };
    const events = [
      login('d', '2026-11-30T09:00:00Z', 'ines.costa', 'BLOCK'),
      login('e', '2026-11-30T09:20:00Z', 'ines.costa', 'BLOCK'),
    ];
    await saveTestCase({
      rule,
      ruleName: 'blocked_logins',
      ruleText: RULE,
      events,
      lists: {},
      fires: true,
      suggestedName: 'quiet Monday',
    });
    assert.equal(answers.validation?.('quiet Monday'), 'The test file already has a case of that name.');
    assert.equal(answers.validation?.('bad\u0007name'), 'No control characters.');
    assert.equal(answers.validation?.('fine'), undefined);
    assert.deepEqual(run(), [
      ['quiet Monday', 'passed'],
      ['two blocked in an hour', 'passed'],
    ]);
    assert.match(readFileSync(join(dir, 'rules', 'blocked_logins.test.yaml'), 'utf8'), /user: ines\.costa/);
  });

  it('refuses events that would not give what the case claims, writing nothing', async () => {
    answers = { name: 'not really firing', redact: true };
    const before = readFileSync(join(dir, 'rules', 'blocked_logins.test.yaml'), 'utf8');
    await assert.rejects(
      saveTestCase({
        rule,
        ruleName: 'blocked_logins',
        ruleText: RULE,
        events: [login('f', '2026-11-30T09:00:00Z', 'ines.costa', 'BLOCK')],
        lists: {},
        fires: true,
        suggestedName: 'x',
      }),
      /gives no detection.*Nothing was saved/,
    );
    assert.equal(readFileSync(join(dir, 'rules', 'blocked_logins.test.yaml'), 'utf8'), before);
    assert.ok(!existsSync(join(dir, 'rules', 'events', 'blocked_logins-not-really-firing.ndjson')));
  });

  it('keeps the events of the results panel in front for a rule picked, expecting what the rule gives', async () => {
    answers = { name: 'from a hunt', redact: true };
    const rows = [
      login('g', '2026-11-30T09:00:00Z', 'ines.costa', 'BLOCK'),
      login('h', '2026-11-30T09:05:00Z', 'ines.costa', 'BLOCK'),
      login('i', '2026-11-30T09:07:00Z', 'ines.costa', 'BLOCK'),
    ];
    const ctx = {
      controller: { activeRun: () => ({ info: { kind: 'udm', title: 'Blocked sign-ins' }, rows }) },
      services: { referenceLists: { entries: () => ({}) } },
    };
    await saveResultsAsTestCase(ctx as any);
    const text = readFileSync(join(dir, 'rules', 'blocked_logins.test.yaml'), 'utf8');
    assert.match(
      text,
      /- name: from a hunt\n\s+events: events\/blocked_logins-from-a-hunt\.ndjson\n\s+expect:\n\s+detections:/,
    );
    assert.deepEqual(run().at(-1), ['from a hunt', 'passed']);
    const none = { controller: { activeRun: () => undefined }, services: ctx.services };
    await assert.rejects(saveResultsAsTestCase(none as any), /Open a results panel/);
    const stats = {
      controller: { activeRun: () => ({ info: { kind: 'assets', title: 'a' }, rows }) },
      services: ctx.services,
    };
    await assert.rejects(saveResultsAsTestCase(stats as any), /Only events/);
  });
});
