// ModelService RPCs that move a model out of the registry or into another region: ExportModel and
// CopyModel, both long-running.
import { parseLocationName, parseModelName, parseModelVersionName } from '../../core/names';
import { type ProtoObject } from '../../core/proto';
import { type ServiceHandlers } from './context';
import { failedPrecondition, invalidArgument, notFound } from './errors';
import type { ExportFormat, ModelServiceRequests, ModelSourceInfo } from './messages';
import { canonicalProject, checkLocation, modelKey } from './store';
import { parseName } from './util';
import { sameProject, getModelOf, nameOf, checkModelId, startAddVersion } from './model-rules';

export const modelTransferHandlers = {
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
      metadata: { outputInfo },
      complete: () => {
        if (!store.models.get(key)?.versions.has(version.versionId))
          throw notFound(`Model version ${displayName} was deleted during the export.`);
        return {};
      },
    });
    return ops.message(op);
  },

  CopyModel(req, context) {
    const { store } = context;
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
    const op = startAddVersion(context, 'CopyModel', key, {
      target: { ...target, project: canonicalProject(parent.project), location: parent.location },
      gone: 'was deleted before the copy finished',
      model: snapshot,
      fields: {
        ...versionSnapshot,
        spec: {
          ...spec,
          encryptionSpec: req.encryptionSpec ?? spec.encryptionSpec ?? null,
          modelSourceInfo: { sourceType, copy: true },
          // The original's version too (reference A.3: `…/models/{id}@{version}`).
          originalModelInfo: { model: `${sourceName}@${sourceVersion.versionId}` },
        },
      },
      aliases: [],
    });
    return context.ops.message(op);
  },
} satisfies Partial<ServiceHandlers<ModelServiceRequests>>;
