// The Test Rule panels and the runs they show: one panel per rule, the newest run of each held with
// its events so a detection's events open in the events table or as documents, and Run Again.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isCancellation } from '../../core/google/errors';
import {
  MAX_SHOWN_DETECTIONS,
  parseRunInfo,
  type FromRuleTestView,
  type RuleTestRunInfo,
} from '../../core/secops/rule-test/protocol';
import { windowOf } from '../../core/secops/results/arrange';
import type { UdmSearchEvent } from '../../core/secops/types';
import { reportError } from '../../platform/commands';
import { getLogger } from '../../platform/log';
import type { Detection } from '../../udm/rule/test-types';
import type { RuleTestDeps } from './deps';
import { OpenPanels } from '../../platform/open-panels';
import { saveTestCase } from '../shared/rule-test-cases';
import { RuleTestPanel } from './panel';
import { ruleWithoutErrors, runTest, type RuleTestRun, type RuleUnderTest } from './test-rule';
import { detectionViews } from './view-model';
import type { ResolvedWindow } from '../../core/secops/timerange';

const log = getLogger('rules');

interface HeldRun {
  info: RuleTestRunInfo;
  detections: Detection[];
  window: ResolvedWindow;
  /** the reference lists the run read */
  lists?: Record<string, string[]>;
  /** every event read, held when there was no detection */
  events?: UdmSearchEvent[];
}

export class RuleTestRuns implements vscode.Disposable {
  private readonly panels = new OpenPanels<RuleTestPanel>();
  private readonly runs = new Map<string, HeldRun>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly deps: RuleTestDeps,
  ) {}

  dispose(): void {
    this.panels.closeAll();
    this.runs.clear();
  }

  /** The panel of a rule (by file and name), created or revealed. */
  panelFor(uri: string, ruleName: string): RuleTestPanel {
    return this.panels.showOrCreate(
      `${uri}#${ruleName}`,
      (closed) => RuleTestPanel.create(this.extensionUri, ruleName, (m, p) => void this.onMessage(m, p), closed),
      (p) => p.reveal(),
    );
  }

  /** A panel VS Code restored after a reload: the page shows its own kept state; nothing runs. */
  restore(webviewPanel: vscode.WebviewPanel, state: unknown): void {
    let info: RuleTestRunInfo | undefined;
    try {
      info = parseRunInfo((state as { run?: unknown } | null)?.run);
    } catch {
      info = undefined;
    }
    const adopt = (key: string): RuleTestPanel =>
      this.panels.add(
        key,
        (closed) => new RuleTestPanel(webviewPanel, this.extensionUri, (m, p) => void this.onMessage(m, p), closed),
      );
    if (info) {
      adopt(`${info.uri}#${info.ruleName}`).setTitle(info.ruleName);
      // Run Again works from the restored run; its events are not held.
      this.runs.set(info.runId, { info: { ...info, restored: true }, detections: [], window: windowOf(info) });
    } else {
      adopt(`restored#${randomUUID()}`).post({
        type: 'failed',
        ruleName: 'Test Rule',
        message: 'Restored after a reload without a test result. Run Test Rule from the rule file.',
        cancelled: true,
      });
    }
  }

  /** Tests `target` over `window` into its panel. */
  async test(target: RuleUnderTest, window: ResolvedWindow): Promise<void> {
    const uri = target.document.uri.toString();
    let panel: RuleTestPanel | undefined;
    const open = (): RuleTestPanel => (panel ??= this.panelFor(uri, target.name));
    let run: RuleTestRun | undefined;
    try {
      run = await runTest(this.deps, target, window, {
        workerFile: vscode.Uri.joinPath(this.extensionUri, 'dist', 'rule-worker.js').fsPath,
        onProgress: (message) => open().post({ type: 'running', ruleName: target.name, message }),
      });
    } catch (err) {
      if (panel)
        panel.post({
          type: 'failed',
          ruleName: target.name,
          cancelled: isCancellation(err),
          message: isCancellation(err) ? 'Cancelled: no detections were computed.' : (err as Error).message,
        });
      throw err;
    }
    if (run) this.show(run, window);
  }

  /** Shows a finished run in its rule's panel and holds its events for opening them. */
  show(run: RuleTestRun, window: ResolvedWindow): void {
    const uri = run.uri;
    // The engine repeats a cut's message as its last note: the banner says it once.
    const notes = run.notes.filter((n) => n !== run.result.cut?.message);
    const info: RuleTestRunInfo = {
      runId: randomUUID(),
      ruleName: run.ruleName,
      uri,
      startTime: window.start,
      endTime: window.end,
      searches: run.searches,
      eventsRead: run.eventsRead,
      notes:
        run.result.detections.length > MAX_SHOWN_DETECTIONS
          ? [...notes, `The panel lists the first ${MAX_SHOWN_DETECTIONS.toLocaleString('en-US')} detections.`]
          : notes,
      detectionsTotal: run.result.detections.length,
      ranAt: new Date().toISOString(),
      ...(run.result.cut
        ? { cut: { reason: run.result.cut.reason, message: run.result.cut.message.slice(0, 2000) } }
        : {}),
    };
    // Only the newest run of a rule is held: its panel shows nothing older.
    for (const [id, held] of this.runs)
      if (held.info.uri === uri && held.info.ruleName === run.ruleName) this.runs.delete(id);
    this.runs.set(info.runId, {
      info,
      detections: run.result.detections,
      window,
      lists: run.referenceLists,
      ...(run.events ? { events: run.events } : {}),
    });
    this.panelFor(uri, run.ruleName).post({
      type: 'result',
      run: info,
      detections: detectionViews(run.result.detections),
    });
  }

  /** Run Again: the same rule over the same range, with the same questions first. */
  async rerun(runId: string): Promise<void> {
    const held = this.runs.get(runId);
    if (!held) throw new Error('This result is no longer held; run Test Rule from the rule file.');
    const target = await ruleWithoutErrors({ uri: vscode.Uri.parse(held.info.uri), name: held.info.ruleName });
    if (target) await this.test(target, held.window);
  }

  private heldRun(runId: string): HeldRun {
    const held = this.runs.get(runId);
    if (!held) throw new Error('This result is no longer held; Run Again to open its events.');
    if (held.info.restored)
      throw new Error('This result was restored after a reload without its events; Run Again to open them.');
    return held;
  }

  /** Every event of a detection, in the events table (with its detail pane). */
  openEvents(runId: string, index: number): void {
    const held = this.heldRun(runId);
    const d = held.detections[index];
    if (!d) throw new Error(`The result has no detection ${index + 1}.`);
    const events: UdmSearchEvent[] = Object.values(d.events)
      .flat()
      .map((e, i) => ({ name: e.id ?? `event-${i + 1}`, udm: e.udm as UdmSearchEvent['udm'] }));
    const label = Object.entries(d.match)
      .map(([k, v]) => `$${k} = ${String(v)}`)
      .join(', ');
    this.deps.showEvents(
      `Events of ${held.info.ruleName} detection ${index + 1}${label ? ` (${label})` : ''}`,
      events,
      held.window,
    );
  }

  /** One event of a detection as a JSON document (as a result's "Full event" opens it). */
  async openEvent(runId: string, index: number, variable: string, eventIndex: number): Promise<void> {
    const held = this.heldRun(runId);
    const e = held.detections[index]?.events[variable]?.[eventIndex];
    if (!e) throw new Error(`The detection has no such event of $${variable}.`);
    await this.deps.openEvent({ name: e.id ?? `${variable}-${eventIndex + 1}`, udm: e.udm as UdmSearchEvent['udm'] });
  }

  /** A detection's events, or a quiet run's events, kept as a test case of the rule. */
  async saveCase(runId: string, detection: number | undefined): Promise<void> {
    const held = this.heldRun(runId);
    const target = await ruleWithoutErrors({ uri: vscode.Uri.parse(held.info.uri), name: held.info.ruleName });
    if (!target) return;
    let events: unknown[];
    let suggestedName: string;
    if (detection === undefined) {
      if (held.detections.length || !held.events)
        throw new Error('Only a test without detections can be saved as a no-fire case.');
      events = held.events;
      suggestedName = `no detection over ${held.info.startTime.slice(0, 10)} – ${held.info.endTime.slice(0, 10)}`;
    } else {
      const d = held.detections[detection];
      if (!d) throw new Error(`The result has no detection ${detection + 1}.`);
      events = Object.values(d.events)
        .flat()
        .map((e) => ({ udm: e.udm }));
      const match = Object.entries(d.match)
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(', ');
      suggestedName = `fires${match ? ` for ${match}` : ''}`.slice(0, 150);
    }
    await saveTestCase({
      rule: target.document.uri,
      ruleName: target.name,
      ruleText: target.text,
      events,
      lists: held.lists ?? {},
      fires: detection !== undefined,
      suggestedName,
    });
  }

  private async onMessage(message: FromRuleTestView, _panel: RuleTestPanel): Promise<void> {
    try {
      switch (message.type) {
        case 'ready':
          return;
        case 'rerun':
          await this.rerun(message.runId);
          return;
        case 'openEvents':
          this.openEvents(message.runId, message.detection);
          return;
        case 'openEvent':
          await this.openEvent(message.runId, message.detection, message.variable, message.index);
          return;
        case 'saveCase':
          await this.saveCase(message.runId, message.detection);
          return;
        case 'saveNoFireCase':
          await this.saveCase(message.runId, undefined);
          return;
      }
    } catch (err) {
      if (isCancellation(err)) return;
      log.warn(`Test Rule panel: ${(err as Error).message}`);
      await reportError('Test Rule', err);
    }
  }
}
