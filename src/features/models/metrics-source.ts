// What the metrics panel of an evaluation or slice node shows and can compare with: the subject's
// metrics, a title naming model, version and evaluation, and as candidates the whole evaluation
// (for a slice), the other slices, and the evaluations of every version of the model.
import type { ModelRegistryClient } from '../../core/models/client';
import { plainMetrics } from '../../core/models/metrics';
import type { CompareCandidate, MetricsSet } from '../../core/models/metrics-messages';
import type { ModelEvaluation, ModelEvaluationSlice } from '../../core/models/types';
import type { MetricsPanelSource } from './metrics-panel';
import { evaluationLabel, modelLabel, sliceLabel, versionName } from './presentation';
import { EvaluationNode, SliceNode, VersionNode, type ModelsNode } from './tree';

const EVALUATION = /^(projects\/[^/]+\/locations\/[^/]+\/models\/[^/@]+)\/evaluations\/[^/]+$/;
const SLICE = /^((projects\/[^/]+\/locations\/[^/]+\/models\/[^/@]+)\/evaluations\/[^/]+)\/slices\/[^/]+$/;

/** A cap on candidates, so a model with hundreds of evaluations still opens its panel quickly. */
const MAX_CANDIDATES = 200;

function evaluationSet(e: ModelEvaluation, label: string): MetricsSet {
  return { name: e.name ?? '', label, schemaUri: e.metricsSchemaUri ?? '', metrics: plainMetrics(e.metrics) ?? {} };
}

function sliceSet(s: ModelEvaluationSlice, label: string): MetricsSet {
  return { name: s.name ?? '', label, schemaUri: s.metricsSchemaUri ?? '', metrics: plainMetrics(s.metrics) ?? {} };
}

function ancestor<T extends ModelsNode>(node: ModelsNode | undefined, kind: abstract new (...a: never[]) => T) {
  for (let n = node; n; n = n.parent) if (n instanceof kind) return n;
  return undefined;
}

/** The metrics of an evaluation or slice by name, labelled `label` (or by what it says of itself). */
async function loadMetricsSet(client: ModelRegistryClient, target: string, label?: string): Promise<MetricsSet> {
  if (SLICE.test(target)) {
    const s = await client.getModelEvaluationSlice({ name: target });
    return sliceSet(s, label ?? `Slice ${sliceLabel(s)}`);
  }
  if (EVALUATION.test(target)) {
    const e = await client.getModelEvaluation({ name: target });
    return evaluationSet(e, label ?? evaluationLabel(e));
  }
  throw new Error(`${target} is not an evaluation or slice name.`);
}

const isText = (v: unknown, max = 2_000): v is string => typeof v === 'string' && v.length <= max;

/**
 * What a metrics page restored after a reload shows, from the state it kept (checked here: a page's
 * state is as untrusted as its messages): its subject, title and candidates as they were; loading a
 * comparison asks the service again. Undefined when the state is not a metrics page's.
 */
export function restoredMetricsSource(
  client: () => ModelRegistryClient,
  kept: unknown,
): MetricsPanelSource | undefined {
  if (typeof kept !== 'object' || kept === null) return undefined;
  const { title, subject, candidates } = kept as Record<string, unknown>;
  if (!isText(title) || typeof subject !== 'object' || subject === null) return undefined;
  const { name, label, schemaUri, metrics } = subject as Record<string, unknown>;
  if (!isText(name) || !isText(label) || !isText(schemaUri)) return undefined;
  const match = SLICE.exec(name) ?? EVALUATION.exec(name);
  if (!match) return undefined;
  const modelName = SLICE.test(name) ? match[2] : match[1];
  const list = Array.isArray(candidates)
    ? (candidates as unknown[])
        .filter(
          (c): c is CompareCandidate =>
            typeof c === 'object' &&
            c !== null &&
            isText((c as CompareCandidate).name) &&
            isText((c as CompareCandidate).label),
        )
        .map((c) => ({ name: c.name, label: c.label }))
        .slice(0, MAX_CANDIDATES)
    : [];
  const labels = new Map(list.map((c) => [c.name, c.label]));
  return {
    subject: { name, label, schemaUri, metrics },
    modelName,
    // An evaluation's name does not say its version: a restored panel is marked when its model is deleted.
    versionId: '',
    title: title.startsWith('Metrics: ') ? title : `Metrics: ${title}`,
    candidates: () => Promise.resolve(list),
    load: (target) => loadMetricsSet(client(), target, labels.get(target)),
  };
}

export function metricsSourceFor(client: ModelRegistryClient, node: EvaluationNode | SliceNode): MetricsPanelSource {
  const version = ancestor(node, VersionNode);
  const evaluationNode = node instanceof EvaluationNode ? node : ancestor(node, EvaluationNode);
  const name = node.resourceName;
  const match = node instanceof SliceNode ? SLICE.exec(name) : EVALUATION.exec(name);
  if (!match) throw new Error(`${name} is not an evaluation or slice name.`);
  const evaluationName = node instanceof SliceNode ? match[1] : name;
  const modelName = node instanceof SliceNode ? match[2] : match[1];
  const modelText = version ? modelLabel(version.version) : modelName.slice(modelName.lastIndexOf('/') + 1);
  const versionId = version?.version.versionId ?? '';
  const evalText = evaluationNode
    ? evaluationLabel(evaluationNode.evaluation)
    : `evaluation ${evaluationName.slice(evaluationName.lastIndexOf('/') + 1)}`;
  const title =
    `${modelText}${versionId ? ` v${versionId}` : ''} · ${evalText}` +
    (node instanceof SliceNode ? ` · ${sliceLabel(node.slice)}` : '');
  const subject =
    node instanceof SliceNode ? sliceSet(node.slice, sliceLabel(node.slice)) : evaluationSet(node.evaluation, evalText);
  const wholeLabel = `Whole evaluation (${evalText})`;

  const labels = new Map<string, string>();
  const candidates = async (): Promise<CompareCandidate[]> => {
    const out: CompareCandidate[] = [];
    const add = (c: CompareCandidate): void => {
      if (c.name && c.name !== name && out.length < MAX_CANDIDATES && !labels.has(c.name)) {
        labels.set(c.name, c.label);
        out.push(c);
      }
    };
    if (node instanceof SliceNode) add({ name: evaluationName, label: wholeLabel });
    for await (const s of client.listModelEvaluationSlices({ parent: evaluationName }))
      add({ name: s.name ?? '', label: `Slice ${sliceLabel(s)}` });
    for await (const v of client.listModelVersions({ request: { name: modelName, orderBy: 'create_time desc' } })) {
      for await (const e of client.listModelEvaluations({ parent: versionName(v) }))
        add({ name: e.name ?? '', label: `Version ${v.versionId ?? '?'} · ${evaluationLabel(e)}` });
      if (out.length >= MAX_CANDIDATES) break;
    }
    return out;
  };

  const load = (target: string): Promise<MetricsSet> =>
    loadMetricsSet(client, target, target === evaluationName ? wholeLabel : labels.get(target));

  return {
    subject,
    modelName,
    versionId,
    title: `Metrics: ${title}`,
    candidates,
    load,
    ...(node instanceof SliceNode ? { initialCompare: evaluationName } : {}),
  };
}
