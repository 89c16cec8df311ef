// ModelService RPCs that upload, read, list, update and delete models and their versions, and move
// their aliases.
import { parseLocationName, parseModelName, parseModelVersionName } from '../../core/names';
import { checkLabels, maskPaths, requireField, type ServiceHandlers } from './context';
import { aborted, failedPrecondition, invalidArgument, notFound } from './errors';
import { compileFilter, labelField } from './filter';
import type { Checkpoint, ExplanationSpec, ModelServiceRequests } from './messages';
import {
  canonicalProject,
  checkLocation,
  defaultVersion,
  modelKey,
  type ModelRecord,
  type VersionRecord,
} from './store';
import { applyReadMask, paginate, parseName } from './util';
import { encodeListResponse } from './encoded';
import { AIPLATFORM, encodeMessage } from '../../core/proto';
import {
  sameProject,
  getModelOf,
  nameOf,
  checkAliases,
  moveAliases,
  checkModelId,
  uploadedVersionSpec,
  startAddVersion,
  orderVersions,
  modelFilterKnown,
  baseModelName,
  refuseIfDeployed,
  checkVersionDeletable,
} from './model-rules';

export const modelLifecycleHandlers = {
  UploadModel(req, context) {
    const { store } = context;
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
    const op = startAddVersion(context, 'UploadModel', key, {
      target,
      gone: 'was deleted before the new version was uploaded',
      model: { displayName: model.displayName, description: model.description ?? '', labels: {} },
      fields: { versionDescription: model.versionDescription ?? '', labels, spec },
      aliases,
    });
    return context.ops.message(op);
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
    const filtered = (req.filter ?? '').trim() !== '';
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
    const models = store.modelsNewestFirst(prefix);
    // The default version is looked up only for a filter and for the page itself.
    const matching = filtered ? models.filter((model) => predicate({ model, version: defaultVersion(model) })) : models;
    const { page, nextPageToken } = paginate(matching, req, ['ListModels', prefix, req.filter ?? '']);
    const masked = (req.readMask?.paths ?? []).length > 0;
    const encoded = page.map((model) =>
      masked
        ? encodeMessage(
            `${AIPLATFORM}.Model`,
            applyReadMask(store.modelMessage(model, defaultVersion(model)), req.readMask),
          )
        : store.encodedModel(model),
    );
    return encodeListResponse(`${AIPLATFORM}.ListModelsResponse`, 'models', encoded, nextPageToken);
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
    return ops.startDelete(key, 'DeleteModel', () => {
      const current = store.models.get(key);
      if (!current) throw notFound(`Model ${key} does not exist.`);
      refuseIfDeployed(store, current, undefined, 'Model');
      store.models.delete(key);
      for (const resource of [...store.policies.keys()])
        if (resource === key || resource.startsWith(`${key}@`)) store.policies.delete(resource);
    });
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
    return ops.startDelete(key, 'DeleteModelVersion', () => {
      const current = store.models.get(key);
      const v = current?.versions.get(versionId);
      if (!current || !v) throw notFound(`Model version ${key}@${versionId} does not exist.`);
      checkVersionDeletable(store, current, v, `${key}@${versionId}`);
      current.versions.delete(versionId);
      for (const [id, e] of current.evaluations) if (e.versionId === versionId) current.evaluations.delete(id);
      current.updateTime = clock.now();
      current.etagSeq++;
    });
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
} satisfies Partial<ServiceHandlers<ModelServiceRequests>>;
