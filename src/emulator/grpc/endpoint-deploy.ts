// EndpointService DeployModel and UndeployModel: long-running, with the deployment stages the real
// service reports, and the resources and traffic split a deployment must name.
import { parseModelVersionName } from '../../core/names';
import { type ProtoObject } from '../../core/proto';
import { requireField, type ServiceHandlers } from './context';
import { failedPrecondition, invalidArgument, notFound } from './errors';
import type { DeployedModelInput, EndpointServiceRequests } from './messages';
import { canonicalProject, endpointKey, modelKey } from './store';
import { parseName, timestamp } from './util';
import { checkTrafficSplit, endpointOf } from './endpoint-rules';

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

export const endpointDeployHandlers = {
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
} satisfies Partial<ServiceHandlers<EndpointServiceRequests>>;

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
