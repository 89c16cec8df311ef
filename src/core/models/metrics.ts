// What an evaluation's metrics mean to a person: the headline numbers of its metrics schema, the
// curves and the confusion matrix of a classifier, the rest as a table, CSV, and the comparison of
// two metric sets. Metrics arrive as untyped JSON (a google.protobuf.Value), so every read here is
// defensive: a field of the wrong type is skipped, never trusted. No vscode and no DOM import: the
// tree, the panel's extension side and the panel's webview all use this one module.
import { csvDocument } from '../csv';

export type MetricsSchema =
  | 'classification'
  | 'regression'
  | 'forecasting'
  | 'object-detection'
  | 'text-sentiment'
  | 'text-extraction'
  | 'text-generation'
  | 'question-answering'
  | 'summarization'
  | 'video-action-recognition'
  | 'video-object-tracking'
  | 'image-segmentation'
  | 'other';

/** Vertex AI's metrics schema files (`gs://google-cloud-aiplatform/schema/modelevaluation/<file>`). */
const SCHEMA_FILES: ReadonlyArray<[RegExp, MetricsSchema]> = [
  [/^classification_metrics/, 'classification'],
  [/^regression_metrics/, 'regression'],
  [/^forecasting_metrics/, 'forecasting'],
  [/^image_object_detection_metrics/, 'object-detection'],
  [/^image_segmentation_metrics/, 'image-segmentation'],
  [/^text_sentiment_metrics/, 'text-sentiment'],
  [/^text_extraction_metrics/, 'text-extraction'],
  [/^(general_text_generation|text_generation)_metrics/, 'text-generation'],
  [/^question_answering_metrics/, 'question-answering'],
  [/^summarization_metrics/, 'summarization'],
  [/^video_action_recognition_metrics/, 'video-action-recognition'],
  [/^video_object_tracking_metrics/, 'video-object-tracking'],
];

export const SCHEMA_TITLES: Record<MetricsSchema, string> = {
  classification: 'Classification',
  regression: 'Regression',
  forecasting: 'Forecasting',
  'object-detection': 'Object detection',
  'text-sentiment': 'Text sentiment',
  'text-extraction': 'Text extraction',
  'text-generation': 'Text generation',
  'question-answering': 'Question answering',
  summarization: 'Summarization',
  'video-action-recognition': 'Video action recognition',
  'video-object-tracking': 'Video object tracking',
  'image-segmentation': 'Image segmentation',
  other: 'Metrics',
};

export function schemaOf(schemaUri: string | undefined): MetricsSchema {
  const file = (schemaUri ?? '').slice((schemaUri ?? '').lastIndexOf('/') + 1);
  for (const [pattern, schema] of SCHEMA_FILES) if (pattern.test(file)) return schema;
  return 'other';
}

/** How one metric is read: its label, whether more is better, and how it is written. */
interface MetricSpec {
  key: string;
  label: string;
  short: string;
  higherIsBetter: boolean;
  percent?: boolean;
}

const spec = (key: string, label: string, short: string, higherIsBetter: boolean, percent = false): MetricSpec => ({
  key,
  label,
  short,
  higherIsBetter,
  percent,
});

/** The documented headline metrics of each schema, in the order the console shows them. */
const HEADLINES: Record<MetricsSchema, MetricSpec[]> = {
  classification: [
    spec('auPrc', 'Area under the PR curve (auPRC)', 'auPRC', true),
    spec('auRoc', 'Area under the ROC curve (auROC)', 'auROC', true),
    spec('logLoss', 'Log loss', 'log loss', false),
  ],
  regression: [
    spec('meanAbsoluteError', 'Mean absolute error (MAE)', 'MAE', false),
    spec('rootMeanSquaredError', 'Root mean squared error (RMSE)', 'RMSE', false),
    spec('rSquared', 'Coefficient of determination (R²)', 'R²', true),
    spec('meanAbsolutePercentageError', 'Mean absolute percentage error (MAPE)', 'MAPE', false, true),
    spec('rootMeanSquaredLogError', 'Root mean squared log error (RMSLE)', 'RMSLE', false),
  ],
  forecasting: [
    spec('meanAbsoluteError', 'Mean absolute error (MAE)', 'MAE', false),
    spec('rootMeanSquaredError', 'Root mean squared error (RMSE)', 'RMSE', false),
    spec('weightedAbsolutePercentageError', 'Weighted absolute percentage error (WAPE)', 'WAPE', false, true),
    spec('meanAbsolutePercentageError', 'Mean absolute percentage error (MAPE)', 'MAPE', false, true),
    spec('rSquared', 'Coefficient of determination (R²)', 'R²', true),
    spec('rootMeanSquaredLogError', 'Root mean squared log error (RMSLE)', 'RMSLE', false),
    spec('rootMeanSquaredPercentageError', 'Root mean squared percentage error (RMSPE)', 'RMSPE', false, true),
  ],
  'object-detection': [
    spec('boundingBoxMeanAveragePrecision', 'Bounding-box mean average precision (mAP)', 'mAP', true),
    spec('evaluatedBoundingBoxCount', 'Evaluated bounding boxes', 'boxes', true),
  ],
  'image-segmentation': [spec('meanIntersectionOverUnion', 'Mean intersection over union', 'mIoU', true)],
  'text-sentiment': [
    spec('meanAbsoluteError', 'Mean absolute error', 'MAE', false),
    spec('meanSquaredError', 'Mean squared error', 'MSE', false),
    spec('linearKappa', 'Linear kappa', 'linear κ', true),
    spec('quadraticKappa', 'Quadratic kappa', 'quadratic κ', true),
    spec('precision', 'Precision', 'precision', true),
    spec('recall', 'Recall', 'recall', true),
    spec('f1Score', 'F1 score', 'F1', true),
  ],
  'text-extraction': [spec('auPrc', 'Area under the PR curve (auPRC)', 'auPRC', true)],
  'text-generation': [spec('bleu', 'BLEU', 'BLEU', true), spec('rougeLSum', 'ROUGE-L sum', 'ROUGE-L', true)],
  'question-answering': [spec('exactMatch', 'Exact match', 'exact match', true)],
  summarization: [spec('rougeLSum', 'ROUGE-L sum', 'ROUGE-L', true)],
  'video-action-recognition': [
    spec('evaluatedActionCount', 'Evaluated actions', 'actions', true),
    spec('meanAveragePrecision', 'Mean average precision', 'mAP', true),
  ],
  'video-object-tracking': [
    spec('boundingBoxMeanAveragePrecision', 'Bounding-box mAP', 'box mAP', true),
    spec('trackMeanAveragePrecision', 'Track mAP', 'track mAP', true),
    spec('evaluatedFrameCount', 'Evaluated frames', 'frames', true),
  ],
  other: [],
};

export interface HeadlineMetric {
  key: string;
  label: string;
  short: string;
  value: number;
  text: string;
  higherIsBetter: boolean;
}

/** One row of a classifier's confidenceMetrics, at one confidence threshold. */
export interface ThresholdPoint {
  threshold: number;
  precision: number | undefined;
  recall: number | undefined;
  f1: number | undefined;
  falsePositiveRate: number | undefined;
  truePositives?: number;
  falsePositives?: number;
  falseNegatives?: number;
  trueNegatives?: number;
  confusion?: ConfusionMatrix;
}

export interface ConfusionMatrix {
  /** Class names: row i is the true class i, column j the predicted class j. */
  labels: string[];
  rows: number[][];
}

export interface QuantilePoint {
  quantile: number;
  scaledPinballLoss: number | undefined;
  observedQuantile: number | undefined;
}

export interface MetricsView {
  schema: MetricsSchema;
  schemaTitle: string;
  headline: HeadlineMetric[];
  /** Classifier rows ordered by threshold (empty for other schemas). */
  thresholds: ThresholdPoint[];
  confusion: ConfusionMatrix | undefined;
  quantiles: QuantilePoint[];
  /** Every scalar of the metrics, as dotted paths, for the table and the CSV. */
  table: Array<{ path: string; value: string }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A number, or a number written as a string (int64 values arrive as strings). */
function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** Numbers for people: up to four significant decimals, integers as integers, percentages with %. */
export function formatMetric(value: number, percent = false): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) >= 1) return value.toLocaleString('en-US');
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 1 : abs >= 1 ? 3 : 4;
  const text = Number(value.toFixed(digits)).toString();
  return percent ? `${text}%` : text;
}

function headlineOf(schema: MetricsSchema, metrics: Record<string, unknown>): HeadlineMetric[] {
  const out: HeadlineMetric[] = [];
  for (const s of HEADLINES[schema]) {
    const value = num(metrics[s.key]);
    if (value === undefined) continue;
    out.push({
      key: s.key,
      label: s.label,
      short: s.short,
      value,
      text: formatMetric(value, s.percent),
      higherIsBetter: s.higherIsBetter,
    });
  }
  return out;
}

function confusionOf(v: unknown): ConfusionMatrix | undefined {
  if (!isObject(v) || !Array.isArray(v['rows'])) return undefined;
  const specs = Array.isArray(v['annotationSpecs']) ? v['annotationSpecs'] : [];
  const rows = (v['rows'] as unknown[]).map((r) => (Array.isArray(r) ? r.map((c) => num(c) ?? 0) : []));
  if (rows.length === 0 || rows.some((r) => r.length !== rows.length)) return undefined;
  const labels = rows.map((_, i) => {
    const s: unknown = specs[i];
    if (isObject(s)) {
      const name = s['displayName'] ?? s['id'];
      if (typeof name === 'string' && name !== '') return name;
    }
    return `class ${i + 1}`;
  });
  return { labels, rows };
}

function thresholdsOf(metrics: Record<string, unknown>): ThresholdPoint[] {
  const list = Array.isArray(metrics['confidenceMetrics']) ? (metrics['confidenceMetrics'] as unknown[]) : [];
  const points: ThresholdPoint[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const threshold = num(item['confidenceThreshold']) ?? 0;
    // A row restricted to the top-k predictions is another curve; the panel shows the plain one.
    if (num(item['maxPredictions']) !== undefined && num(item['maxPredictions'])! > 0) continue;
    const point: ThresholdPoint = {
      threshold,
      precision: num(item['precision']),
      recall: num(item['recall']),
      f1: num(item['f1Score']),
      falsePositiveRate: num(item['falsePositiveRate']),
    };
    const counts: Array<[keyof ThresholdPoint, string]> = [
      ['truePositives', 'truePositiveCount'],
      ['falsePositives', 'falsePositiveCount'],
      ['falseNegatives', 'falseNegativeCount'],
      ['trueNegatives', 'trueNegativeCount'],
    ];
    for (const [field, key] of counts) {
      const n = num(item[key]);
      if (n !== undefined) (point as unknown as Record<string, number>)[field] = n;
    }
    const confusion = confusionOf(item['confusionMatrix']);
    if (confusion) point.confusion = confusion;
    if (point.f1 === undefined && point.precision !== undefined && point.recall !== undefined)
      point.f1 =
        point.precision + point.recall > 0
          ? (2 * point.precision * point.recall) / (point.precision + point.recall)
          : 0;
    points.push(point);
  }
  return points.sort((a, b) => a.threshold - b.threshold);
}

function quantilesOf(metrics: Record<string, unknown>): QuantilePoint[] {
  const list = Array.isArray(metrics['quantileMetrics']) ? (metrics['quantileMetrics'] as unknown[]) : [];
  return list
    .filter(isObject)
    .map((q) => ({
      quantile: num(q['quantile']) ?? NaN,
      scaledPinballLoss: num(q['scaledPinballLoss']),
      observedQuantile: num(q['observedQuantile']),
    }))
    .filter((q) => Number.isFinite(q.quantile))
    .sort((a, b) => a.quantile - b.quantile);
}

/** Every scalar under `value` as "a.b[2].c" paths, in document order. */
export function flattenMetrics(value: unknown, prefix = '', out: Array<{ path: string; value: string }> = []) {
  if (Array.isArray(value)) {
    value.forEach((v, i) => flattenMetrics(v, `${prefix}[${i}]`, out));
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) flattenMetrics(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    out.push({ path: prefix || '(value)', value: String(value) });
  }
  return out;
}

const VALUE_KINDS = ['nullValue', 'numberValue', 'stringValue', 'boolValue', 'structValue', 'listValue'];

/** A google.protobuf.Value as decoded from the wire ({structValue:{fields:…}}) is a JSON value. */
function isProtoValue(v: unknown): v is Record<string, unknown> {
  if (!isObject(v)) return false;
  const keys = Object.keys(v).filter((k) => k !== 'kind');
  return keys.length === 1 && VALUE_KINDS.includes(keys[0]);
}

/** Metrics as plain JSON, whether they arrive decoded from the wire or already plain. */
export function plainMetrics(v: unknown, depth = 0): unknown {
  if (depth > 64) return undefined;
  if (isProtoValue(v)) {
    if ('structValue' in v) {
      const fields = isObject(v['structValue']) ? v['structValue']['fields'] : undefined;
      const out: Record<string, unknown> = {};
      if (isObject(fields)) for (const [k, f] of Object.entries(fields)) out[k] = plainMetrics(f, depth + 1);
      return out;
    }
    if ('listValue' in v) {
      const values = isObject(v['listValue']) ? v['listValue']['values'] : undefined;
      return Array.isArray(values) ? values.map((x) => plainMetrics(x, depth + 1)) : [];
    }
    if ('nullValue' in v) return null;
    return v['numberValue'] ?? v['stringValue'] ?? v['boolValue'];
  }
  return v;
}

export function metricsView(metrics: unknown, schemaUri: string | undefined): MetricsView {
  const schema = schemaOf(schemaUri);
  const plain = plainMetrics(metrics);
  const m = isObject(plain) ? plain : {};
  return {
    schema,
    schemaTitle: SCHEMA_TITLES[schema],
    headline: headlineOf(schema, m),
    thresholds: schema === 'classification' || schema === 'text-extraction' ? thresholdsOf(m) : [],
    confusion: confusionOf(m['confusionMatrix']),
    quantiles: schema === 'forecasting' ? quantilesOf(m) : [],
    table: flattenMetrics(m),
  };
}

/** The row nearest to `threshold` (the rows are sorted); undefined when there are none. */
export function pointAt(points: readonly ThresholdPoint[], threshold: number): ThresholdPoint | undefined {
  let best: ThresholdPoint | undefined;
  for (const p of points)
    if (!best || Math.abs(p.threshold - threshold) < Math.abs(best.threshold - threshold)) best = p;
  return best;
}

/**
 * The confusion matrix at a threshold: the row's own matrix when the service gave one, else the 2×2
 * matrix of its counts (positive class first), else undefined.
 */
export function confusionAt(
  point: ThresholdPoint | undefined,
  labels: string | [string, string] = 'positive',
): ConfusionMatrix | undefined {
  if (!point) return undefined;
  if (point.confusion) return point.confusion;
  const { truePositives: tp, falsePositives: fp, falseNegatives: fn, trueNegatives: tn } = point;
  if (tp === undefined || fp === undefined || fn === undefined || tn === undefined) return undefined;
  return {
    labels: typeof labels === 'string' ? [labels, `not ${labels}`] : [...labels],
    rows: [
      [tp, fn],
      [fp, tn],
    ],
  };
}

/** The PR curve (recall → precision) and ROC curve (FPR → recall) of the threshold rows. */
export function curves(points: readonly ThresholdPoint[]): {
  pr: Array<{ x: number; y: number; threshold: number }>;
  roc: Array<{ x: number; y: number; threshold: number }>;
} {
  const pr = points
    .filter((p) => p.recall !== undefined && p.precision !== undefined)
    .map((p) => ({ x: p.recall!, y: p.precision!, threshold: p.threshold }))
    .sort((a, b) => a.x - b.x || b.y - a.y);
  const roc = points
    .filter((p) => p.falsePositiveRate !== undefined && p.recall !== undefined)
    .map((p) => ({ x: p.falsePositiveRate!, y: p.recall!, threshold: p.threshold }))
    .sort((a, b) => a.x - b.x || a.y - b.y);
  return { pr, roc };
}

/** The tree's one-line summary: the first three headline metrics, e.g. "auPRC 0.912 · auROC 0.95 · log loss 0.21". */
export function headlineSummary(metrics: unknown, schemaUri: string | undefined, count = 3): string {
  return metricsView(metrics, schemaUri)
    .headline.slice(0, count)
    .map((h) => `${h.short} ${h.text}`)
    .join(' · ');
}

/** Tooltip lines: every headline metric with its full name. */
export function headlineLines(metrics: unknown, schemaUri: string | undefined): string[] {
  const view = metricsView(metrics, schemaUri);
  return view.headline.map((h) => `${h.label}: ${h.text}`);
}

export interface ComparisonRow {
  key: string;
  label: string;
  a: number | undefined;
  b: number | undefined;
  /** b − a, when both exist. */
  delta: number | undefined;
  /** Which side is better by the metric's direction; "same" when equal. */
  better: 'a' | 'b' | 'same' | undefined;
}

/** Headline metrics of two sets side by side (the first set's schema decides which metrics). */
export function compareMetrics(a: MetricsView, b: MetricsView): ComparisonRow[] {
  const keys = [...a.headline.map((h) => h.key)];
  for (const h of b.headline) if (!keys.includes(h.key)) keys.push(h.key);
  return keys.map((key) => {
    const ha = a.headline.find((h) => h.key === key);
    const hb = b.headline.find((h) => h.key === key);
    const any = (ha ?? hb)!;
    const delta = ha && hb ? hb.value - ha.value : undefined;
    let better: ComparisonRow['better'];
    if (delta !== undefined) {
      if (Math.abs(delta) < 1e-12) better = 'same';
      else better = delta > 0 === any.higherIsBetter ? 'b' : 'a';
    }
    return { key, label: any.label, a: ha?.value, b: hb?.value, delta, better };
  });
}

/**
 * CSV of one or more metric sets: one column per set, one row per metric path (headline metrics
 * first, then every other scalar), so a spreadsheet lines them up.
 */
export function metricsCsv(
  sets: ReadonlyArray<{ label: string; metrics: unknown; schemaUri: string | undefined }>,
  threshold?: number,
): string {
  const views = sets.map((s) => metricsView(s.metrics, s.schemaUri));
  const paths: string[] = [];
  const values = views.map(() => new Map<string, string>());
  const put = (i: number, path: string, value: number | undefined): void => {
    if (value === undefined) return;
    if (!paths.includes(path)) paths.push(path);
    values[i].set(path, String(value));
  };
  views.forEach((v, i) => {
    for (const h of v.headline) put(i, h.key, h.value);
    // The point the user picked with the slider, so the file says what the panel showed.
    const at = threshold === undefined ? undefined : pointAt(v.thresholds, threshold);
    if (at) {
      put(i, 'selectedThreshold', at.threshold);
      put(i, 'precisionAtSelectedThreshold', at.precision);
      put(i, 'recallAtSelectedThreshold', at.recall);
      put(i, 'f1ScoreAtSelectedThreshold', at.f1);
    }
  });
  views.forEach((v, i) => {
    for (const row of v.table) {
      if (!paths.includes(row.path)) paths.push(row.path);
      values[i].set(row.path, row.value);
    }
  });
  return csvDocument([
    ['metric', ...sets.map((s) => s.label)],
    ...paths.map((p) => [p, ...values.map((m) => m.get(p) ?? '')]),
  ]);
}
