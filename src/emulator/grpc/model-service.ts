// google.cloud.aiplatform.v1beta1.ModelService: every RPC of the proto, with the rules of the model
// management spec (seed 000) and the status codes the real service uses (api-facts A.8).
import { status as Status } from '@grpc/grpc-js';
import {
  parseEvaluationName,
  parseLocationName,
  parseModelName,
  parseModelVersionName,
  parseSliceName,
} from '../../core/names';
import { AIPLATFORM, compactMessage, type ProtoObject } from '../../core/proto';
import { checkLabels, maskPaths, requireField, type ServiceHandlers } from './context';
import { RpcError, aborted, alreadyExists, failedPrecondition, invalidArgument, notFound } from './errors';
import { compileFilter, labelField } from './filter';
import type {
  BaseModelSource,
  Checkpoint,
  ContainerSpec,
  ExplanationSpec,
  ExportFormat,
  ModelEvaluationSliceInput,
  ModelInput,
  ModelServiceRequests,
  ModelSourceInfo,
} from './messages';
import {
  ALIAS_PATTERN,
  MODEL_ID_PATTERN,
  canonicalProject,
  checkLocation,
  defaultVersion,
  modelKey,
  type EvaluationRecord,
  type ModelRecord,
  type ModelStore,
  type SliceRecord,
  type VersionRecord,
} from './store';
import { applyReadMask, paginate, parseName, timestamp } from './util';

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

function sameProject(a: string, b: string): boolean {
  return canonicalProject(a) === canonicalProject(b);
}

function getModelOf(store: ModelStore, n: { project: string; location: string; model: string }): ModelRecord {
  checkLocation(n.location);
  return store.getModel(n.project, n.location, n.model);
}

function nameOf(model: ModelRecord): string {
  return modelKey(model.project, model.location, model.id);
}

function checkAliases(aliases: string[], field: string): void {
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
function moveAliases(model: ModelRecord, target: VersionRecord, aliases: string[], now: number): void {
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

function checkModelId(id: string, field: string, store: ModelStore, project: string, location: string): void {
  if (!MODEL_ID_PATTERN.test(id)) {
    throw invalidArgument(
      `${field} "${id}" is invalid: up to 63 characters of [a-z0-9_-], not starting with a digit or hyphen.`,
      [{ field, description: 'invalid model id' }],
    );
  }
  const key = modelKey(project, location, id);
  if (store.models.has(key) || store.reservedNames.has(key)) throw alreadyExists(`Model ${key} already exists.`);
}

function uploadedVersionSpec(model: ModelInput): ProtoObject {
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

function evaluationMessage(model: ModelRecord, evaluation: EvaluationRecord): ProtoObject {
  return {
    ...evaluation.message,
    name: `${nameOf(model)}/evaluations/${evaluation.id}`,
    createTime: timestamp(evaluation.createTime),
  };
}

function findEvaluation(
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
function addVersion(
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

function orderVersions(versions: VersionRecord[], orderBy: string): VersionRecord[] {
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

function modelFilterKnown(path: string[]): boolean {
  const head = path[0];
  if (head === 'labels') return path.length <= 2;
  return (
    path.length === 1 && ['model', 'display_name', 'displayName', 'base_model_name', 'baseModelName'].includes(head)
  );
}

function baseModelName(spec: ProtoObject): string {
  const source = spec.baseModelSource as BaseModelSource | null | undefined;
  const garden = source?.modelGardenSource?.publicModelName;
  return garden ? garden.split('/').pop()! : '';
}

export function modelServiceHandlers(): ServiceHandlers<ModelServiceRequests> {
  return {
    UploadModel(req, { store, ops, clock }) {
      const parent = parseName('parent', req.parent, parseLocationName);
      checkLocation(parent.location);
      if (!req.model) throw invalidArgument('model is required.', [{ field: 'model', description: 'required' }]);
      const model = req.model;
      const labels = checkLabels(model.labels, 'model.labels');
      const aliases = [...(model.versionAliases ?? [])];
      checkAliases(aliases, 'model.version_aliases');
      const spec = uploadedVersionSpec(model);
      let target: { project: string; location: string; id: string; existing: boolean };
      if (req.parentModel) {
        const pm = parseName('parent_model', req.parentModel, parseModelName);
        if (!sameProject(pm.project, parent.project) || pm.location !== parent.location) {
          throw invalidArgument(`parent_model ${req.parentModel} must be in ${req.parent}.`, [
            { field: 'parent_model', description: 'not under parent' },
          ]);
        }
        if (req.modelId && req.modelId !== pm.model) {
          throw invalidArgument(
            'model_id and parent_model name different models; set only parent_model to upload a new version.',
            [{ field: 'model_id', description: 'conflicts with parent_model' }],
          );
        }
        store.getModel(pm.project, pm.location, pm.model);
        target = { project: canonicalProject(pm.project), location: pm.location, id: pm.model, existing: true };
      } else {
        requireField(model.displayName, 'model.display_name');
        let id: string;
        if (req.modelId) {
          checkModelId(req.modelId, 'model_id', store, parent.project, parent.location);
          id = req.modelId;
        } else {
          id = store.nextId('model');
        }
        target = { project: canonicalProject(parent.project), location: parent.location, id, existing: false };
      }
      const key = modelKey(target.project, target.location, target.id);
      if (!target.existing) store.reservedNames.add(key);
      const op = ops.start({
        parent: key,
        method: 'UploadModel',
        metadataType: `${AIPLATFORM}.UploadModelOperationMetadata`,
        responseType: `${AIPLATFORM}.UploadModelResponse`,
        complete: () => {
          const now = clock.now();
          const versionId = addVersion(
            store,
            key,
            target,
            now,
            'was deleted before the new version was uploaded',
            { displayName: model.displayName, description: model.description ?? '', labels: {} },
            { versionDescription: model.versionDescription ?? '', labels, spec },
            aliases,
          );
          return { model: key, modelVersionId: versionId };
        },
        release: () => {
          if (!target.existing) store.reservedNames.delete(key);
        },
      });
      return ops.message(op);
    },

    GetModel(req, { store }) {
      const n = parseName('name', req.name, parseModelVersionName);
      const model = getModelOf(store, n);
      return store.modelMessage(model, store.resolveVersion(model, n.version, 'default'));
    },

    ListModels(req, { store }) {
      const parent = parseName('parent', req.parent, parseLocationName);
      checkLocation(parent.location);
      const prefix = `projects/${canonicalProject(parent.project)}/locations/${parent.location}/models/`;
      const models = [...store.models.entries()].filter(([k]) => k.startsWith(prefix)).map(([, m]) => m);
      const predicate = compileFilter<{ model: ModelRecord; version: VersionRecord }>(
        req.filter,
        ({ model, version }, path) => {
          const head = path[0];
          if (head === 'labels') return labelField({ ...model.labels, ...version.labels }, path);
          if (head === 'model') return { kind: 'scalar', value: model.id };
          if (head === 'display_name' || head === 'displayName') return { kind: 'scalar', value: model.displayName };
          if (head === 'base_model_name' || head === 'baseModelName')
            return { kind: 'scalar', value: baseModelName(version.spec) };
          return undefined;
        },
        modelFilterKnown,
      );
      const matching = models
        .map((model) => ({ model, version: defaultVersion(model) }))
        .filter(predicate)
        .sort((a, b) => b.model.createTime - a.model.createTime || (a.model.id < b.model.id ? -1 : 1));
      const { page, nextPageToken } = paginate(matching, req, ['ListModels', prefix, req.filter ?? '']);
      return {
        models: page.map(({ model, version }) => applyReadMask(store.modelMessage(model, version), req.readMask)),
        nextPageToken,
      };
    },

    ListModelVersions(req, { store }) {
      const n = parseName('name', req.name, parseModelName);
      const model = getModelOf(store, n);
      const predicate = compileFilter<VersionRecord>(
        req.filter,
        (version, path) => labelField({ ...model.labels, ...version.labels }, path),
        (path) => path[0] === 'labels' && path.length <= 2,
      );
      const versions = orderVersions([...model.versions.values()].filter(predicate), req.orderBy ?? '');
      const { page, nextPageToken } = paginate(versions, req, [
        'ListModelVersions',
        nameOf(model),
        req.filter ?? '',
        req.orderBy ?? '',
      ]);
      return {
        models: page.map((v) => applyReadMask(store.modelMessage(model, v, true), req.readMask)),
        nextPageToken,
      };
    },

    ListModelVersionCheckpoints(req, { store }) {
      const n = parseName('name', req.name, parseModelVersionName);
      const model = getModelOf(store, n);
      const version = store.resolveVersion(model, n.version, 'latest');
      const checkpoints = ((version.spec.checkpoints as Checkpoint[] | undefined) ?? []).map((c) => ({
        checkpointId: c.checkpointId,
        epoch: c.epoch,
        step: c.step,
      }));
      const { page, nextPageToken } = paginate(checkpoints, req, [
        'ListModelVersionCheckpoints',
        nameOf(model),
        version.versionId,
      ]);
      return { checkpoints: page, nextPageToken };
    },

    UpdateModel(req, { store, clock }) {
      if (!req.model) throw invalidArgument('model is required.', [{ field: 'model', description: 'required' }]);
      const n = parseName('model.name', req.model.name, parseModelVersionName);
      const model = getModelOf(store, n);
      const paths = maskPaths(req.updateMask);
      if (paths.length === 0)
        throw invalidArgument('update_mask is required and must name at least one field.', [
          { field: 'update_mask', description: 'empty' },
        ]);
      const versionLevel = n.version !== undefined && n.version !== '-';
      const version = store.resolveVersion(model, versionLevel ? n.version : undefined, 'default');
      const modelFields = ['displayName', 'description', 'labels'];
      const versionFields = ['versionDescription', 'labels'];
      for (const path of paths) {
        if (!modelFields.includes(path) && !versionFields.includes(path)) {
          throw invalidArgument(
            `update_mask path "${path}" cannot be updated; updatable fields are display_name, description, version_description and labels.`,
            [{ field: 'update_mask', description: `not updatable: ${path}` }],
          );
        }
        if (versionLevel && !versionFields.includes(path)) {
          throw failedPrecondition(
            `"${path}" is a model field but ${req.model.name} names a version; update it with the model name (without @version).`,
            'MODEL_VERSION_MISMATCH',
            req.model.name,
          );
        }
        if (!versionLevel && !modelFields.includes(path)) {
          throw failedPrecondition(
            `"${path}" is a version field but ${req.model.name} names the model; name the version with @version_id.`,
            'MODEL_VERSION_MISMATCH',
            req.model.name,
          );
        }
      }
      const { etag } = store.modelMessage(model, version);
      const currentEtag = typeof etag === 'string' ? etag : '';
      if (req.model.etag && req.model.etag !== currentEtag) {
        throw aborted(
          `The etag "${req.model.etag}" does not match the current etag of ${req.model.name}; read the model again and retry.`,
        );
      }
      const m = req.model;
      if (paths.includes('displayName') && !m.displayName)
        throw invalidArgument('model.display_name must not be empty.', [
          { field: 'model.display_name', description: 'empty' },
        ]);
      const labels = paths.includes('labels') ? checkLabels(m.labels, 'model.labels') : undefined;
      const now = clock.now();
      if (versionLevel) {
        if (paths.includes('versionDescription')) version.versionDescription = m.versionDescription ?? '';
        if (labels) version.labels = labels;
        version.updateTime = now;
      } else {
        if (paths.includes('displayName')) model.displayName = m.displayName;
        if (paths.includes('description')) model.description = m.description ?? '';
        if (labels) model.labels = labels;
        model.updateTime = now;
      }
      model.etagSeq++;
      return store.modelMessage(model, version);
    },

    UpdateExplanationDataset(req, { store, ops }) {
      const n = parseName('model', req.model, parseModelVersionName);
      const model = getModelOf(store, n);
      const version = store.resolveVersion(model, n.version, 'default');
      const explanation = version.spec.explanationSpec as ExplanationSpec | null | undefined;
      const examples = explanation?.parameters?.examples;
      if (!examples) {
        throw failedPrecondition(
          `${req.model} is not configured for example-based explanations, so it has no explanation dataset to update.`,
          'EXPLANATION_SPEC',
          req.model,
        );
      }
      const op = ops.start({
        parent: nameOf(model),
        method: 'UpdateExplanationDataset',
        metadataType: `${AIPLATFORM}.UpdateExplanationDatasetOperationMetadata`,
        responseType: `${AIPLATFORM}.UpdateExplanationDatasetResponse`,
        complete: () => {
          if (req.examples && explanation?.parameters) explanation.parameters.examples = req.examples;
          return {};
        },
      });
      return ops.message(op);
    },

    DeleteModel(req, { store, ops }) {
      const n = parseName('name', req.name, parseModelVersionName);
      if (n.version !== undefined) {
        throw invalidArgument(
          `DeleteModel takes a model name without a version; use DeleteModelVersion for ${req.name}.`,
          [{ field: 'name', description: 'version suffix not allowed' }],
        );
      }
      const model = getModelOf(store, n);
      refuseIfDeployed(store, model, undefined, 'Model');
      const key = nameOf(model);
      const op = ops.start({
        parent: key,
        method: 'DeleteModel',
        metadataType: `${AIPLATFORM}.DeleteOperationMetadata`,
        responseType: 'google.protobuf.Empty',
        complete: () => {
          const current = store.models.get(key);
          if (!current) throw notFound(`Model ${key} does not exist.`);
          refuseIfDeployed(store, current, undefined, 'Model');
          store.models.delete(key);
          for (const resource of [...store.policies.keys()])
            if (resource === key || resource.startsWith(`${key}@`)) store.policies.delete(resource);
          return {};
        },
      });
      return ops.message(op);
    },

    DeleteModelVersion(req, { store, ops, clock }) {
      const n = parseName('name', req.name, parseModelVersionName);
      if (n.version === undefined || n.version === '-') {
        throw invalidArgument(
          `DeleteModelVersion needs an explicit version (name@version_id); to delete the whole model use DeleteModel.`,
          [{ field: 'name', description: 'version suffix required' }],
        );
      }
      const model = getModelOf(store, n);
      const version = store.resolveVersion(model, n.version);
      checkVersionDeletable(store, model, version, req.name);
      const key = nameOf(model);
      const versionId = version.versionId;
      const op = ops.start({
        parent: key,
        method: 'DeleteModelVersion',
        metadataType: `${AIPLATFORM}.DeleteOperationMetadata`,
        responseType: 'google.protobuf.Empty',
        complete: () => {
          const current = store.models.get(key);
          const v = current?.versions.get(versionId);
          if (!current || !v) throw notFound(`Model version ${key}@${versionId} does not exist.`);
          checkVersionDeletable(store, current, v, `${key}@${versionId}`);
          current.versions.delete(versionId);
          for (const [id, e] of current.evaluations) if (e.versionId === versionId) current.evaluations.delete(id);
          current.updateTime = clock.now();
          current.etagSeq++;
          return {};
        },
      });
      return ops.message(op);
    },

    MergeVersionAliases(req, { store, clock }) {
      const n = parseName('name', req.name, parseModelVersionName);
      if (n.version === undefined || n.version === '-') {
        throw invalidArgument('MergeVersionAliases needs a version: name@version_id.', [
          { field: 'name', description: 'version suffix required' },
        ]);
      }
      const model = getModelOf(store, n);
      const version = store.resolveVersion(model, n.version);
      const requested: string[] = req.versionAliases ?? [];
      requireField(requested, 'version_aliases');
      const add: string[] = [];
      const remove: string[] = [];
      for (const entry of requested) {
        const removing = entry.startsWith('-');
        const alias = removing ? entry.slice(1) : entry;
        checkAliases([alias], 'version_aliases');
        (removing ? remove : add).push(alias);
      }
      // Adding and removing the same alias in one request cancel out (documented behaviour).
      const both = add.filter((a) => remove.includes(a));
      const toAdd = add.filter((a) => !both.includes(a));
      const toRemove = remove.filter((a) => !both.includes(a));
      if (toRemove.includes('default') && version.aliases.includes('default')) {
        throw failedPrecondition(
          `The alias "default" cannot be removed from ${req.name}: a model always has exactly one default version. Add "default" to another version to move it.`,
          'DEFAULT_ALIAS',
          req.name,
        );
      }
      const now = clock.now();
      version.aliases = version.aliases.filter((a) => !toRemove.includes(a));
      moveAliases(model, version, toAdd, now);
      model.etagSeq++;
      return store.modelMessage(model, version);
    },

    ExportModel(req, { store, ops, clock }) {
      const n = parseName('name', req.name, parseModelVersionName);
      const model = getModelOf(store, n);
      const version = store.resolveVersion(model, n.version, 'default');
      const formats = (version.spec.supportedExportFormats as ExportFormat[] | undefined) ?? [];
      const displayName = `${nameOf(model)}@${version.versionId}`;
      if (formats.length === 0) {
        throw failedPrecondition(
          `Model version ${displayName} is not exportable: it has no supported export formats.`,
          'EXPORT_FORMAT',
          displayName,
        );
      }
      const config = req.outputConfig;
      if (!config)
        throw invalidArgument('output_config is required.', [{ field: 'output_config', description: 'required' }]);
      const formatId = config.exportFormatId || formats[0].id;
      const format = formats.find((f) => f.id === formatId);
      if (!format) {
        throw invalidArgument(
          `Export format "${formatId}" is not supported by ${displayName}; supported: ${formats.map((f) => f.id).join(', ')}.`,
          [{ field: 'output_config.export_format_id', description: 'unsupported format' }],
        );
      }
      const contents = format.exportableContents ?? [];
      const artifact = config.artifactDestination?.outputUriPrefix || undefined;
      const image = config.imageDestination?.outputUri || undefined;
      if (!artifact && !image) {
        throw invalidArgument('output_config needs artifact_destination or image_destination.', [
          { field: 'output_config', description: 'no destination' },
        ]);
      }
      if (artifact && !contents.includes('ARTIFACT')) {
        throw invalidArgument(`Format "${formatId}" cannot export the model artifact; use image_destination.`, [
          { field: 'output_config.artifact_destination', description: 'format has no ARTIFACT content' },
        ]);
      }
      if (image && !contents.includes('IMAGE')) {
        throw invalidArgument(`Format "${formatId}" cannot export a container image; use artifact_destination.`, [
          { field: 'output_config.image_destination', description: 'format has no IMAGE content' },
        ]);
      }
      if (artifact && !/^gs:\/\/[a-z0-9][a-z0-9._-]{1,221}[a-z0-9](\/.*)?$/.test(artifact)) {
        throw invalidArgument(
          `artifact_destination.output_uri_prefix must be a Cloud Storage URI (gs://bucket/path), got "${artifact}".`,
          [{ field: 'output_config.artifact_destination.output_uri_prefix', description: 'not a gs:// URI' }],
        );
      }
      if (image && !/^([a-z0-9-]+\.)?(gcr\.io|pkg\.dev|[a-z0-9-]+-docker\.pkg\.dev)\/\S+$/.test(image)) {
        throw invalidArgument(
          `image_destination.output_uri must be a Container Registry or Artifact Registry path, got "${image}".`,
          [{ field: 'output_config.image_destination.output_uri', description: 'not a registry path' }],
        );
      }
      const stamp = new Date(clock.now()).toISOString();
      const outputInfo = {
        artifactOutputUri: artifact
          ? `${artifact.replace(/\/+$/, '')}/model-export-${model.displayName.replace(/[^A-Za-z0-9_-]+/g, '_')}-${stamp}`
          : '',
        imageOutputUri: image ?? '',
      };
      const key = nameOf(model);
      const op = ops.start({
        parent: key,
        method: 'ExportModel',
        metadataType: `${AIPLATFORM}.ExportModelOperationMetadata`,
        responseType: `${AIPLATFORM}.ExportModelResponse`,
        metadata: { outputInfo },
        complete: () => {
          if (!store.models.get(key)?.versions.has(version.versionId))
            throw notFound(`Model version ${displayName} was deleted during the export.`);
          return {};
        },
      });
      return ops.message(op);
    },

    CopyModel(req, { store, ops, clock }) {
      const parent = parseName('parent', req.parent, parseLocationName);
      checkLocation(parent.location);
      const src = parseName('source_model', req.sourceModel, parseModelVersionName);
      if (!sameProject(src.project, parent.project)) {
        throw failedPrecondition(
          `CopyModel copies only within one project: source_model is in project "${src.project}" but the destination is in "${parent.project}".`,
          'CROSS_PROJECT_COPY',
          req.sourceModel,
        );
      }
      const source = getModelOf(store, src);
      const sourceVersion = store.resolveVersion(source, src.version, 'default');
      let target: { id: string; existing: boolean };
      if (req.parentModel) {
        const pm = parseName('parent_model', req.parentModel, parseModelName);
        if (!sameProject(pm.project, parent.project) || pm.location !== parent.location) {
          throw invalidArgument(`parent_model ${req.parentModel} must be in ${req.parent}.`, [
            { field: 'parent_model', description: 'not under parent' },
          ]);
        }
        store.getModel(pm.project, pm.location, pm.model);
        target = { id: pm.model, existing: true };
      } else if (req.modelId) {
        checkModelId(req.modelId, 'model_id', store, parent.project, parent.location);
        target = { id: req.modelId, existing: false };
      } else {
        target = { id: store.nextId('model'), existing: false };
      }
      const key = modelKey(parent.project, parent.location, target.id);
      if (!target.existing) store.reservedNames.add(key);
      const sourceName = nameOf(source);
      const spec: ProtoObject = structuredClone(sourceVersion.spec);
      const sourceType = (sourceVersion.spec.modelSourceInfo as ModelSourceInfo | null)?.sourceType ?? 'CUSTOM';
      const snapshot = {
        displayName: source.displayName,
        description: source.description,
        labels: { ...source.labels },
      };
      const versionSnapshot = {
        versionDescription: sourceVersion.versionDescription,
        labels: { ...sourceVersion.labels },
      };
      const op = ops.start({
        parent: key,
        method: 'CopyModel',
        metadataType: `${AIPLATFORM}.CopyModelOperationMetadata`,
        responseType: `${AIPLATFORM}.CopyModelResponse`,
        complete: () => {
          const now = clock.now();
          const versionId = addVersion(
            store,
            key,
            { ...target, project: canonicalProject(parent.project), location: parent.location },
            now,
            'was deleted before the copy finished',
            snapshot,
            {
              ...versionSnapshot,
              spec: {
                ...spec,
                encryptionSpec: req.encryptionSpec ?? spec.encryptionSpec ?? null,
                modelSourceInfo: { sourceType, copy: true },
                originalModelInfo: { model: sourceName },
              },
            },
            [],
          );
          return { model: key, modelVersionId: versionId };
        },
        release: () => {
          if (!target.existing) store.reservedNames.delete(key);
        },
      });
      return ops.message(op);
    },

    ImportModelEvaluation(req, { store, clock }) {
      const n = parseName('parent', req.parent, parseModelVersionName);
      const model = getModelOf(store, n);
      const version = store.resolveVersion(model, n.version, 'default');
      if (!req.modelEvaluation)
        throw invalidArgument('model_evaluation is required.', [
          { field: 'model_evaluation', description: 'required' },
        ]);
      const {
        name: _name,
        createTime: _createTime,
        ...message
      } = compactMessage(`${AIPLATFORM}.ModelEvaluation`, req.modelEvaluation);
      const id = store.nextId('evaluation');
      const evaluation: EvaluationRecord = {
        id,
        versionId: version.versionId,
        createTime: clock.now(),
        message,
        slices: new Map(),
      };
      model.evaluations.set(id, evaluation);
      return evaluationMessage(model, evaluation);
    },

    BatchImportModelEvaluationSlices(req, { store, clock }) {
      const { model, evaluation } = findEvaluation(store, req.parent, 'parent');
      const slices = req.modelEvaluationSlices ?? [];
      requireField(slices, 'model_evaluation_slices');
      const names: string[] = [];
      slices.forEach((slice, i) => {
        if (!slice.slice?.dimension) {
          throw invalidArgument(`model_evaluation_slices[${i}].slice.dimension is required.`, [
            { field: `model_evaluation_slices[${i}].slice.dimension`, description: 'required' },
          ]);
        }
      });
      for (const slice of slices) {
        const {
          name: _name,
          createTime: _createTime,
          ...message
        } = compactMessage(`${AIPLATFORM}.ModelEvaluationSlice`, slice);
        const id = store.nextId('slice');
        evaluation.slices.set(id, { id, createTime: clock.now(), message, annotations: [] });
        names.push(`${nameOf(model)}/evaluations/${evaluation.id}/slices/${id}`);
      }
      return { importedModelEvaluationSlices: names };
    },

    BatchImportEvaluatedAnnotations(req, { store }) {
      const n = parseName('parent', req.parent, parseSliceName);
      const model = getModelOf(store, n);
      const evaluation = model.evaluations.get(n.evaluation);
      const slice = evaluation?.slices.get(n.slice);
      if (!slice)
        throw notFound(
          `ModelEvaluationSlice ${req.parent} does not exist.`,
          'aiplatform.googleapis.com/ModelEvaluationSlice',
          req.parent,
        );
      const annotations = req.evaluatedAnnotations ?? [];
      requireField(annotations, 'evaluated_annotations');
      slice.annotations.push(...annotations.map((a) => compactMessage(`${AIPLATFORM}.EvaluatedAnnotation`, a)));
      return { importedEvaluatedAnnotationsCount: annotations.length };
    },

    GetModelEvaluation(req, { store }) {
      const { model, evaluation } = findEvaluation(store, req.name, 'name');
      return evaluationMessage(model, evaluation);
    },

    ListModelEvaluations(req, { store }) {
      const n = parseName('parent', req.parent, parseModelVersionName);
      const model = getModelOf(store, n);
      const version = store.resolveVersion(model, n.version, 'default');
      const predicate = compileFilter<EvaluationRecord>(
        req.filter,
        (e, path) =>
          path[0] === 'display_name' || path[0] === 'displayName'
            ? { kind: 'scalar', value: typeof e.message.displayName === 'string' ? e.message.displayName : '' }
            : undefined,
        (path) => path.length === 1 && (path[0] === 'display_name' || path[0] === 'displayName'),
      );
      const evaluations = [...model.evaluations.values()]
        .filter((e) => e.versionId === version.versionId)
        .filter(predicate)
        .sort((a, b) => b.createTime - a.createTime || (a.id < b.id ? -1 : 1));
      const { page, nextPageToken } = paginate(evaluations, req, [
        'ListModelEvaluations',
        nameOf(model),
        version.versionId,
        req.filter ?? '',
      ]);
      return {
        modelEvaluations: page.map((e) => applyReadMask(evaluationMessage(model, e), req.readMask)),
        nextPageToken,
      };
    },

    GetModelEvaluationSlice(req, { store }) {
      const n = parseName('name', req.name, parseSliceName);
      const model = getModelOf(store, n);
      const evaluation = model.evaluations.get(n.evaluation);
      const slice = evaluation?.slices.get(n.slice);
      if (!evaluation || !slice)
        throw notFound(
          `ModelEvaluationSlice ${req.name} does not exist.`,
          'aiplatform.googleapis.com/ModelEvaluationSlice',
          req.name,
        );
      return sliceMessage(model, evaluation, slice.id);
    },

    ListModelEvaluationSlices(req, { store }) {
      const { model, evaluation } = findEvaluation(store, req.parent, 'parent');
      const predicate = compileFilter<SliceRecord>(
        req.filter,
        (s, path) =>
          path.join('.') === 'slice.dimension'
            ? { kind: 'scalar', value: (s.message as ModelEvaluationSliceInput).slice?.dimension ?? '' }
            : undefined,
        (path) => path.join('.') === 'slice.dimension',
      );
      const slices = [...evaluation.slices.values()].filter(predicate);
      const { page, nextPageToken } = paginate(slices, req, [
        'ListModelEvaluationSlices',
        req.parent,
        req.filter ?? '',
      ]);
      return {
        modelEvaluationSlices: page.map((s) => applyReadMask(sliceMessage(model, evaluation, s.id), req.readMask)),
        nextPageToken,
      };
    },

    RecommendSpec(req) {
      const parent = parseName('parent', req.parent, parseLocationName);
      checkLocation(parent.location);
      requireField(req.gcsUri, 'gcs_uri');
      if (!/^gs:\/\/[^/]+\/.+/.test(req.gcsUri)) {
        throw invalidArgument(
          `gcs_uri must point at a model folder in Cloud Storage (gs://bucket/path), got "${req.gcsUri}".`,
          [{ field: 'gcs_uri', description: 'not a gs:// folder' }],
        );
      }
      const baseModel = String(req.gcsUri).replace(/\/+$/, '').split('/').pop()!;
      const container = {
        imageUri: 'us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:latest',
        args: ['--model=/gcs-model'],
      };
      const specs = [
        {
          machineSpec: { machineType: 'g2-standard-12', acceleratorType: 'NVIDIA_L4', acceleratorCount: 1 },
          containerSpec: container,
        },
        {
          machineSpec: { machineType: 'a2-highgpu-1g', acceleratorType: 'NVIDIA_TESLA_A100', acceleratorCount: 1 },
          containerSpec: container,
        },
      ];
      const recommendations =
        req.checkMachineAvailability || req.checkUserQuota
          ? specs.map((spec, i) => ({
              region: parent.location,
              spec,
              userQuotaState: req.checkUserQuota
                ? i === 0
                  ? 'QUOTA_STATE_USER_HAS_QUOTA'
                  : 'QUOTA_STATE_NO_USER_QUOTA'
                : 'QUOTA_STATE_UNSPECIFIED',
            }))
          : [];
      return { baseModel, specs, recommendations };
    },
  };

  function sliceMessage(model: ModelRecord, evaluation: EvaluationRecord, sliceId: string): ProtoObject {
    const slice = evaluation.slices.get(sliceId)!;
    return {
      ...slice.message,
      name: `${nameOf(model)}/evaluations/${evaluation.id}/slices/${slice.id}`,
      createTime: timestamp(slice.createTime),
    };
  }
}

function refuseIfDeployed(store: ModelStore, model: ModelRecord, versionId: string | undefined, what: string): void {
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

function checkVersionDeletable(store: ModelStore, model: ModelRecord, version: VersionRecord, name: string): void {
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
