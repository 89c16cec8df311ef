// google.cloud.aiplatform.v1beta1.EndpointService, the part that makes models deployed: create, get,
// list, update, delete endpoints; deploy and undeploy models (long-running, with deployment stages).
import { parseLocationName } from '../../core/names';
import { AIPLATFORM } from '../../core/proto';
import { checkLabels, maskPaths, requireField, type ServiceHandlers } from './context';
import { alreadyExists, failedPrecondition, invalidArgument, notFound } from './errors';
import { compileFilter, labelField } from './filter';
import type { EndpointServiceRequests } from './messages';
import { canonicalProject, checkLocation, endpointKey, type EndpointRecord } from './store';
import { applyReadMask, paginate, parseName } from './util';
import { endpointDeployHandlers } from './endpoint-deploy';
import { checkTrafficSplit, endpointOf } from './endpoint-rules';

const ENDPOINT_ID = /^([1-9][0-9]{0,9}|[a-z]([a-z0-9-]{0,61}[a-z0-9])?)$/;

/** Create, get, list, update and delete. */
const endpointCrudHandlers = {
  CreateEndpoint(req, { store, ops, clock }) {
    const parent = parseName('parent', req.parent, parseLocationName);
    checkLocation(parent.location);
    if (!req.endpoint) throw invalidArgument('endpoint is required.', [{ field: 'endpoint', description: 'required' }]);
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
    if (!req.endpoint) throw invalidArgument('endpoint is required.', [{ field: 'endpoint', description: 'required' }]);
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
} satisfies Partial<ServiceHandlers<EndpointServiceRequests>>;

export function endpointServiceHandlers(): ServiceHandlers<EndpointServiceRequests> {
  return { ...endpointCrudHandlers, ...endpointDeployHandlers };
}
