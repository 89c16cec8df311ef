// The Test Explorer's rule tests over real files: a rule with a test file is listed (cases on their
// lines, names as text), a linked or broken test file is not run, and a run reports passed, failed
// (with the expected/actual YAML of the difference on the case's line) and errored cases.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type * as DiscoveryModule from '../../../../src/features/ruleTests/discovery';
import type * as RunModule from '../../../../src/features/ruleTests/run';
import type * as IndexModule from '../../../../src/features/ruleTests/index';
import { useFakeVscode } from '../../fakes/vscode';
import { ruleTestsWorkerPath } from '../../../support/rule-worker-host';
import { C2_RULE, placeholderBombRule } from '../../../support/rule-texts';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { RuleTestItems, caseId } = require('../../../../src/features/ruleTests/discovery') as typeof DiscoveryModule;
const { runRequest } = require('../../../../src/features/ruleTests/run') as typeof RunModule;
const { runContinuously } = require('../../../../src/features/ruleTests/index') as typeof IndexModule;

class Items {
  readonly map = new Map<string, Item>();
  add(i: Item): void {
    this.map.set(i.id, i);
  }
  get(id: string): Item | undefined {
    return this.map.get(id);
  }
  delete(id: string): void {
    this.map.delete(id);
  }
  replace(items: Item[]): void {
    this.map.clear();
    for (const i of items) this.add(i);
  }
  forEach(fn: (i: Item) => void): void {
    [...this.map.values()].forEach(fn);
  }
  get size(): number {
    return this.map.size;
  }
}

class Item {
  readonly children = new Items();
  parent?: Item;
  range?: { start: { line: number } };
  description?: string;
  error?: unknown;
  constructor(
    readonly id: string,
    readonly label: string,
    readonly uri: { path: string },
  ) {
    const add = this.children.add.bind(this.children);
    this.children.add = (c: Item) => {
      c.parent = this;
      add(c);
    };
    const replace = this.children.replace.bind(this.children);
    this.children.replace = (cs: Item[]) => {
      for (const c of cs) c.parent = this;
      replace(cs);
    };
  }
}

interface Outcome {
  state: string;
  message?: { message: string; expectedOutput?: string; actualOutput?: string; location?: any };
}

/** What runRequest is given: the items, their controller and the worker the extension starts. */
function runnerOf(c: unknown, items: unknown): any {
  return { items, controller: c, workerFile: ruleTestsWorkerPath() };
}

/** A token that is cancelled already or never. */
function tokenOf(cancelled: boolean): any {
  return { isCancellationRequested: cancelled, onCancellationRequested: () => ({ dispose: () => undefined }) };
}

/** A token that every listener hears when `cancel` is called, and that forgets a disposed listener. */
function cancellable() {
  const listeners = new Set<() => void>();
  const token = {
    isCancellationRequested: false,
    onCancellationRequested: (fn: () => void) => {
      listeners.add(fn);
      return { dispose: () => listeners.delete(fn) };
    },
  };
  const cancel = (): void => {
    token.isCancellationRequested = true;
    for (const fn of [...listeners]) fn();
  };
  return { token, cancel };
}

function controller() {
  const outcomes = new Map<string, Outcome>();
  // The run's own token: the Test Explorer's stop button on a run the extension started.
  const { token: runToken, cancel: stop } = cancellable();
  const output: string[] = [];
  const c = {
    items: new Items(),
    createTestItem: (id: string, label: string, uri: { path: string }) => new Item(id, label, uri),
    createTestRun: () => ({
      token: runToken,
      enqueued: () => undefined,
      started: () => undefined,
      skipped: (i: Item) => outcomes.set(i.id, { state: 'skipped' }),
      passed: (i: Item) => outcomes.set(i.id, { state: 'passed' }),
      failed: (i: Item, m: Outcome['message']) => outcomes.set(i.id, { state: 'failed', message: m }),
      errored: (i: Item, m: Outcome['message']) => outcomes.set(i.id, { state: 'errored', message: m }),
      appendOutput: (text: string) => output.push(text),
      end: () => undefined,
    }),
  };
  return { c, outcomes, output, stop };
}

const RULE = C2_RULE;

const TESTS = `cases:
  - name: fires at 90
    events:
      - udm: { metadata: { id: a, eventTimestamp: '2026-11-01T09:00:00Z', eventType: NETWORK_CONNECTION }, target: { ip: ['198.51.100.23'], port: 4444 } }
    expect:
      detections:
        - riskScore: 91
  - name: "[quiet](command:workbench.action.reloadWindow) \\u202e"
    events:
      - udm: { metadata: { id: b, eventTimestamp: '2026-11-01T09:00:00Z', eventType: NETWORK_CONNECTION }, target: { ip: ['203.0.113.1'] } }
    expect: { fires: false }
  - name: missing events file
    events: events/nowhere.ndjson
    expect: { fires: false }
`;

describe('rule tests in the Test Explorer', () => {
  let dir: string;
  /** the rules whose test files the workspace lists */
  const listed = ['c2_connection', 'linked', 'broken'];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cb-ruletests-'));
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'rules'));
    writeFileSync(join(dir, 'rules', 'c2_connection.yaral'), RULE);
    writeFileSync(join(dir, 'rules', 'c2_connection.test.yaml'), TESTS);
    // a second rule whose test file is a link: never read
    writeFileSync(join(dir, 'rules', 'linked.yaral'), RULE.replace('c2_connection', 'linked'));
    const outside = mkdtempSync(join(tmpdir(), 'cb-outside-'));
    writeFileSync(join(outside, 'secret.test.yaml'), TESTS);
    symlinkSync(join(outside, 'secret.test.yaml'), join(dir, 'rules', 'linked.test.yaml'));
    // a third rule whose test file is broken
    writeFileSync(join(dir, 'rules', 'broken.yaral'), RULE.replace('c2_connection', 'broken'));
    writeFileSync(join(dir, 'rules', 'broken.test.yaml'), 'cases:\n  - name: x\n    expect: { fire: true }\n');
    const folder = { uri: vscode.Uri.file(dir), name: 'ws', index: 0 };
    vscode.workspace.getWorkspaceFolder = () => folder;
    vscode.workspace.asRelativePath = (u: { path: string }) => u.path.slice(dir.length + 1);
    vscode.workspace.findFiles = async () => listed.map((r) => vscode.Uri.file(join(dir, 'rules', `${r}.test.yaml`)));
    vscode.workspace.fs = {
      stat: async (u: { fsPath: string }) => {
        const s = lstatSync(u.fsPath);
        return { type: s.isSymbolicLink() ? 64 | 1 : s.isFile() ? 1 : 2, size: statSync(u.fsPath).size };
      },
      readFile: async (u: { fsPath: string }) => readFileSync(u.fsPath),
    };
    vscode.Range = class {
      readonly start: { line: number; character: number };
      constructor(line: number, character: number) {
        this.start = { line, character };
      }
    };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists a rule with its cases on their lines, names as plain text; a linked test file is not read', async () => {
    const { c } = controller();
    const items = new RuleTestItems(c as any);
    await items.refreshAll();
    const ids = [...c.items.map.keys()].map((id) => id.replace(/^.*\//, ''));
    assert.deepEqual(ids.sort(), ['broken.yaral', 'c2_connection.yaral', 'linked.yaral']);
    const linked = [...c.items.map.values()].find((i) => i.id.endsWith('linked.yaral'))!;
    assert.match(String(linked.error), /linked\.test\.yaml cannot be read \(a link/);
    assert.equal(linked.children.size, 0);
    const rule = [...c.items.map.values()].find((i) => i.id.endsWith('c2_connection.yaral'))!;
    assert.equal(rule.label, 'c2_connection');
    assert.equal(rule.range?.start.line, 0);
    const cases = [...rule.children.map.values()];
    assert.deepEqual(
      cases.map((i) => i.range?.start.line),
      [1, 7, 11],
    );
    const quiet = cases[1];
    assert.ok(!quiet.label.includes('](command:'), quiet.label);
    assert.ok(!/[\u202a-\u202e]/.test(quiet.label), 'bidi controls removed');
    const broken = [...c.items.map.values()].find((i) => i.id.endsWith('broken.yaral'))!;
    assert.match(
      (broken.error as { value: string }).value,
      /broken\.test\.yaml:3: cases\[0\]\.expect: give one of fires/,
    );
    assert.equal(broken.children.size, 0);
  });

  it('runs the cases: a pass, a failure with its expected/actual YAML on the case line, an error', async () => {
    const { c, outcomes } = controller();
    const items = new RuleTestItems(c as any);
    await items.refreshAll();
    await runRequest(runnerOf(c, items), { include: undefined, exclude: [] } as any, tokenOf(false), false);
    const testFile = vscode.Uri.file(join(dir, 'rules', 'c2_connection.test.yaml'));
    const of = (name: string) => outcomes.get(caseId(testFile, name));
    const failed = of('fires at 90')!;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.message?.message, 'detection 1 riskScore: expected 91, got 90');
    assert.deepEqual(parse(failed.message.expectedOutput!), { detections: [{ riskScore: 91 }] });
    assert.deepEqual(parse(failed.message.actualOutput!), { detections: [{ riskScore: 90 }] });
    assert.equal(failed.message?.location.range.start.line, 1);
    assert.equal(of('[quiet](command:workbench.action.reloadWindow) \u202e')?.state, 'passed');
    const error = of('missing events file')!;
    assert.equal(error.state, 'errored');
    assert.match(error.message!.message, /events\/nowhere\.ndjson/);
  });

  it('runs one case alone, and Run and Show Detections writes what the engine found', async () => {
    const { c, outcomes, output } = controller();
    const items = new RuleTestItems(c as any);
    await items.refreshAll();
    const testFile = vscode.Uri.file(join(dir, 'rules', 'c2_connection.test.yaml'));
    const rule = [...c.items.map.values()].find((i) => i.id.endsWith('c2_connection.yaral'))!;
    const one = rule.children.get(caseId(testFile, 'fires at 90'))!;
    await runRequest(runnerOf(c, items), { include: [one], exclude: [] } as any, tokenOf(false), true);
    assert.deepEqual([...outcomes.keys()], [one.id]);
    assert.match(output.join(''), /riskScore: 90/);
  });

  it('a cancelled run skips what it had not started', async () => {
    const { c, outcomes } = controller();
    const items = new RuleTestItems(c as any);
    await items.refreshAll();
    await runRequest(runnerOf(c, items), { include: undefined, exclude: [] } as any, tokenOf(true), false);
    assert.ok(outcomes.size > 0);
    assert.ok([...outcomes.values()].every((o) => o.state === 'skipped'));
  });

  it("the Test Explorer's stop button ends a run the extension started: the worker stops, the cases are skipped", async () => {
    const ips = Array.from({ length: 16 }, (_, j) => `'10.7.0.${j + 1}'`).join(', ');
    const cases = Array.from(
      { length: 20 },
      (_, i) =>
        `  - name: bomb ${i}\n    events:\n      - udm: { metadata: { eventTimestamp: '2026-11-01T09:00:00Z', eventType: NETWORK_CONNECTION }, principal: { ip: [${ips}] } }\n    expect: { fires: false }\n`,
    );
    writeFileSync(join(dir, 'rules', 'placeholder_bomb.yaral'), placeholderBombRule());
    writeFileSync(join(dir, 'rules', 'placeholder_bomb.test.yaml'), `cases:\n${cases.join('')}`);
    listed.push('placeholder_bomb');
    try {
      const { c, outcomes, stop } = controller();
      const items = new RuleTestItems(c as any);
      await items.refreshAll();
      const rule = [...c.items.map.values()].find((i) => i.id.endsWith('placeholder_bomb.yaral'))!;
      let turns = 0;
      const tick = setInterval(() => {
        if (++turns === 5) stop();
      }, 20);
      try {
        await runRequest(runnerOf(c, items), { include: [rule], exclude: [] } as any, tokenOf(false), false);
      } finally {
        clearInterval(tick);
      }
      assert.ok(turns >= 5, `the host ran ${turns} timer turns while the cases computed`);
      assert.equal(outcomes.size, 20);
      assert.ok([...outcomes.values()].every((o) => o.state === 'skipped'));
    } finally {
      listed.pop();
    }
  });

  it('continuous run: the cases again each time their rule or test file is saved, until stopped', async () => {
    const { c, outcomes } = controller();
    const items = new RuleTestItems(c as any);
    await items.refreshAll();
    const saves: Array<(doc: { uri: unknown }) => Promise<void>> = [];
    vscode.workspace.onDidSaveTextDocument = (fn: (doc: { uri: unknown }) => Promise<void>) => {
      saves.push(fn);
      return { dispose: () => saves.splice(saves.indexOf(fn), 1) };
    };
    const { token, cancel } = cancellable();
    const testFile = join(dir, 'rules', 'c2_connection.test.yaml');
    const id = caseId(vscode.Uri.file(testFile), 'fires at 90');
    const running = runContinuously(
      runnerOf(c, items),
      { include: undefined, continuous: true } as any,
      token as any,
      false,
    );
    // the first run ends before the save listener is added
    for (let i = 0; i < 200 && saves.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(outcomes.get(id)?.state, 'failed');
    assert.equal(saves.length, 1);
    // the expectation fixed and saved: the case runs again and passes
    const original = readFileSync(testFile, 'utf8');
    writeFileSync(testFile, original.replace('riskScore: 91', 'riskScore: 90'));
    try {
      await saves[0]({ uri: vscode.Uri.file(testFile) });
      assert.equal(outcomes.get(id)?.state, 'passed');
      // a save of an unrelated file runs nothing
      outcomes.clear();
      await saves[0]({ uri: vscode.Uri.file(join(dir, 'notes.md')) });
      assert.equal(outcomes.size, 0);
      cancel();
      await running;
      assert.equal(saves.length, 0, 'the save listener is gone once the run is stopped');
    } finally {
      writeFileSync(testFile, original);
    }
  });
});
