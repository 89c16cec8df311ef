// Builds the demo registry from the catalogue: deterministic ids, versions, aliases, labels, export
// formats, evaluations with metrics in Vertex AI's schemas, slices, evaluated annotations, checkpoints,
// endpoints and deployments. Times are relative to the moment of the reset.
import type { ProtoObject } from '../../core/proto';
import { deployedModelMessage } from '../grpc/endpoint-deploy';
import {
  DEMO_PROJECT_ID,
  endpointKey,
  modelKey,
  type EvaluationRecord,
  type ModelRecord,
  type ModelStore,
  type VersionRecord,
} from '../grpc/store';
import { jsonToValue, numericId, type Json } from '../grpc/util';
import { CATALOG, DEMO_ENDPOINTS, type CatalogEntry, type ModelKind } from './catalog';
import { mulberry32 } from '../random';
import {
  classificationMetrics as classificationMetricsOf,
  regressionMetrics as regressionMetricsOf,
  textGenerationMetrics,
} from './metrics';

const DAY = 86_400_000;
const SCHEMA = 'gs://google-cloud-aiplatform/schema/modelevaluation';

type Rng = () => number;
const round = (x: number, digits = 4): number => Number(x.toFixed(digits));
const between = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng();
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

const PREBUILT = 'us-docker.pkg.dev/vertex-ai/prediction';

/** A model trained with a prebuilt container; TensorFlow versions after the first explain by example. */
function customTrainedSpec(
  kind: 'custom-xgboost' | 'custom-sklearn' | 'custom-tensorflow' | 'custom-pytorch',
  slug: string,
  bucket: string,
  versionIndex: number,
  rng: Rng,
): ProtoObject {
  const image = {
    'custom-xgboost': 'xgboost-cpu.2-1',
    'custom-sklearn': 'sklearn-cpu.1-5',
    'custom-tensorflow': 'tf2-cpu.2-15',
    'custom-pytorch': rng() < 0.5 ? 'pytorch-gpu.2-4' : 'pytorch-cpu.2-4',
  }[kind];
  return {
    artifactUri: bucket,
    containerSpec: {
      imageUri: `${PREBUILT}/${image}:latest`,
      predictRoute: '/predict',
      healthRoute: '/health',
      ports: [{ containerPort: 8080 }],
      env: [{ name: 'MODEL_NAME', value: slug }],
    },
    supportedExportFormats: [{ id: 'custom-trained', exportableContents: ['ARTIFACT', 'IMAGE'] }],
    supportedDeploymentResourcesTypes: ['DEDICATED_RESOURCES'],
    supportedInputStorageFormats: ['jsonl', 'bigquery', 'csv', 'tf-record', 'tf-record-gzip', 'file-list'],
    supportedOutputStorageFormats: ['jsonl', 'bigquery'],
    modelSourceInfo: { sourceType: 'CUSTOM', copy: false },
    ...(kind === 'custom-tensorflow' && versionIndex > 1
      ? {
          explanationSpec: {
            parameters: {
              examples: {
                exampleGcsSource: { dataFormat: 'JSONL', gcsSource: { uris: [`${bucket}/examples.jsonl`] } },
                neighborCount: 10,
              },
            },
            metadata: { inputs: {}, outputs: {} },
          },
        }
      : {}),
  };
}

/** A Model Garden model tuned into checkpoints, served by vLLM. */
function tunedLlmSpec(slug: string, versionIndex: number, rng: Rng): ProtoObject {
  const steps = 3 + Math.floor(rng() * 3);
  const checkpoints = Array.from({ length: steps }, (_, i) => ({
    checkpointId: String(i + 1),
    epoch: i + 1,
    step: (i + 1) * 250,
  }));
  return {
    artifactUri: `gs://cloudbench-demo-models/${slug}/tuning-job-${versionIndex}/postprocess/node-0/checkpoints/final`,
    containerSpec: {
      imageUri: 'us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:20250202_0916_RC00',
      args: ['python', '-m', 'vllm.entrypoints.api_server', '--host=0.0.0.0', '--port=8080', '--max-model-len=4096'],
      ports: [{ containerPort: 8080 }],
      predictRoute: '/generate',
      healthRoute: '/ping',
    },
    supportedExportFormats: [],
    supportedDeploymentResourcesTypes: ['DEDICATED_RESOURCES'],
    modelSourceInfo: { sourceType: 'MODEL_GARDEN', copy: false },
    baseModelSource: {
      modelGardenSource: {
        publicModelName: slug.startsWith('gemma') ? 'publishers/google/models/gemma2' : 'publishers/meta/models/llama3',
      },
    },
    checkpoints,
    defaultCheckpointId: String(steps),
  };
}

function kindSpec(entry: CatalogEntry, versionIndex: number, rng: Rng): ProtoObject {
  const slug = entry.displayName;
  const bucket = `gs://cloudbench-demo-models/${slug}/v${versionIndex}`;
  switch (entry.kind) {
    case 'tabular-classification':
    case 'tabular-regression':
    case 'forecasting':
      return {
        metadataSchemaUri: `gs://google-cloud-aiplatform/schema/model/metadata/automl_tables_1.0.0.yaml`,
        predictSchemata: {
          instanceSchemaUri: `${bucket}/instance.yaml`,
          predictionSchemaUri: `${bucket}/prediction.yaml`,
        },
        trainingPipeline: `projects/${DEMO_PROJECT_ID}/locations/${entry.location}/trainingPipelines/${numericId(`pipeline:${slug}:${versionIndex}`)}`,
        supportedExportFormats:
          entry.kind === 'forecasting' ? [] : [{ id: 'tf-saved-model', exportableContents: ['ARTIFACT'] }],
        supportedDeploymentResourcesTypes: ['DEDICATED_RESOURCES'],
        supportedInputStorageFormats: ['bigquery', 'csv'],
        supportedOutputStorageFormats: ['bigquery', 'csv'],
        modelSourceInfo: { sourceType: 'AUTOML', copy: false },
      };
    case 'image-classification':
    case 'object-detection':
      return {
        metadataSchemaUri: `gs://google-cloud-aiplatform/schema/model/metadata/automl_image_${entry.kind === 'object-detection' ? 'object_detection' : 'classification'}_1.0.0.yaml`,
        supportedExportFormats: [
          { id: 'tflite', exportableContents: ['ARTIFACT'] },
          { id: 'edgetpu-tflite', exportableContents: ['ARTIFACT'] },
          { id: 'tf-saved-model', exportableContents: ['ARTIFACT'] },
          { id: 'tf-js', exportableContents: ['ARTIFACT'] },
          { id: 'core-ml', exportableContents: ['ARTIFACT'] },
          { id: 'container', exportableContents: ['IMAGE'] },
        ],
        supportedDeploymentResourcesTypes: ['AUTOMATIC_RESOURCES'],
        supportedInputStorageFormats: ['jsonl'],
        supportedOutputStorageFormats: ['jsonl'],
        modelSourceInfo: { sourceType: 'AUTOML', copy: false },
      };
    case 'text-classification':
      return {
        metadataSchemaUri: 'gs://google-cloud-aiplatform/schema/model/metadata/automl_text_classification_1.0.0.yaml',
        supportedExportFormats: [],
        supportedDeploymentResourcesTypes: ['AUTOMATIC_RESOURCES'],
        supportedInputStorageFormats: ['jsonl'],
        supportedOutputStorageFormats: ['jsonl'],
        modelSourceInfo: { sourceType: 'AUTOML', copy: false },
      };
    case 'custom-xgboost':
    case 'custom-sklearn':
    case 'custom-tensorflow':
    case 'custom-pytorch':
      return customTrainedSpec(entry.kind, slug, bucket, versionIndex, rng);
    case 'tuned-llm':
      return tunedLlmSpec(slug, versionIndex, rng);
    case 'bqml':
      return {
        supportedExportFormats: [],
        supportedDeploymentResourcesTypes: ['DEDICATED_RESOURCES'],
        modelSourceInfo: { sourceType: 'BQML', copy: false },
        metadataArtifact: `projects/${DEMO_PROJECT_ID}/locations/${entry.location}/metadataStores/default/artifacts/${numericId(`bqml:${slug}:${versionIndex}`)}`,
      };
  }
}

/**
 * The demo's metrics come from ./metrics with a generator of their own, seeded by the evaluation;
 * the shared generator still advances by as many draws as the first demo's metrics took, so every
 * other part of the demo (aliases, labels, evaluation counts) stays as it was.
 */
function burn(rng: Rng, draws: number): void {
  for (let i = 0; i < draws; i++) rng();
}

function localRng(seed: string): Rng {
  return mulberry32(Number(numericId(seed).slice(-9)));
}

function classificationMetrics(classes: string[], quality: number, rng: Rng, seed: string): Json {
  burn(rng, 24);
  return classificationMetricsOf(classes, quality, localRng(seed));
}

function regressionMetrics(quality: number, rng: Rng, forecasting: boolean, seed: string): Json {
  burn(rng, forecasting ? 10 : 3);
  return regressionMetricsOf(quality, localRng(seed), forecasting);
}

function detectionMetrics(quality: number): Json {
  return {
    boundingBoxMeanAveragePrecision: round(quality - 0.08),
    evaluatedBoundingBoxCount: 4821,
    boundingBoxMetrics: [0.5, 0.75].map((iou) => ({
      iouThreshold: iou,
      meanAveragePrecision: round(quality - (iou - 0.5) * 0.6),
      confidenceMetrics: [0.3, 0.5, 0.7].map((t) => ({
        confidenceThreshold: t,
        recall: round(quality - t * 0.2),
        precision: round(quality - 0.05 + t * 0.1),
        f1Score: round(quality - 0.05),
      })),
    })),
  };
}

function schemaFor(kind: ModelKind, classes: boolean): { uri: string; classification: boolean } | undefined {
  switch (kind) {
    case 'tabular-classification':
    case 'image-classification':
    case 'text-classification':
      return { uri: `${SCHEMA}/classification_metrics_1.0.0.yaml`, classification: true };
    case 'object-detection':
      return { uri: `${SCHEMA}/image_object_detection_metrics_1.0.0.yaml`, classification: false };
    case 'tabular-regression':
      return { uri: `${SCHEMA}/regression_metrics_1.0.0.yaml`, classification: false };
    case 'forecasting':
      return { uri: `${SCHEMA}/forecasting_metrics_1.0.0.yaml`, classification: false };
    case 'custom-xgboost':
    case 'custom-sklearn':
    case 'custom-tensorflow':
    case 'custom-pytorch':
    case 'bqml':
      return classes
        ? { uri: `${SCHEMA}/classification_metrics_1.0.0.yaml`, classification: true }
        : { uri: `${SCHEMA}/regression_metrics_1.0.0.yaml`, classification: false };
    case 'tuned-llm':
      return undefined;
  }
}

function annotationsFor(entry: CatalogEntry, className: string, rng: Rng): ProtoObject[] {
  const classes = entry.classes ?? [];
  const types = ['TRUE_POSITIVE', 'TRUE_POSITIVE', 'FALSE_POSITIVE', 'FALSE_NEGATIVE'] as const;
  return types.map((type, i) => {
    const other = classes.find((c) => c !== className) ?? className;
    const predicted = type === 'FALSE_NEGATIVE' ? other : className;
    const truth = type === 'FALSE_POSITIVE' ? other : className;
    const payload: Json =
      entry.kind.startsWith('image') || entry.kind === 'object-detection'
        ? {
            imageGcsUri: `gs://cloudbench-demo-data/${entry.displayName}/eval/${className}-${i + 1}.jpg`,
            mimeType: 'image/jpeg',
          }
        : { content: `sample ${i + 1} for ${className}`, mimeType: 'text/plain' };
    return {
      type,
      predictions: [jsonToValue({ displayName: predicted, confidence: round(between(rng, 0.55, 0.99), 3) })],
      groundTruths: [jsonToValue({ displayName: truth })],
      dataItemPayload: jsonToValue(payload),
      evaluatedDataItemViewId: numericId(`item:${entry.displayName}:${className}:${i}`).slice(0, 12),
    };
  });
}

function addEvaluations(
  store: ModelStore,
  model: ModelRecord,
  entry: CatalogEntry,
  version: VersionRecord,
  index: number,
  rng: Rng,
): void {
  if (entry.kind === 'tuned-llm') {
    addTextGenerationEvaluation(model, entry, version, index);
    return;
  }
  const schema = schemaFor(entry.kind, !!entry.classes?.length);
  if (!schema) return;
  const count = index === 1 || rng() < 0.6 ? 1 : 2;
  for (let e = 0; e < count; e++) {
    const quality = Math.min(0.97, 0.72 + index * 0.035 + between(rng, -0.03, 0.04) - e * 0.01);
    let metrics: Json;
    const seed = `metrics:${entry.displayName}:${version.versionId}:${e}`;
    if (schema.classification) metrics = classificationMetrics(entry.classes!, quality, rng, seed);
    else if (entry.kind === 'object-detection') metrics = detectionMetrics(quality);
    else
      metrics = regressionMetrics(
        quality,
        rng,
        entry.kind === 'forecasting' || entry.displayName.includes('arima'),
        seed,
      );
    const createTime = version.createTime + (e + 1) * 3_600_000;
    const id = numericId(`evaluation:${entry.displayName}:${version.versionId}:${e}`);
    const evaluation: EvaluationRecord = {
      id,
      versionId: version.versionId,
      createTime,
      message: {
        displayName: e === 0 ? `evaluation-v${version.versionId}-holdout` : `evaluation-v${version.versionId}-backtest`,
        metricsSchemaUri: schema.uri,
        metrics: jsonToValue(metrics),
        sliceDimensions: schema.classification ? ['annotationSpec'] : [],
        metadata: jsonToValue({
          pipeline_job_resource_name: `projects/${DEMO_PROJECT_ID}/locations/${entry.location}/pipelineJobs/evaluation-${id.slice(0, 8)}`,
          evaluation_dataset_type:
            entry.kind.startsWith('tabular') || entry.kind === 'forecasting' ? 'bigquery' : 'gcs',
          evaluation_dataset_path: [`bq://cloudbench-demo.ml_eval.${entry.displayName.replace(/-/g, '_')}_holdout`],
        }),
      },
      slices: new Map(),
    };
    if (schema.classification) {
      for (const className of entry.classes!) {
        const sliceId = numericId(`slice:${id}:${className}`);
        const sliceQuality = Math.min(0.99, quality + between(rng, -0.06, 0.04));
        evaluation.slices.set(sliceId, {
          id: sliceId,
          createTime,
          message: {
            slice: { dimension: 'annotationSpec', value: className },
            metricsSchemaUri: schema.uri,
            metrics: jsonToValue(
              classificationMetrics([className, 'other'], sliceQuality, rng, `${seed}:${className}`),
            ),
          },
          annotations:
            e === 0 && (entry.kind === 'image-classification' || entry.kind === 'text-classification')
              ? annotationsFor(entry, className, rng)
              : [],
        });
      }
    }
    model.evaluations.set(id, evaluation);
  }
  void store;
}

/** A tuned language model's evaluation on its held-out prompts (its own generator: see burn()). */
function addTextGenerationEvaluation(model: ModelRecord, entry: CatalogEntry, version: VersionRecord, index: number) {
  const rng = localRng(`metrics:${entry.displayName}:${version.versionId}:text`);
  const id = numericId(`evaluation:${entry.displayName}:${version.versionId}:text`);
  const quality = Math.min(0.95, 0.7 + index * 0.05 + between(rng, -0.02, 0.02));
  model.evaluations.set(id, {
    id,
    versionId: version.versionId,
    createTime: version.createTime + 3_600_000,
    message: {
      displayName: `evaluation-v${version.versionId}-heldout-prompts`,
      metricsSchemaUri: `${SCHEMA}/general_text_generation_metrics_1.0.0.yaml`,
      metrics: jsonToValue(textGenerationMetrics(quality, rng)),
      sliceDimensions: [],
      metadata: jsonToValue({
        evaluation_dataset_path: [`gs://cloudbench-demo-data/${entry.displayName}/eval/heldout.jsonl`],
        evaluation_dataset_type: 'gcs',
      }),
    },
    slices: new Map(),
  });
}

const EXTRA_ALIASES = ['champion', 'challenger', 'staging', 'canary', 'golden', 'baseline'];

/** Hyperparameter sweeps and ablations in us-east1: a location with more models than one page shows. */
export const BULK_LOCATION = 'us-east1';
const BULK_FAMILIES = [
  'churn-sweep',
  'ctr-sweep',
  'ranker-ablation',
  'embedding-probe',
  'anomaly-trial',
  'price-sweep',
] as const;
export const BULK_MODELS_PER_FAMILY = 20;

function loadBulkLocation(store: ModelStore, now: number): void {
  const rng = mulberry32(20260302);
  BULK_FAMILIES.forEach((family, f) => {
    for (let i = 1; i <= BULK_MODELS_PER_FAMILY; i++) {
      const displayName = `${family}-${String(i).padStart(3, '0')}`;
      const id = numericId(`bulk-model:${displayName}`);
      const created = now - (3 + f * 2) * DAY - i * 3_600_000;
      const learningRate = pick(rng, ['0.001', '0.003', '0.01', '0.03']);
      const model: ModelRecord = {
        project: DEMO_PROJECT_ID,
        location: BULK_LOCATION,
        id,
        displayName,
        description: `Sweep run ${i} of ${family} (learning rate ${learningRate}).`,
        labels: { team: 'research', sweep: family, env: 'dev' },
        createTime: created,
        updateTime: created,
        etagSeq: 1,
        versions: new Map(),
        nextVersionId: 2,
        evaluations: new Map(),
      };
      model.versions.set('1', {
        versionId: '1',
        aliases: ['default'],
        createTime: created,
        updateTime: created,
        versionDescription: `learning_rate=${learningRate}`,
        labels: { 'training-run': `sweep-${String(i).padStart(3, '0')}` },
        spec: {
          artifactUri: `gs://cloudbench-demo-models/sweeps/${family}/${i}`,
          supportedExportFormats: [],
          supportedDeploymentResourcesTypes: ['DEDICATED_RESOURCES'],
          modelSourceInfo: { sourceType: 'CUSTOM', copy: false },
        },
      });
      store.models.set(modelKey(model.project, model.location, model.id), model);
    }
  });
}

/** Loads the demo registry into an empty store. */
export function loadModelSeed(store: ModelStore, now: number): void {
  const rng = mulberry32(20260301);
  const byName = new Map<string, ModelRecord>();
  CATALOG.forEach((entry, n) => {
    const id = entry.id ?? numericId(`demo-model:${entry.displayName}`);
    const ageDays = 30 + Math.floor(rng() * 300);
    const created = now - ageDays * DAY - n * 3_600_000;
    const model: ModelRecord = {
      project: DEMO_PROJECT_ID,
      location: entry.location,
      id,
      displayName: entry.displayName,
      description: entry.description,
      labels: {
        team: entry.team,
        env: pick(rng, ['prod', 'prod', 'staging', 'dev']),
        'cost-center': `cc-${100 + (n % 7) * 10}`,
      },
      createTime: created,
      updateTime: created,
      etagSeq: 1,
      versions: new Map(),
      nextVersionId: 1,
      evaluations: new Map(),
    };
    let t = created;
    for (let v = 1; v <= entry.versions; v++) {
      const versionId = String(model.nextVersionId++);
      const version: VersionRecord = {
        versionId,
        aliases: [],
        createTime: t,
        updateTime: t + Math.floor(rng() * DAY),
        versionDescription:
          v === 1
            ? 'Initial training run.'
            : pick(rng, [
                'Retrained on the latest month of data.',
                'Added engineered features.',
                'Tuned hyperparameters.',
                'Rebalanced classes.',
                'Fixed label leakage in training data.',
              ]),
        labels: { 'training-run': `run-${String(v).padStart(3, '0')}` },
        spec: kindSpec(entry, v, rng),
      };
      model.versions.set(versionId, version);
      addEvaluations(store, model, entry, version, v, rng);
      t += Math.max(1, Math.floor((ageDays / (entry.versions + 1)) * (0.6 + rng() * 0.8))) * DAY;
    }
    // The default is usually the latest version but sometimes the one before, as teams hold back a release.
    const versionIds = [...model.versions.keys()];
    const defaultIndex = versionIds.length > 1 && rng() < 0.35 ? versionIds.length - 2 : versionIds.length - 1;
    model.versions.get(versionIds[defaultIndex])!.aliases.push('default');
    const free = EXTRA_ALIASES.filter(() => rng() < 0.5).slice(0, Math.max(0, versionIds.length - 1));
    free.forEach((alias, i) => {
      const version = model.versions.get(versionIds[(defaultIndex + 1 + i) % versionIds.length])!;
      version.aliases.push(alias);
    });
    model.updateTime = Math.max(...[...model.versions.values()].map((v) => v.updateTime));
    store.models.set(modelKey(model.project, model.location, model.id), model);
    byName.set(entry.displayName, model);
  });

  // The catalogue names deployed versions by index; a wrong entry is a mistake in the catalogue.
  DEMO_ENDPOINTS.forEach((e, n) => {
    const id = numericId(`demo-endpoint:${e.displayName}`);
    const created = now - (20 + n * 7) * DAY;
    const key = endpointKey(DEMO_PROJECT_ID, e.location, id);
    const deployedModels: ProtoObject[] = [];
    const trafficSplit: Record<string, number> = {};
    e.deployments.forEach((d, i) => {
      const model = byName.get(d.model);
      if (!model || !model.versions.has(String(d.version)) || model.location !== e.location)
        throw new Error(`demo catalogue: ${d.model}@${d.version} cannot be deployed to ${e.displayName}`);
      const deployedId = numericId(`demo-deployed:${e.displayName}:${i}`);
      const version = model.versions.get(String(d.version))!;
      const machine = model.versions.get(String(d.version))!.spec.supportedDeploymentResourcesTypes as string[];
      const dm = deployedModelMessage(
        deployedId,
        modelKey(model.project, model.location, model.id),
        version.versionId,
        `${model.displayName}-v${version.versionId}`,
        created + i * DAY,
        d.model.startsWith('gemma') ? 'g2-standard-12' : 'n1-standard-4',
      );
      if (machine.includes('AUTOMATIC_RESOURCES')) {
        delete dm.dedicatedResources;
        dm.automaticResources = { minReplicaCount: 1, maxReplicaCount: 3 };
      }
      deployedModels.push(dm);
      if (d.traffic > 0) trafficSplit[deployedId] = d.traffic;
    });
    store.endpoints.set(key, {
      project: DEMO_PROJECT_ID,
      location: e.location,
      id,
      displayName: e.displayName,
      description: e.deployments.length
        ? `Online predictions for ${e.deployments.map((d) => d.model).join(', ')}.`
        : 'Empty endpoint for trying deployments.',
      labels: { env: e.displayName.startsWith('staging') ? 'staging' : 'prod' },
      createTime: created,
      updateTime: created + e.deployments.length * DAY,
      etagSeq: 1,
      deployedModels,
      trafficSplit,
    });
  });
  loadBulkLocation(store, now);
}
