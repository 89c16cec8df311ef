// Realistic evaluation metrics for the demo registry, in Vertex AI's metrics schemas. A classifier's
// numbers come from one score model (positive and negative scores normally distributed, `separation`
// apart, through a logistic link), so auROC, the PR and ROC curves, the counts at each threshold,
// log loss and the confusion matrix agree with each other the way a real evaluation's do.
import type { Json } from '../grpc/util';

type Rng = () => number;

const round = (x: number, digits = 4): number => Number(x.toFixed(digits));
const between = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng();

/** Standard normal CDF (Abramowitz and Stegun 26.2.17, error below 1e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = 0.3989422804014327 * Math.exp((-x * x) / 2);
  const p = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x >= 0 ? 1 - p : p;
}

/** Score scale of the logistic link: a model's confidence is sigmoid(SCALE · score). */
const SCALE = 1.6;

/** Thresholds of confidenceMetrics: every 0.02, as Vertex AI's tabular evaluations list them. */
const THRESHOLDS = Array.from({ length: 51 }, (_, i) => round(i * 0.02, 2));

interface Rates {
  tpr: number;
  fpr: number;
}

function ratesAt(threshold: number, separation: number): Rates {
  if (threshold <= 0) return { tpr: 1, fpr: 1 };
  if (threshold >= 1) return { tpr: 0, fpr: 0 };
  const z = Math.log(threshold / (1 - threshold)) / SCALE;
  return { tpr: 1 - normalCdf(z - separation / 2), fpr: 1 - normalCdf(z + separation / 2) };
}

/** Mean log loss of the score model, by numeric integration over each class's score density. */
function logLossOf(separation: number, positiveShare: number): number {
  let pos = 0;
  let neg = 0;
  const step = 0.02;
  for (let x = -8; x <= 8; x += step) {
    const density = (mu: number) => (Math.exp(-((x - mu) ** 2) / 2) / Math.sqrt(2 * Math.PI)) * step;
    const p = 1 / (1 + Math.exp(-SCALE * x));
    pos += density(separation / 2) * -Math.log(Math.max(p, 1e-15));
    neg += density(-separation / 2) * -Math.log(Math.max(1 - p, 1e-15));
  }
  return positiveShare * pos + (1 - positiveShare) * neg;
}

/** Area under the PR curve on a fine grid of thresholds (trapezoids over recall). */
function auPrcOf(separation: number, positives: number, negatives: number): number {
  const points: Array<{ r: number; p: number }> = [];
  for (let i = 0; i <= 1000; i++) {
    const { tpr, fpr } = ratesAt(i / 1000, separation);
    const tp = tpr * positives;
    const fp = fpr * negatives;
    points.push({ r: tpr, p: tp + fp > 0 ? tp / (tp + fp) : 1 });
  }
  points.sort((a, b) => a.r - b.r);
  let area = 0;
  for (let i = 1; i < points.length; i++)
    area += ((points[i].r - points[i - 1].r) * (points[i].p + points[i - 1].p)) / 2;
  return area;
}

/** Separation of the score model for a quality in [0.6, 1): 0.72 gives auROC ≈ 0.8, 0.95 ≈ 0.98. */
function separationFor(quality: number): number {
  return Math.max(0.4, 0.9 + (quality - 0.7) * 8.5);
}

/**
 * Classification metrics (classification_metrics_1.0.0): auPrc, auRoc, logLoss, confidenceMetrics
 * with counts at every threshold (one-vs-rest, micro-averaged for more than two classes), and the
 * confusion matrix of the top prediction.
 */
export function classificationMetrics(classes: readonly string[], quality: number, rng: Rng): Json {
  const k = Math.max(2, classes.length);
  const separation = separationFor(quality);
  // Items per class, unevenly spread as real test sets are.
  const perClass = classes.map(() => Math.round(between(rng, 150, 1400)));
  const items = perClass.reduce((a, b) => a + b, 0);
  const binary = k === 2;
  const positives = binary ? perClass[0] : items;
  const negatives = binary ? perClass[1] : items * (k - 1);

  const confidenceMetrics = THRESHOLDS.map((threshold) => {
    const { tpr, fpr } = ratesAt(threshold, separation);
    const tp = Math.round(positives * tpr);
    const fp = Math.round(negatives * fpr);
    const fn = positives - tp;
    const tn = negatives - fp;
    const precision = tp + fp > 0 ? tp / (tp + fp) : 1;
    const recall = positives > 0 ? tp / positives : 0;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    return {
      confidenceThreshold: threshold,
      recall: round(recall),
      precision: round(precision),
      falsePositiveRate: round(negatives > 0 ? fp / negatives : 0),
      f1Score: round(f1),
      truePositiveCount: String(tp),
      falsePositiveCount: String(fp),
      falseNegativeCount: String(fn),
      trueNegativeCount: String(tn),
    };
  });

  let rows: number[][];
  if (binary) {
    const at = confidenceMetrics[25]; // threshold 0.5
    rows = [
      [Number(at.truePositiveCount), Number(at.falseNegativeCount)],
      [Number(at.falsePositiveCount), Number(at.trueNegativeCount)],
    ];
  } else {
    // Top-1 accuracy per class near the model's quality; mistakes go mostly to neighbouring classes.
    rows = classes.map((_, i) => {
      const n = perClass[i];
      const correct = Math.round(n * Math.min(0.995, Math.max(0.3, quality + between(rng, -0.08, 0.04))));
      const weights = classes.map((__, j) => (j === i ? 0 : 1 / (1 + Math.abs(i - j)) + rng() * 0.5));
      const sum = weights.reduce((a, b) => a + b, 0);
      const row = weights.map((w) => Math.floor(((n - correct) * w) / sum));
      row[i] = n - row.reduce((a, b) => a + b, 0);
      return row;
    });
  }

  return {
    auPrc: round(auPrcOf(separation, positives, negatives)),
    auRoc: round(normalCdf(separation / Math.SQRT2)),
    logLoss: round(logLossOf(separation, positives / (positives + negatives))),
    confidenceMetrics,
    confusionMatrix: {
      annotationSpecs: classes.map((c, i) => ({ id: String(1000 + i), displayName: c })),
      rows,
    },
  };
}

/** Regression (regression_metrics_1.0.0) or forecasting (forecasting_metrics_1.0.0) metrics. */
export function regressionMetrics(quality: number, rng: Rng, forecasting: boolean): Json {
  const scale = between(rng, 2, 40);
  const rmse = round(scale * (1.25 - quality));
  const base: Record<string, Json> = {
    rootMeanSquaredError: rmse,
    meanAbsoluteError: round(rmse * between(rng, 0.66, 0.8)),
    meanAbsolutePercentageError: round(between(rng, 4, 18) * (1.25 - quality) * 2),
    rSquared: round(Math.min(0.99, quality + between(rng, -0.04, 0.02))),
    rootMeanSquaredLogError: round(between(rng, 0.05, 0.3) * (1.25 - quality) * 2),
  };
  if (forecasting) {
    base.weightedAbsolutePercentageError = round(between(rng, 5, 16) * (1.25 - quality) * 2);
    base.rootMeanSquaredPercentageError = round(between(rng, 6, 20) * (1.25 - quality) * 2);
    base.quantileMetrics = [0.1, 0.25, 0.5, 0.75, 0.9].map((q) => ({
      quantile: q,
      scaledPinballLoss: round(between(rng, 0.02, 0.12) * (1 + Math.abs(q - 0.5))),
      observedQuantile: round(Math.min(1, Math.max(0, q + between(rng, -0.04, 0.04)))),
    }));
  }
  return base;
}

/** Text generation metrics of a tuned language model (general_text_generation_metrics_1.0.0). */
export function textGenerationMetrics(quality: number, rng: Rng): Json {
  return {
    bleu: round(Math.min(0.9, quality * 0.55 + between(rng, -0.04, 0.04))),
    rougeLSum: round(Math.min(0.95, quality * 0.68 + between(rng, -0.04, 0.04))),
  };
}
