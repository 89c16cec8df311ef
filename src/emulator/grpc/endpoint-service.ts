// google.cloud.aiplatform.v1beta1.EndpointService, the part that makes models deployed: create, get,
// list, update, delete endpoints; deploy and undeploy models (long-running, with deployment stages).
import { parseEndpointName, parseLocationName, parseModelVersionName } from '../../core/names';
import { AIPLATFORM, type ProtoObject } from '../../core/proto';
import { checkLabels, maskPaths, requireField, type ServiceHandlers } from './context';
import { alreadyExists, failedPrecondition, invalidArgument, notFound } from './errors';
import { compileFilter, labelField } from './filter';
import type { DeployedModelInput, EndpointServiceRequests } from './messages';
import { canonicalProject, checkLocation, endpointKey, modelKey, type EndpointRecord, type ModelStore } from './store';
import { applyReadMask, paginate, parseName, timestamp } from './util';

const ENDPOINT_ID = /^([1-9][0-9]{0,9}|[a-z]([a-z0-9-]{0,61}[a-z0-9])?)$/;

const DEPLOY_STAGES = [
  'STARTING_DEPLOYMENT',
  'PREPARING_MODEL',
  'CREATING_SERVING_CLUSTER',
  'ADDING_NODES_TO_CLUSTER',
  'GETTING_CONTAINER_IMAGE',
  'STARTING_MODEL_SERVER',
  'FINISHING_UP',
];

function stageAt(progress: number, done: boolean): string {
  if (done) return 'DEPLOYMENT_TERMINATED';
  return DEPLOY_STAGES[Math.min(DEPLOY_STAGES.length - 1, Math.floor(progress * DEPLOY_STAGES.length))];
}

function endpointOf(store: ModelStore, name: unknown, field: string): EndpointRecord {
  const n = parseName(field, name, parseEndpointName);
  checkLocation(n.location);
  return store.getEndpoint(n.project, n.location, n.endpoint);
}

/** Checks a traffic split: percentages 0..100 summing to 100 over the given deployed model ids. */
function checkTrafficSplit(split: Record<string, number>, ids: string[], field: string): Record<string, number> {
  const out: Record<string, number> = {};
  let sum = 0;
  for (const [id, pct] of Object.entries(split)) {
    if (!ids.includes(id))
      throw invalidArgument(`${field} names "${id}", which is not a deployed model of this endpoint.`, [
        { field, description: `unknown id ${id}` },
      ]);
    if (!Number.isInteger(pct) || pct < 0 || pct > 100)
      throw invalidArgument(`${field}["${id}"] must be an integer percentage 0-100.`, [
        { field, description: 'bad percentage' },
      ]);
    sum += pct;
    if (pct > 0) out[id] = pct;
  }
  if (ids.length > 0 && sum !== 100)
    throw invalidArgument(`${field} must add up to 100, got ${sum}.`, [{ field, description: 'does not sum to 100' }]);
  return out;
}

function checkResources(dm: DeployedModelInput, supported: string[]): ProtoObject {
  const dedicated = dm.dedicatedResources;
  const automatic = dm.automaticResources;
  if (dedicated) {
    if (!supported.includes('DEDICATED_RESOURCES')) {
      throw invalidArgument('This model does not support dedicated resources; use automatic_resources.', [
        { field: 'deployed_model.dedicated_resources', description: 'unsupported' },
      ]);
    }
    requireField(dedicated.machineSpec?.machineType, 'deployed_model.dedicated_resources.machine_spec.machine_type');
    const min = Number(dedicated.minReplicaCount ?? 0);
    const max = Number(dedicated.maxReplicaCount ?? 0);
    if (min < 1)
      throw invalidArgument('deployed_model.dedicated_resources.min_replica_count must be at least 1.', [
        { field: 'deployed_model.dedicated_resources.min_replica_count', description: '< 1' },
      ]);
    if (max !== 0 && max < min)
      throw invalidArgument('max_replica_count must not be smaller than min_replica_count.', [
        { field: 'deployed_model.dedicated_resources.max_replica_count', description: '< min' },
      ]);
    return { dedicatedResources: { ...dedicated, maxReplicaCount: max || min } };
  }
  if (automatic) {
    if (!supported.includes('AUTOMATIC_RESOURCES')) {
      throw invalidArgument(
        'This model does not support automatic resources; use dedicated_resources with a machine type.',
        [{ field: 'deployed_model.automatic_resources', description: 'unsupported' }],
      );
    }
    const min = Math.max(1, Number(automatic.minReplicaCount ?? 1));
    return {
      automaticResources: {
        minReplicaCount: min,
        maxReplicaCount: Math.max(min, Number(automatic.maxReplicaCount ?? 0)),
      },
    };
  }
  throw invalidArgument('deployed_model needs dedicated_resources or automatic_resources.', [
    { field: 'deployed_model', description: 'no prediction resources' },
  ]);
}

export function endpointServiceHandlers(): ServiceHandlers<EndpointServiceRequests> {
  return {
    CreateEndpoint(req, { store, ops, clock }) {
      const parent = parseName('parent', req.parent, parseLocationName);
      checkLocation(parent.location);
      if (!req.endpoint)
        throw invalidArgument('endpoint is required.', [{ field: 'endpoint', description: 'required' }]);
      const e = req.endpoint;
      requireField(e.displayName, 'endpoint.display_name');
      const labels = checkLabels(e.labels, 'endpoint.labels');
      let id: string;
      if (req.endpointId) {
        if (!ENDPOINT_ID.test(req.endpointId)) {
          throw invalidArgument(
            `endpoint_id "${req.endpointId}" is invalid: up to 10 digits not starting with 0, or up to 63 of [a-z0-9-] starting with a letter.`,
            [{ field: 'endpoint_id', description: 'invalid id' }],
          );
        }
        id = req.endpointId;
      } else {
        id = store.nextId('endpoint').slice(0, 10);
      }
      const key = endpointKey(parent.project, parent.location, id);
      if (store.endpoints.has(key) || store.reservedNames.has(key))
        throw alreadyExists(`Endpoint ${key} already exists.`);
      store.reservedNames.add(key);
      const op = ops.start({
        parent: key,
        method: 'CreateEndpoint',
        metadataType: `${AIPLATFORM}.CreateEndpointOperationMetadata`,
        responseType: `${AIPLATFORM}.Endpoint`,
        metadata: (progress, done) => ({
          deploymentStage: done ? 'DEPLOYMENT_TERMINATED' : progress < 0.5 ? 'STARTING_DEPLOYMENT' : 'FINISHING_UP',
        }),
        complete: () => {
          store.reservedNames.delete(key);
          const now = clock.now();
          const record: EndpointRecord = {
            project: canonicalProject(parent.project),
            location: parent.location,
            id,
            displayName: e.displayName,
            description: e.description ?? '',
            labels,
            createTime: now,
            updateTime: now,
            etagSeq: 1,
            deployedModels: [],
            trafficSplit: {},
          };
          store.endpoints.set(key, record);
          return store.endpointMessage(record);
        },
        release: () => store.reservedNames.delete(key),
      });
      return ops.message(op);
    },

    GetEndpoint(req, { store }) {
      return store.endpointMessage(endpointOf(store, req.name, 'name'));
    },

    ListEndpoints(req, { store }) {
      const parent = parseName('parent', req.parent, parseLocationName);
      checkLocation(parent.location);
      const prefix = `projects/${canonicalProject(parent.project)}/locations/${parent.location}/endpoints/`;
      const predicate = compileFilter<EndpointRecord>(
        req.filter,
        (e, path) => {
          if (path[0] === 'labels') return labelField(e.labels, path);
          if (path[0] === 'endpoint') return { kind: 'scalar', value: e.id };
          if (path[0] === 'display_name' || path[0] === 'displayName') return { kind: 'scalar', value: e.displayName };
          return undefined;
        },
        (path) =>
          path[0] === 'labels'
            ? path.length <= 2
            : path.length === 1 && ['endpoint', 'display_name', 'displayName'].includes(path[0]),
      );
      const endpoints = [...store.endpoints.entries()]
        .filter(([k]) => k.startsWith(prefix))
        .map(([, e]) => e)
        .filter(predicate)
        .sort((a, b) => b.createTime - a.createTime || (a.id < b.id ? -1 : 1));
      const { page, nextPageToken } = paginate(endpoints, req, ['ListEndpoints', prefix, req.filter ?? '']);
      return { endpoints: page.map((e) => applyReadMask(store.endpointMessage(e), req.readMask)), nextPageToken };
    },

    UpdateEndpoint(req, { store, clock }) {
      if (!req.endpoint)
        throw invalidArgument('endpoint is required.', [{ field: 'endpoint', description: 'required' }]);
      const endpoint = endpointOf(store, req.endpoint.name, 'endpoint.name');
      const paths = maskPaths(req.updateMask);
      if (paths.length === 0)
        throw invalidArgument('update_mask is required and must name at least one field.', [
          { field: 'update_mask', description: 'empty' },
        ]);
      const e = req.endpoint;
      for (const path of paths) {
        if (!['displayName', 'description', 'labels', 'trafficSplit'].includes(path)) {
          throw invalidArgument(
            `update_mask path "${path}" cannot be updated; updatable fields are display_name, description, labels and traffic_split.`,
            [{ field: 'update_mask', description: `not updatable: ${path}` }],
          );
        }
      }
      if (paths.includes('displayName')) {
        requireField(e.displayName, 'endpoint.display_name');
        endpoint.displayName = e.displayName;
      }
      if (paths.includes('description')) endpoint.description = e.description ?? '';
      if (paths.includes('labels')) endpoint.labels = checkLabels(e.labels, 'endpoint.labels');
      if (paths.includes('trafficSplit')) {
        endpoint.trafficSplit = checkTrafficSplit(
          e.trafficSplit ?? {},
          endpoint.deployedModels.map((d) => String(d.id)),
          'endpoint.traffic_split',
        );
      }
      endpoint.updateTime = clock.now();
      endpoint.etagSeq++;
      return store.endpointMessage(endpoint);
    },

    DeleteEndpoint(req, { store, ops }) {
      const endpoint = endpointOf(store, req.name, 'name');
      const key = endpointKey(endpoint.project, endpoint.location, endpoint.id);
      const refuse = (e: EndpointRecord): void => {
        const pending = [...store.pendingDeployments.values()].some((p) => p.endpoint === key);
        if (e.deployedModels.length || pending) {
          throw failedPrecondition(
            `Endpoint ${key} has deployed models; undeploy them before deleting the endpoint.`,
            'DEPLOYED_MODELS',
            key,
          );
        }
      };
      refuse(endpoint);
      return ops.startDelete(key, 'DeleteEndpoint', () => {
        const current = store.endpoints.get(key);
        if (!current) throw notFound(`Endpoint ${key} does not exist.`);
        refuse(current);
        store.endpoints.delete(key);
        store.policies.delete(key);
      });
    },

    DeployModel(req, { store, ops, clock }) {
      const endpoint = endpointOf(store, req.endpoint, 'endpoint');
      const endpointName = endpointKey(endpoint.project, endpoint.location, endpoint.id);
      if (!req.deployedModel)
        throw invalidArgument('deployed_model is required.', [{ field: 'deployed_model', description: 'required' }]);
      const dm = req.deployedModel;
      const n = parseName('deployed_model.model', dm.model, parseModelVersionName);
      if (canonicalProject(n.project) !== endpoint.project || n.location !== endpoint.location) {
        throw invalidArgument(
          `deployed_model.model must be in the endpoint's project and location (${endpoint.location}).`,
          [{ field: 'deployed_model.model', description: 'different project or location' }],
        );
      }
      const model = store.getModel(n.project, n.location, n.model);
      const version = store.resolveVersion(model, n.version, 'default');
      const resources = checkResources(
        dm,
        (version.spec.supportedDeploymentResourcesTypes as string[] | undefined) ?? ['DEDICATED_RESOURCES'],
      );
      const deployedModelId = store.nextId('deployed-model');
      const existingIds = endpoint.deployedModels.map((d) => String(d.id));
      let split: Record<string, number> | undefined;
      const requested = req.trafficSplit ?? {};
      if (Object.keys(requested).length) {
        const renamed: Record<string, number> = {};
        for (const [k, v] of Object.entries(requested)) renamed[k === '0' ? deployedModelId : k] = v;
        split = checkTrafficSplit(renamed, [...existingIds, deployedModelId], 'traffic_split');
      } else if (existingIds.length === 0) {
        split = { [deployedModelId]: 100 };
      }
      const modelName = modelKey(model.project, model.location, model.id);
      const pendingKey = `${endpointName}#${deployedModelId}`;
      store.pendingDeployments.set(pendingKey, {
        model: modelName,
        versionId: version.versionId,
        endpoint: endpointName,
      });
      const now = clock.now();
      const deployed: ProtoObject = {
        ...resources,
        id: deployedModelId,
        model: modelName,
        modelVersionId: version.versionId,
        displayName: dm.displayName || model.displayName,
        createTime: timestamp(now),
        disableExplanations: !!dm.disableExplanations,
        enableAccessLogging: !!dm.enableAccessLogging,
        enableContainerLogging: !!dm.enableContainerLogging,
        serviceAccount: dm.serviceAccount ?? '',
      };
      const op = ops.start({
        parent: endpointName,
        method: 'DeployModel',
        metadata: (progress, done) => ({ deploymentStage: stageAt(progress, done) }),
        complete: () => {
          store.pendingDeployments.delete(pendingKey);
          const current = store.endpoints.get(endpointName);
          if (!current) throw notFound(`Endpoint ${endpointName} was deleted during the deployment.`);
          if (!store.models.get(modelName)?.versions.has(version.versionId))
            throw notFound(`Model version ${modelName}@${version.versionId} was deleted during the deployment.`);
          current.deployedModels.push(deployed);
          if (split) current.trafficSplit = split;
          current.updateTime = clock.now();
          current.etagSeq++;
          return { deployedModel: deployed };
        },
        release: () => store.pendingDeployments.delete(pendingKey),
      });
      return ops.message(op);
    },

    UndeployModel(req, { store, ops, clock }) {
      const endpoint = endpointOf(store, req.endpoint, 'endpoint');
      const endpointName = endpointKey(endpoint.project, endpoint.location, endpoint.id);
      requireField(req.deployedModelId, 'deployed_model_id');
      const id = String(req.deployedModelId);
      if (!endpoint.deployedModels.some((d) => String(d.id) === id)) {
        throw notFound(
          `Deployed model ${id} does not exist on ${endpointName}.`,
          'aiplatform.googleapis.com/DeployedModel',
          id,
        );
      }
      const remaining = endpoint.deployedModels.map((d) => String(d.id)).filter((d) => d !== id);
      const requested = req.trafficSplit ?? {};
      let split: Record<string, number>;
      if (Object.keys(requested).length) {
        split = checkTrafficSplit(requested, remaining, 'traffic_split');
      } else if ((endpoint.trafficSplit[id] ?? 0) > 0 && remaining.length > 0) {
        throw failedPrecondition(
          `Deployed model ${id} receives ${endpoint.trafficSplit[id]}% of the traffic of ${endpointName}; give traffic_split for the remaining deployed models.`,
          'TRAFFIC_SPLIT',
          endpointName,
        );
      } else {
        split = { ...endpoint.trafficSplit };
        delete split[id];
      }
      const op = ops.start({
        parent: endpointName,
        method: 'UndeployModel',
        complete: () => {
          const current = store.endpoints.get(endpointName);
          if (!current) throw notFound(`Endpoint ${endpointName} does not exist.`);
          if (!current.deployedModels.some((d) => String(d.id) === id))
            throw notFound(`Deployed model ${id} does not exist on ${endpointName}.`);
          current.deployedModels = current.deployedModels.filter((d) => String(d.id) !== id);
          current.trafficSplit = split;
          current.updateTime = clock.now();
          current.etagSeq++;
          return {};
        },
      });
      return ops.message(op);
    },
  };
}

/** A deployed model's reference, for a model message; used by the demo seed too. */
export function deployedModelMessage(
  id: string,
  model: string,
  versionId: string,
  displayName: string,
  createTime: number,
  machineType = 'n1-standard-4',
): ProtoObject {
  return {
    dedicatedResources: { machineSpec: { machineType }, minReplicaCount: 1, maxReplicaCount: 2 },
    id,
    model,
    modelVersionId: versionId,
    displayName,
    createTime: timestamp(createTime),
  };
}
