// The metrics panel's extension side against the demo sandbox (gRPC, official protos), with the
// shared `vscode` fake and a stand-in webview panel: what it sends the page for an evaluation and a
// slice, comparing, CSV, the headline metrics in tree rows, and marking after a deletion.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type { MetricsToWebview } from '../../../src/core/models/metrics-messages';
import type * as TreeModule from '../../../src/features/models/tree';
import type * as PanelModule from '../../../src/features/models/metrics-panel';
import type * as SourceModule from '../../../src/features/models/metrics-source';

useFakeVscode();

const vscode = require('vscode') as Record<string, any>;
const tree = require('../../../src/features/models/tree') as typeof TreeModule;
const { MetricsPanels } = require('../../../src/features/models/metrics-panel') as typeof PanelModule;
// The models feature holds one of these per window.
const metricsPanels = new MetricsPanels(vscode.Uri.file('/ext'));
const { metricsSourceFor } = require('../../../src/features/models/metrics-source') as typeof SourceModule;

interface FakePanel {
  title: string;
  posted: MetricsToWebview[];
  html: string;
  send(message: unknown): void;
  dispose(): void;
}

describe('metrics panel against the demo sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let client: ModelRegistryClient;
  const panels: FakePanel[] = [];
  let original: unknown;

  before(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = new ModelRegistryClient({ tokenSource: sandboxTokenSource(), endpoint: { apiEndpoint: sandbox.grpc } });
    original = vscode.window.createWebviewPanel;
    vscode.window.createWebviewPanel = (_type: string, title: string) => {
      let onMessage: (m: unknown) => void = () => undefined;
      let onDispose: () => void = () => undefined;
      const panel: FakePanel & Record<string, unknown> = {
        title,
        posted: [],
        html: '',
        send: (m: unknown) => onMessage(m),
        dispose: () => onDispose(),
        reveal: () => undefined,
        webview: {
          cspSource: 'vscode-resource:',
          asWebviewUri: (u: { path: string }) => ({ toString: () => `vscode-resource:${u.path}` }),
          set html(v: string) {
            panel.html = v;
          },
          postMessage: (m: MetricsToWebview) => {
            panel.posted.push(m);
            return Promise.resolve(true);
          },
          onDidReceiveMessage: (fn: (m: unknown) => void) => {
            onMessage = fn;
            return { dispose() {} };
          },
        },
        onDidDispose: (fn: () => void) => {
          onDispose = fn;
          return { dispose() {} };
        },
      };
      panels.push(panel);
      return panel;
    };
  });
  after(async () => {
    vscode.window.createWebviewPanel = original;
    metricsPanels.closeAll();
    client.close();
    await sandbox.close();
  });

  function provider() {
    return new tree.ModelsTreeProvider({
      client: () => client,
      project: () => 'cloudbench-demo',
      configuredLocations: () => ['us-central1'],
      filter: () => undefined,
      importedAnnotations: () => [],
      pageSize: () => 100,
    });
  }

  async function child<T>(p: ReturnType<typeof provider>, node: any, test: (n: any) => boolean): Promise<T> {
    const found = (await p.getChildren(node)).find(test);
    assert.ok(found, 'child found');
    return found as T;
  }

  async function churnVersion3(p: ReturnType<typeof provider>) {
    const [project] = await p.getChildren();
    const loc = await child(p, project, (n) => n instanceof tree.LocationNode);
    const model = await child(
      p,
      loc,
      (n) => n instanceof tree.ModelNode && n.resourceName.endsWith('/churn-predictor'),
    );
    return child<InstanceType<typeof tree.VersionNode>>(
      p,
      model,
      (n) => n instanceof tree.VersionNode && n.version.versionId === '3',
    );
  }

  const until = async (panel: FakePanel, type: MetricsToWebview['type']) => {
    for (let i = 0; i < 200; i++) {
      const m = panel.posted.find((x) => x.type === type);
      if (m) return m;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${type} message; got ${panel.posted.map((m) => m.type).join(', ')}`);
  };

  it('puts the headline metrics in evaluation and slice rows', async () => {
    const p = provider();
    const version = await churnVersion3(p);
    const evaluation = await child<InstanceType<typeof tree.EvaluationNode>>(
      p,
      version,
      (n) => n instanceof tree.EvaluationNode,
    );
    assert.match(String(evaluation.description), /^auPRC 0\.\d+ · auROC 0\.\d+ · log loss 0\.\d+$/);
    assert.match(evaluation.tooltip as string, /Area under the ROC curve \(auROC\): 0\.\d+/);
    const slice = await child<InstanceType<typeof tree.SliceNode>>(p, evaluation, (n) => n instanceof tree.SliceNode);
    assert.match(String(slice.description), /^auPRC /);
  });

  it('opens an evaluation titled by model, version and evaluation, with curves data and candidates', async () => {
    const p = provider();
    const version = await churnVersion3(p);
    const evaluation = await child<InstanceType<typeof tree.EvaluationNode>>(
      p,
      version,
      (n) => n instanceof tree.EvaluationNode && n.label === 'evaluation-v3-holdout',
    );
    metricsPanels.show(metricsSourceFor(client, evaluation));
    const panel = panels[panels.length - 1];
    assert.equal(panel.title, 'Metrics: churn-predictor v3 · evaluation-v3-holdout');
    assert.match(panel.html, /default-src 'none'/);
    assert.match(panel.html, /metrics\.js/);
    panel.send({ type: 'ready' });
    const init = (await until(panel, 'init')) as Extract<MetricsToWebview, { type: 'init' }>;
    assert.equal(init.subject.name, evaluation.resourceName);
    assert.ok(Array.isArray((init.subject.metrics as { confidenceMetrics?: unknown[] }).confidenceMetrics));
    assert.equal(init.compare, undefined);
    const labels = init.candidates.map((c) => c.label);
    assert.ok(
      labels.some((l) => /^Version 4 · /.test(l)),
      `other versions' evaluations offered: ${labels.join('; ')}`,
    );
    assert.ok(labels.some((l) => l === 'Slice annotationSpec = churned'));
    assert.ok(!init.candidates.some((c) => c.name === evaluation.resourceName), 'not compared with itself');

    // Compare with version 4's evaluation, then with nothing.
    const other = init.candidates.find((c) => /^Version 4 · /.test(c.label))!;
    panel.send({ type: 'compare', name: other.name });
    const comparison = (await until(panel, 'comparison')) as Extract<MetricsToWebview, { type: 'comparison' }>;
    assert.equal(comparison.compare?.name, other.name);
    assert.equal(comparison.compare?.label, other.label);
    panel.send({ type: 'threshold', value: 0.5 });
    const csv = metricsPanels.get(evaluation.resourceName)!.csv();
    const [header, first] = csv.split('\r\n');
    assert.equal(header, `metric,evaluation-v3-holdout,${other.label}`);
    assert.match(first, /^auPrc,0\.\d+,0\.\d+$/);
    assert.match(csv, /\r\nrecallAtSelectedThreshold,0\.\d+,0\.\d+\r\n/);

    // A name that was not offered is refused, and the page is told.
    panel.posted.length = 0;
    panel.send({ type: 'compare', name: 'projects/other/locations/x/models/y/evaluations/z' });
    const error = (await until(panel, 'error')) as Extract<MetricsToWebview, { type: 'error' }>;
    assert.match(error.message, /Pick something to compare with/);
    panel.dispose();
    assert.equal(metricsPanels.get(evaluation.resourceName), undefined);
  });

  it('opens a slice next to its whole evaluation, and marks it when the version is deleted', async () => {
    const p = provider();
    const version = await churnVersion3(p);
    const evaluation = await child<InstanceType<typeof tree.EvaluationNode>>(
      p,
      version,
      (n) => n instanceof tree.EvaluationNode,
    );
    const slice = await child<InstanceType<typeof tree.SliceNode>>(
      p,
      evaluation,
      (n) => n instanceof tree.SliceNode && n.label === 'annotationSpec = retained',
    );
    metricsPanels.show(metricsSourceFor(client, slice));
    const panel = panels[panels.length - 1];
    assert.equal(
      panel.title,
      `Metrics: churn-predictor v3 · ${evaluation.label as string} · annotationSpec = retained`,
    );
    panel.send({ type: 'ready' });
    const init = (await until(panel, 'init')) as Extract<MetricsToWebview, { type: 'init' }>;
    assert.equal(init.compare?.name, evaluation.resourceName, 'compared with the whole evaluation');
    assert.match(init.compare?.label ?? '', /^Whole evaluation/);
    assert.equal(init.candidates[0].name, evaluation.resourceName);

    assert.equal(metricsPanels.markDeleted(slice.resourceName.replace(/\/evaluations\/.*$/, ''), '2'), 0);
    assert.equal(metricsPanels.markDeleted(slice.resourceName.replace(/\/evaluations\/.*$/, ''), '3'), 1);
    const stale = (await until(panel, 'stale')) as Extract<MetricsToWebview, { type: 'stale' }>;
    assert.match(stale.message, /Version 3 was deleted/);
    assert.match(panel.title, /\(deleted\)$/);
    panel.dispose();
  });
});
