import * as assert from 'node:assert/strict';
import { US, modelByDisplayName, rejectsWith, useHarness } from './harness';

const CLASSIFICATION = 'gs://google-cloud-aiplatform/schema/modelevaluation/classification_metrics_1.0.0.yaml';

type Value = {
  structValue?: { fields?: Record<string, Value> | null } | null;
  numberValue?: number | null;
  listValue?: { values?: Value[] | null } | null;
};

describe('sandbox gRPC: evaluations, slices and evaluated annotations (official aiplatform client)', function () {
  this.timeout(60_000);
  const h = useHarness();

  it('lists evaluations of the default version with real-looking classification metrics', async () => {
    const name = `${US}/models/churn-predictor`;
    const [evaluations] = await h.models.listModelEvaluations({ parent: name });
    assert.ok(evaluations.length >= 1);
    const evaluation = evaluations[0];
    assert.match(evaluation.name!, new RegExp(`^${name}/evaluations/\\d+$`));
    assert.equal(evaluation.metricsSchemaUri, CLASSIFICATION);
    const fields = (evaluation.metrics as Value).structValue!.fields!;
    const auRoc = fields.auRoc.numberValue!;
    assert.ok(auRoc > 0.5 && auRoc < 1, `auRoc ${auRoc}`);
    assert.ok(fields.confidenceMetrics.listValue!.values!.length >= 5);
    assert.ok(fields.confusionMatrix.structValue!.fields!.rows);
    const [same] = await h.models.getModelEvaluation({ name: evaluation.name! });
    assert.equal(same.displayName, evaluation.displayName);
    const [v1] = await h.models.listModelEvaluations({ parent: `${name}@1` });
    assert.ok(
      v1.length >= 1 && v1.every((e) => !evaluations.some((d) => d.name === e.name)),
      'evaluations belong to one version',
    );
  });

  it('lists slices per class, filters them by dimension, and gets one', async () => {
    const [evaluations] = await h.models.listModelEvaluations({ parent: `${US}/models/churn-predictor` });
    const parent = evaluations[0].name!;
    const [slices] = await h.models.listModelEvaluationSlices({ parent });
    assert.deepEqual(slices.map((s) => s.slice!.value).sort(), ['churned', 'retained']);
    const [filtered] = await h.models.listModelEvaluationSlices({ parent, filter: 'slice.dimension="annotationSpec"' });
    assert.equal(filtered.length, 2);
    const [none] = await h.models.listModelEvaluationSlices({ parent, filter: 'slice.dimension="region"' });
    assert.equal(none.length, 0);
    const [one] = await h.models.getModelEvaluationSlice({ name: slices[0].name! });
    assert.equal(one.slice!.dimension, 'annotationSpec');
    await rejectsWith(h.models.getModelEvaluationSlice({ name: `${parent}/slices/999` }), 'NOT_FOUND');
    await rejectsWith(
      h.models.listModelEvaluationSlices({ parent: `${US}/models/churn-predictor` }),
      'INVALID_ARGUMENT',
    );
  });

  it('imports an evaluation, slices and evaluated annotations', async () => {
    const model = await modelByDisplayName(h.models, US, 'iforest-anomaly');
    const [evaluation] = await h.models.importModelEvaluation({
      parent: `${model}@1`,
      modelEvaluation: {
        displayName: 'offline-eval-2026-11',
        metricsSchemaUri: CLASSIFICATION,
        metrics: { structValue: { fields: { auPrc: { numberValue: 0.91 } } } },
      },
    });
    assert.match(evaluation.name!, new RegExp(`^${model}/evaluations/\\d+$`));
    assert.ok(evaluation.createTime?.seconds);
    const [v1] = await h.models.listModelEvaluations({ parent: `${model}@1` });
    assert.ok(v1.some((e) => e.name === evaluation.name));

    const [sliceResponse] = await h.models.batchImportModelEvaluationSlices({
      parent: evaluation.name!,
      modelEvaluationSlices: [
        { slice: { dimension: 'annotationSpec', value: 'anomaly' }, metricsSchemaUri: CLASSIFICATION },
        { slice: { dimension: 'annotationSpec', value: 'normal' }, metricsSchemaUri: CLASSIFICATION },
      ],
    });
    assert.equal(sliceResponse.importedModelEvaluationSlices!.length, 2);
    const [annotations] = await h.models.batchImportEvaluatedAnnotations({
      parent: sliceResponse.importedModelEvaluationSlices![0],
      evaluatedAnnotations: [{ type: 'TRUE_POSITIVE' }, { type: 'FALSE_NEGATIVE' }, { type: 'FALSE_POSITIVE' }],
    });
    assert.equal(annotations.importedEvaluatedAnnotationsCount, 3);

    await rejectsWith(h.models.importModelEvaluation({ parent: model }), 'INVALID_ARGUMENT', /model_evaluation/);
    await rejectsWith(
      h.models.batchImportModelEvaluationSlices({
        parent: evaluation.name!,
        modelEvaluationSlices: [{ metricsSchemaUri: CLASSIFICATION }],
      }),
      'INVALID_ARGUMENT',
      /dimension/,
    );
    await rejectsWith(
      h.models.batchImportEvaluatedAnnotations({
        parent: `${evaluation.name}/slices/404`,
        evaluatedAnnotations: [{ type: 'TRUE_POSITIVE' }],
      }),
      'NOT_FOUND',
    );
    await rejectsWith(h.models.getModelEvaluation({ name: `${model}/evaluations/1` }), 'NOT_FOUND');
  });

  it('pages through evaluations and refuses a token of another version', async () => {
    const name = await modelByDisplayName(h.models, US, 'demand-forecast-weekly');
    for (let i = 0; i < 2; i++) {
      await h.models.importModelEvaluation({ parent: `${name}@5`, modelEvaluation: { displayName: `backfill-${i}` } });
    }
    const seen: string[] = [];
    for await (const e of h.models.listModelEvaluationsAsync({ parent: `${name}@5`, pageSize: 1 })) seen.push(e.name!);
    assert.ok(seen.length >= 3);
    assert.equal(new Set(seen).size, seen.length, 'no evaluation twice across pages');
    const [, , page] = await h.models.listModelEvaluations(
      { parent: `${name}@5`, pageSize: 1 },
      { autoPaginate: false },
    );
    assert.ok(page?.nextPageToken);
    await rejectsWith(
      h.models.listModelEvaluations(
        { parent: `${name}@4`, pageSize: 1, pageToken: page.nextPageToken },
        { autoPaginate: false },
      ),
      'INVALID_ARGUMENT',
    );
  });
});
