// The model registry's own rules, shared by the ModelService handlers: what a version holds, how
// aliases move, which model ids and filters are accepted, and what refuses a deletion.
import { status as Status } from '@grpc/grpc-js';
import { parseEvaluationName } from '../../core/names';
import { AIPLATFORM, compactMessage, type ProtoObject } from '../../core/proto';
import { RpcError, alreadyExists, failedPrecondition, invalidArgument, notFound } from './errors';
import type { BaseModelSource, ContainerSpec, ModelInput } from './messages';
import {
  ALIAS_PATTERN,
  MODEL_ID_PATTERN,
  canonicalProject,
  checkLocation,
  modelKey,
  type EvaluationRecord,
  type ModelRecord,
  type ModelStore,
  type VersionRecord,
} from './store';
import { parseName, timestamp } from './util';
import type { ServiceContext } from './context';
import type { OperationRecord } from './operations';

/** Model fields the registry manages itself; everything else in an uploaded Model is version content. */
const MANAGED_FIELDS = new Set([
  'name',
  'versionId',
  'versionAliases',
  'versionCreateTime',
  'versionUpdateTime',
  'displayName',
  'description',
  'versionDescription',
  'labels',
  'createTime',
  'updateTime',
  'deployedModels',
  'etag',
  'supportedExportFormats',
  'supportedDeploymentResourcesTypes',
  'supportedInputStorageFormats',
  'supportedOutputStorageFormats',
  'modelSourceInfo',
  'originalModelInfo',
  'metadataArtifact',
  'satisfiesPzs',
  'satisfiesPzi',
  'trainingPipeline',
]);

function versionContent(model: ModelInput): ProtoObject {
  const spec: ProtoObject = {};
  for (const [k, v] of Object.entries(compactMessage(`${AIPLATFORM}.Model`, model)))
    if (!MANAGED_FIELDS.has(k)) spec[k] = v;
  return spec;
}

export function sameProject(a: string, b: string): boolean {
  return canonicalProject(a) === canonicalProject(b);
}

export function getModelOf(store: ModelStore, n: { project: string; location: string; model: string }): ModelRecord {
  checkLocation(n.location);
  return store.getModel(n.project, n.location, n.model);
}

export function nameOf(model: ModelRecord): string {
  return modelKey(model.project, model.location, model.id);
}

export function checkAliases(aliases: string[], field: string): void {
  const seen = new Set<string>();
  for (const alias of aliases) {
    if (!ALIAS_PATTERN.test(alias) || alias.length > 128) {
      throw invalidArgument(
        `Version alias "${alias}" in ${field} is invalid: aliases match [a-z][a-zA-Z0-9-]{0,126}[a-z-0-9].`,
        [{ field, description: `invalid alias ${alias}` }],
      );
    }
    if (seen.has(alias))
      throw invalidArgument(`Version alias "${alias}" appears twice in ${field}.`, [
        { field, description: 'duplicate alias' },
      ]);
    seen.add(alias);
  }
}

/** Adds aliases to a version, taking each away from whichever version held it (that is how `default` moves). */
export function moveAliases(model: ModelRecord, target: VersionRecord, aliases: string[], now: number): void {
  for (const alias of aliases) {
    for (const v of model.versions.values()) {
      if (v !== target && v.aliases.includes(alias)) {
        v.aliases = v.aliases.filter((a) => a !== alias);
        v.updateTime = now;
      }
    }
    if (!target.aliases.includes(alias)) target.aliases.push(alias);
  }
  target.updateTime = now;
}

function exportFormatsFor(spec: ProtoObject): ProtoObject[] {
  const artifact = typeof spec.artifactUri === 'string' && spec.artifactUri !== '';
  return [{ id: 'custom-trained', exportableContents: artifact ? ['ARTIFACT', 'IMAGE'] : ['IMAGE'] }];
}

export function checkModelId(id: string, field: string, store: ModelStore, project: string, location: string): void {
  if (!MODEL_ID_PATTERN.test(id)) {
    throw invalidArgument(
      `${field} "${id}" is invalid: up to 63 characters of [a-z0-9_-], not starting with a digit or hyphen.`,
      [{ field, description: 'invalid model id' }],
    );
  }
  const key = modelKey(project, location, id);
  if (store.models.has(key) || store.reservedNames.has(key)) throw alreadyExists(`Model ${key} already exists.`);
}

export function uploadedVersionSpec(model: ModelInput): ProtoObject {
  const spec = versionContent(model);
  if (typeof spec.artifactUri === 'string' && spec.artifactUri !== '' && !spec.artifactUri.startsWith('gs://')) {
    throw invalidArgument(`model.artifact_uri must be a Cloud Storage URI (gs://...), got "${spec.artifactUri}".`, [
      { field: 'model.artifact_uri', description: 'not a gs:// URI' },
    ]);
  }
  const container = spec.containerSpec as ContainerSpec | null | undefined;
  if (container && !container.imageUri) {
    throw invalidArgument('model.container_spec.image_uri is required when container_spec is set.', [
      { field: 'model.container_spec.image_uri', description: 'required' },
    ]);
  }
  if (!container?.imageUri && !spec.artifactUri) {
    throw invalidArgument('A model needs model.container_spec.image_uri or model.artifact_uri.', [
      { field: 'model.container_spec', description: 'neither a serving container nor an artifact is given' },
    ]);
  }
  return {
    ...spec,
    supportedExportFormats: exportFormatsFor(spec),
    supportedDeploymentResourcesTypes: ['DEDICATED_RESOURCES'],
    supportedInputStorageFormats: ['jsonl', 'bigquery', 'csv', 'tf-record', 'tf-record-gzip', 'file-list'],
    supportedOutputStorageFormats: ['jsonl', 'bigquery'],
    modelSourceInfo: { sourceType: 'CUSTOM', copy: false },
  };
}

export function evaluationMessage(model: ModelRecord, evaluation: EvaluationRecord): ProtoObject {
  return {
    ...evaluation.message,
    name: `${nameOf(model)}/evaluations/${evaluation.id}`,
    createTime: timestamp(evaluation.createTime),
  };
}

export function findEvaluation(
  store: ModelStore,
  name: string,
  field: string,
): { model: ModelRecord; evaluation: EvaluationRecord } {
  const n = parseName(field, name, parseEvaluationName);
  const model = getModelOf(store, n);
  const evaluation = model.evaluations.get(n.evaluation);
  if (!evaluation)
    throw notFound(`ModelEvaluation ${name} does not exist.`, 'aiplatform.googleapis.com/ModelEvaluation', name);
  return { model, evaluation };
}

/** Orders versions by `order_by` ("create_time desc, update_time"); the default is by version id. */
/**
 * What an upload or a copy does when its operation completes: append a version to the target
 * model, creating the model first when the call named a new one (its name was reserved until now),
 * and give it its aliases. Returns the new version id.
 */
export function addVersion(
  store: ModelStore,
  key: string,
  target: { project: string; location: string; id: string; existing: boolean },
  now: number,
  gone: string,
  model: Pick<ModelRecord, 'displayName' | 'description' | 'labels'>,
  fields: Pick<VersionRecord, 'versionDescription' | 'labels' | 'spec'>,
  aliases: string[],
): string {
  let record: ModelRecord;
  if (target.existing) {
    const existing = store.models.get(key);
    if (!existing) throw notFound(`Model ${key} ${gone}.`);
    record = existing;
  } else {
    store.reservedNames.delete(key);
    record = {
      project: target.project,
      location: target.location,
      id: target.id,
      ...model,
      createTime: now,
      updateTime: now,
      etagSeq: 1,
      versions: new Map(),
      nextVersionId: 1,
      evaluations: new Map(),
    };
    store.models.set(key, record);
  }
  const versionId = String(record.nextVersionId++);
  const version: VersionRecord = { versionId, aliases: [], createTime: now, updateTime: now, ...fields };
  record.versions.set(versionId, version);
  // The first version of a model always gets the alias "default".
  moveAliases(
    record,
    version,
    record.versions.size === 1 ? ['default', ...aliases.filter((a) => a !== 'default')] : aliases,
    now,
  );
  record.updateTime = now;
  record.etagSeq++;
  return versionId;
}

/** What a new version is made of, and how its model is described if it has to be created. */
export interface NewVersion {
  readonly target: { project: string; location: string; id: string; existing: boolean };
  /** Why the model is missing when an existing one was deleted meanwhile ("was deleted before …"). */
  readonly gone: string;
  readonly model: Pick<ModelRecord, 'displayName' | 'description' | 'labels'>;
  readonly fields: Pick<VersionRecord, 'versionDescription' | 'labels' | 'spec'>;
  readonly aliases: string[];
}

/**
 * Starts the long-running operation that adds a version to model `key` (UploadModel, CopyModel): a
 * new model's name is held from now until the operation ends, so no other call takes it meanwhile.
 */
export function startAddVersion(
  { store, ops, clock }: ServiceContext,
  method: string,
  key: string,
  v: NewVersion,
): OperationRecord {
  if (!v.target.existing) store.reservedNames.add(key);
  return ops.start({
    parent: key,
    method,
    complete: () => {
      const versionId = addVersion(store, key, v.target, clock.now(), v.gone, v.model, v.fields, v.aliases);
      return { model: key, modelVersionId: versionId };
    },
    release: () => {
      if (!v.target.existing) store.reservedNames.delete(key);
    },
  });
}

export function orderVersions(versions: VersionRecord[], orderBy: string): VersionRecord[] {
  const keys: Array<{ field: 'createTime' | 'updateTime'; desc: boolean }> = [];
  for (const part of orderBy
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(create_time|createTime|update_time|updateTime)(?:\s+(asc|desc))?$/.exec(part);
    if (!m) {
      throw invalidArgument(
        `Invalid order_by "${orderBy}": supported fields are create_time and update_time, each optionally followed by asc or desc.`,
        [{ field: 'order_by', description: `unsupported ordering ${part}` }],
      );
    }
    keys.push({ field: m[1].startsWith('create') ? 'createTime' : 'updateTime', desc: m[2] === 'desc' });
  }
  return [...versions].sort((a, b) => {
    for (const k of keys) {
      const d = a[k.field] - b[k.field];
      if (d !== 0) return k.desc ? -d : d;
    }
    return Number(a.versionId) - Number(b.versionId);
  });
}

export function modelFilterKnown(path: string[]): boolean {
  const head = path[0];
  if (head === 'labels') return path.length <= 2;
  return (
    path.length === 1 && ['model', 'display_name', 'displayName', 'base_model_name', 'baseModelName'].includes(head)
  );
}

export function baseModelName(spec: ProtoObject): string {
  const source = spec.baseModelSource as BaseModelSource | null | undefined;
  const garden = source?.modelGardenSource?.publicModelName;
  return garden ? garden.split('/').pop()! : '';
}

export function refuseIfDeployed(
  store: ModelStore,
  model: ModelRecord,
  versionId: string | undefined,
  what: string,
): void {
  const deployed = store.deploymentsOf(model, versionId).map((d) => d.endpoint);
  const pending = store.pendingDeploymentsOf(model, versionId);
  const endpoints = [...new Set([...deployed, ...pending])];
  if (endpoints.length) {
    const name = versionId ? `${nameOf(model)}@${versionId}` : nameOf(model);
    throw new RpcError(
      Status.FAILED_PRECONDITION,
      `The ${what} "${name}" is deployed or being deployed at the following Endpoint(s): ${endpoints.join(', ')}. Please undeploy the model before retry.`,
    );
  }
}

export function checkVersionDeletable(
  store: ModelStore,
  model: ModelRecord,
  version: VersionRecord,
  name: string,
): void {
  if (model.versions.size <= 1) {
    throw failedPrecondition(
      `${name} is the only version of the model and cannot be deleted on its own; use DeleteModel to delete the model.`,
      'ONLY_VERSION',
      name,
    );
  }
  if (version.aliases.includes('default')) {
    throw failedPrecondition(
      `${name} is the default version; move the "default" alias to another version before deleting it.`,
      'DEFAULT_VERSION',
      name,
    );
  }
  refuseIfDeployed(store, model, version.versionId, 'Model version');
}

export function sliceMessage(model: ModelRecord, evaluation: EvaluationRecord, sliceId: string): ProtoObject {
  const slice = evaluation.slices.get(sliceId)!;
  return {
    ...slice.message,
    name: `${nameOf(model)}/evaluations/${evaluation.id}/slices/${slice.id}`,
    createTime: timestamp(slice.createTime),
  };
}
