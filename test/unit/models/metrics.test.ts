// Reading evaluation metrics as people read them: the schema's headline numbers, curves, the
// confusion matrix at a threshold, comparisons and CSV; and the demo's metrics being internally
// consistent (the curves agree with auROC and the counts, as a real evaluation's do).
import { strict as assert } from 'node:assert';
import {
  compareMetrics,
  confusionAt,
  curves,
  formatMetric,
  headlineSummary,
  metricsCsv,
  metricsView,
  pointAt,
  schemaOf,
} from '../../../src/core/models/metrics';
import { parseMetricsFromWebview, parseMetricsToWebview } from '../../../src/core/models/metrics-messages';
import {
  classificationMetrics,
  regressionMetrics,
  textGenerationMetrics,
} from '../../../src/emulator/models-data/metrics';
import { mulberry32 } from '../../../src/emulator/random';

const SCHEMA = 'gs://google-cloud-aiplatform/schema/modelevaluation';

describe('evaluation metrics', () => {
  it('recognises the metrics schemas by their file name', () => {
    assert.equal(schemaOf(`${SCHEMA}/classification_metrics_1.0.0.yaml`), 'classification');
    assert.equal(schemaOf(`${SCHEMA}/regression_metrics_1.0.0.yaml`), 'regression');
    assert.equal(schemaOf(`${SCHEMA}/forecasting_metrics_1.0.0.yaml`), 'forecasting');
    assert.equal(schemaOf(`${SCHEMA}/image_object_detection_metrics_1.0.0.yaml`), 'object-detection');
    assert.equal(schemaOf(`${SCHEMA}/general_text_generation_metrics_1.0.0.yaml`), 'text-generation');
    assert.equal(schemaOf('gs://bucket/my_custom.yaml'), 'other');
    assert.equal(schemaOf(undefined), 'other');
  });

  it('shows the headline metrics of each schema in the documented order, and tolerates junk', () => {
    const view = metricsView(
      { logLoss: 0.21, auRoc: 0.954, auPrc: '0.9123', extra: { nested: [1, 'two'] }, bad: { auPrc: 'x' } },
      `${SCHEMA}/classification_metrics_1.0.0.yaml`,
    );
    assert.deepEqual(
      view.headline.map((h) => [h.short, h.text]),
      [
        ['auPRC', '0.9123'],
        ['auROC', '0.954'],
        ['log loss', '0.21'],
      ],
    );
    assert.ok(view.table.some((r) => r.path === 'extra.nested[1]' && r.value === 'two'));
    const regression = metricsView(
      { rootMeanSquaredError: 12.5, meanAbsoluteError: 9, rSquared: 0.81, meanAbsolutePercentageError: 7.25 },
      `${SCHEMA}/regression_metrics_1.0.0.yaml`,
    );
    assert.deepEqual(
      regression.headline.map((h) => `${h.short} ${h.text}`),
      ['MAE 9', 'RMSE 12.5', 'R² 0.81', 'MAPE 7.25%'],
    );
    assert.equal(metricsView('not an object', undefined).headline.length, 0);
    assert.equal(metricsView({ auPrc: 'NaN' }, `${SCHEMA}/classification_metrics_1.0.0.yaml`).headline.length, 0);
  });

  it('summarises the headline in one line for the tree', () => {
    assert.equal(
      headlineSummary({ auPrc: 0.9, auRoc: 0.95, logLoss: 0.2 }, `${SCHEMA}/classification_metrics_1.0.0.yaml`),
      'auPRC 0.9 · auROC 0.95 · log loss 0.2',
    );
    assert.equal(headlineSummary({}, `${SCHEMA}/classification_metrics_1.0.0.yaml`), '');
  });

  it('builds PR and ROC curves, the point at a threshold and its confusion matrix from the counts', () => {
    const metrics = {
      confidenceMetrics: [
        { confidenceThreshold: 0.9, precision: 0.95, recall: 0.4, falsePositiveRate: 0.01 },
        {
          confidenceThreshold: 0.5,
          precision: 0.8,
          recall: 0.8,
          falsePositiveRate: 0.1,
          truePositiveCount: '80',
          falsePositiveCount: '20',
          falseNegativeCount: '20',
          trueNegativeCount: '180',
        },
        { confidenceThreshold: 0.1, precision: 0.5, recall: 0.98, falsePositiveRate: 0.5 },
        { confidenceThreshold: 0.5, maxPredictions: 1, precision: 0.1, recall: 0.1 },
      ],
    };
    const view = metricsView(metrics, `${SCHEMA}/classification_metrics_1.0.0.yaml`);
    assert.deepEqual(
      view.thresholds.map((p) => p.threshold),
      [0.1, 0.5, 0.9],
      'top-k rows are another curve and left out',
    );
    assert.equal(view.thresholds[1].f1?.toFixed(2), '0.80', 'F1 computed when absent');
    const { pr, roc } = curves(view.thresholds);
    assert.deepEqual(
      pr.map((p) => p.x),
      [0.4, 0.8, 0.98],
    );
    assert.deepEqual(
      roc.map((p) => p.x),
      [0.01, 0.1, 0.5],
    );
    assert.equal(pointAt(view.thresholds, 0.47)?.threshold, 0.5);
    assert.deepEqual(confusionAt(pointAt(view.thresholds, 0.5), 'churned'), {
      labels: ['churned', 'not churned'],
      rows: [
        [80, 20],
        [20, 180],
      ],
    });
    assert.equal(confusionAt(pointAt(view.thresholds, 0.9)), undefined, 'no counts, no matrix');
  });

  it('reads a confusion matrix with its class names and refuses a ragged one', () => {
    const ok = metricsView(
      {
        confusionMatrix: {
          annotationSpecs: [{ displayName: 'a' }, { id: '7' }],
          rows: [
            [5, 1],
            ['2', 9],
          ],
        },
      },
      `${SCHEMA}/classification_metrics_1.0.0.yaml`,
    );
    assert.deepEqual(ok.confusion, {
      labels: ['a', '7'],
      rows: [
        [5, 1],
        [2, 9],
      ],
    });
    const ragged = metricsView(
      { confusionMatrix: { rows: [[1, 2], [3]] } },
      `${SCHEMA}/classification_metrics_1.0.0.yaml`,
    );
    assert.equal(ragged.confusion, undefined);
  });

  it('compares two sets by each metric’s direction', () => {
    const uri = `${SCHEMA}/regression_metrics_1.0.0.yaml`;
    const rows = compareMetrics(
      metricsView({ meanAbsoluteError: 10, rSquared: 0.8 }, uri),
      metricsView({ meanAbsoluteError: 8, rSquared: 0.7 }, uri),
    );
    const mae = rows.find((r) => r.key === 'meanAbsoluteError')!;
    assert.equal(mae.delta, -2);
    assert.equal(mae.better, 'b', 'a lower error is better');
    assert.equal(rows.find((r) => r.key === 'rSquared')!.better, 'a', 'a higher R² is better');
  });

  it('writes CSV with one column per set, the selected threshold, and cells spreadsheets cannot run', () => {
    const uri = `${SCHEMA}/classification_metrics_1.0.0.yaml`;
    const csv = metricsCsv(
      [
        {
          label: 'Version 3, "holdout"',
          metrics: {
            auPrc: 0.9,
            confidenceMetrics: [{ confidenceThreshold: 0.5, precision: 0.8, recall: 0.7 }],
            note: '=HYPERLINK("x")',
          },
          schemaUri: uri,
        },
        { label: 'Version 2', metrics: { auPrc: 0.85 }, schemaUri: uri },
      ],
      0.5,
    );
    const lines = csv.trimEnd().split('\r\n');
    assert.equal(lines[0], 'metric,"Version 3, ""holdout""",Version 2');
    assert.equal(lines[1], 'auPrc,0.9,0.85');
    assert.ok(lines.includes('precisionAtSelectedThreshold,0.8,'));
    assert.ok(lines.includes(`note,"'=HYPERLINK(""x"")",`));
  });

  it('formats numbers for people', () => {
    assert.equal(formatMetric(0.912345), '0.9123');
    assert.equal(formatMetric(12.3456), '12.346');
    assert.equal(formatMetric(4821), '4,821');
    assert.equal(formatMetric(7.5, true), '7.5%');
  });

  it('checks panel messages in both directions', () => {
    assert.equal(parseMetricsFromWebview({ type: 'compare', name: 7 }), undefined);
    assert.equal(parseMetricsFromWebview({ type: 'threshold', value: 2 }), undefined);
    assert.deepEqual(parseMetricsFromWebview({ type: 'threshold', value: 0.3, extra: 1 }), {
      type: 'threshold',
      value: 0.3,
    });
    assert.equal(
      parseMetricsToWebview({ type: 'init', title: 't', subject: { name: 'n' }, candidates: [] }),
      undefined,
    );
    assert.ok(
      parseMetricsToWebview({
        type: 'init',
        title: 't',
        subject: { name: 'n', label: 'l', schemaUri: '', metrics: {} },
        candidates: [{ name: 'a', label: 'b' }],
      }),
    );
  });
});

describe('demo evaluation metrics', () => {
  it('are one consistent classifier: auROC matches the ROC curve, counts match precision and recall', () => {
    const metrics = classificationMetrics(['churned', 'retained'], 0.85, mulberry32(7)) as Record<string, unknown>;
    const view = metricsView(metrics, `${SCHEMA}/classification_metrics_1.0.0.yaml`);
    assert.equal(view.thresholds.length, 51);
    const { roc } = curves(view.thresholds);
    let area = 0;
    for (let i = 1; i < roc.length; i++) area += ((roc[i].x - roc[i - 1].x) * (roc[i].y + roc[i - 1].y)) / 2;
    const auRoc = view.headline.find((h) => h.key === 'auRoc')!.value;
    assert.ok(Math.abs(area - auRoc) < 0.02, `ROC area ${area} vs auRoc ${auRoc}`);
    for (const p of view.thresholds) {
      const tp = p.truePositives!;
      const fp = p.falsePositives!;
      if (tp + fp > 0) assert.ok(Math.abs(tp / (tp + fp) - p.precision!) < 1e-3);
    }
    // Recall falls as the threshold rises.
    for (let i = 1; i < view.thresholds.length; i++)
      assert.ok(view.thresholds[i].recall! <= view.thresholds[i - 1].recall!);
    const at = confusionAt(pointAt(view.thresholds, 0.5), 'churned')!;
    assert.deepEqual(at.rows, view.confusion!.rows, 'the top-level matrix is the one at 0.5');
    const logLoss = view.headline.find((h) => h.key === 'logLoss')!.value;
    assert.ok(logLoss > 0.05 && logLoss < 0.7, `log loss ${logLoss}`);
  });

  it('better models score better, and multi-class matrices keep every item', () => {
    const weak = classificationMetrics(['a', 'b', 'c'], 0.72, mulberry32(1)) as Record<string, number>;
    const strong = classificationMetrics(['a', 'b', 'c'], 0.95, mulberry32(1)) as Record<string, number>;
    assert.ok(strong.auRoc > weak.auRoc && strong.auPrc > weak.auPrc && strong.logLoss < weak.logLoss);
    const view = metricsView(strong, `${SCHEMA}/classification_metrics_1.0.0.yaml`);
    const items = view.confusion!.rows.flat().reduce((a, b) => a + b, 0);
    const positives = view.thresholds[0].truePositives! + view.thresholds[0].falseNegatives!;
    assert.equal(items, positives, 'one-vs-rest positives are all the items');
    for (const [i, row] of view.confusion!.rows.entries())
      assert.ok(row[i] === Math.max(...row), 'most items of a class are predicted right');
  });

  it('has the documented fields of regression, forecasting and text generation', () => {
    const r = regressionMetrics(0.8, mulberry32(3), false) as Record<string, unknown>;
    assert.deepEqual(Object.keys(r).sort(), [
      'meanAbsoluteError',
      'meanAbsolutePercentageError',
      'rSquared',
      'rootMeanSquaredError',
      'rootMeanSquaredLogError',
    ]);
    const f = metricsView(regressionMetrics(0.8, mulberry32(3), true), `${SCHEMA}/forecasting_metrics_1.0.0.yaml`);
    assert.equal(f.headline[2].key, 'weightedAbsolutePercentageError');
    assert.equal(f.quantiles.length, 5);
    const t = metricsView(
      textGenerationMetrics(0.8, mulberry32(3)),
      `${SCHEMA}/general_text_generation_metrics_1.0.0.yaml`,
    );
    assert.deepEqual(
      t.headline.map((h) => h.key),
      ['bleu', 'rougeLSum'],
    );
  });
});
