// Vertex AI Model Registry client (ModelService v1beta1 plus the Operations, Locations, IAM and
// Endpoint calls the product needs) over @grpc/grpc-js. Each call goes to the regional endpoint of
// the location in its resource name, carries a bearer token and the routing header the official
// clients send, has a deadline, and is retried only when repeating it is safe.
import { isIPv4, isIPv6 } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import type { TokenSource } from '../google/credentials';
import { chooseEndpoint, MutualTlsChannelError, type EndpointChoice, type EndpointOptions } from '../google/endpoints';
import { CancelledError, GoogleApiError } from '../google/errors';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from '../google/retry';
import { checkLocationId } from '../names';
import { paginate, type Page } from '../paging';
import { decodeMessage, encodeMessage } from './wire';
import { ModelOperation, type OperationKind } from './operation';
import type {
  Checkpoint,
  CopyModelResponse,
  DeployedModel,
  Empty,
  Endpoint,
  EvaluatedAnnotation,
  ExportModelResponse,
  Location,
  Model,
  ModelEvaluation,
  ModelEvaluationSlice,
  ModelOperationMetadata,
  Operation,
  OutputConfig,
  Policy,
  UploadModelResponse,
} from './types';

const V1BETA1 = 'google.cloud.aiplatform.v1beta1';
const MODEL_SERVICE = `${V1BETA1}.ModelService`;
const ENDPOINT_SERVICE = `${V1BETA1}.EndpointService`;
const OPERATIONS = 'google.longrunning.Operations';
const LOCATIONS = 'google.cloud.location.Locations';
const IAM = 'google.iam.v1.IAMPolicy';

export const CLIENT_VERSION = '0.1.0';

/** A request that mixes a request message with flattened fields, or names fields a method does not flatten. */
export class RequestShapeError extends Error {
  override readonly name = 'RequestShapeError';
}

export interface ModelRegistryClientOptions {
  tokenSource: TokenSource;
  /** Endpoint rules (explicit endpoint, universe domain, certificate sources, env); the location comes from each request. */
  endpoint?: Omit<EndpointOptions, 'location'>;
  retry?: Partial<RetryPolicy>;
  /** Per-call deadline in milliseconds (default 60 s). */
  timeoutMs?: number;
  /** Receives one line per retry and per failed call; never receives tokens. */
  log?: (message: string) => void;
  /** Called once, after the first call settles (the extension then writes the client bundle's code cache). */
  afterFirstCall?: () => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's per-call deadline. */
  timeoutMs?: number;
  /** Overrides the client's retry policy for this call. */
  retry?: Partial<RetryPolicy>;
}

/** Either the request message or the flattened fields of the method signature, never both. */
export type RequestOrFields<Req, Fields> = { request: Req } | Fields;

interface MethodSpec {
  service: string;
  method: string;
  requestType: string;
  responseType: string;
  /** Request fields whose values go into x-goog-request-params (dotted paths). */
  routing: string[];
  /** Safe to repeat after UNAVAILABLE / DEADLINE_EXCEEDED. */
  idempotent: boolean;
}

/**
 * grpc-js words a deadline with its internal timings; people need the limit, and for a call that
 * changes something, that the change may have happened anyway.
 */
function describeCallFailure(err: GoogleApiError, s: MethodSpec, timeoutMs: number): GoogleApiError {
  let message = err.message;
  if (err.status === 'DEADLINE_EXCEEDED')
    message = `${s.method} took longer than ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
  if (!s.idempotent && (err.status === 'DEADLINE_EXCEEDED' || err.status === 'UNAVAILABLE')) {
    message += '; the change may or may not have been applied, so refresh to check before trying again';
  }
  return message === err.message ? err : new GoogleApiError(err.status, message, err.options);
}

function spec(
  service: string,
  method: string,
  requestType: string,
  responseType: string,
  routing: string[],
  idempotent: boolean,
): MethodSpec {
  return { service, method, requestType, responseType, routing, idempotent };
}

const M = {
  uploadModel: spec(
    MODEL_SERVICE,
    'UploadModel',
    `${V1BETA1}.UploadModelRequest`,
    'google.longrunning.Operation',
    ['parent'],
    false,
  ),
  getModel: spec(MODEL_SERVICE, 'GetModel', `${V1BETA1}.GetModelRequest`, `${V1BETA1}.Model`, ['name'], true),
  listModels: spec(
    MODEL_SERVICE,
    'ListModels',
    `${V1BETA1}.ListModelsRequest`,
    `${V1BETA1}.ListModelsResponse`,
    ['parent'],
    true,
  ),
  listModelVersions: spec(
    MODEL_SERVICE,
    'ListModelVersions',
    `${V1BETA1}.ListModelVersionsRequest`,
    `${V1BETA1}.ListModelVersionsResponse`,
    ['name'],
    true,
  ),
  listModelVersionCheckpoints: spec(
    MODEL_SERVICE,
    'ListModelVersionCheckpoints',
    `${V1BETA1}.ListModelVersionCheckpointsRequest`,
    `${V1BETA1}.ListModelVersionCheckpointsResponse`,
    ['name'],
    true,
  ),
  updateModel: spec(
    MODEL_SERVICE,
    'UpdateModel',
    `${V1BETA1}.UpdateModelRequest`,
    `${V1BETA1}.Model`,
    ['model.name'],
    false,
  ),
  deleteModel: spec(
    MODEL_SERVICE,
    'DeleteModel',
    `${V1BETA1}.DeleteModelRequest`,
    'google.longrunning.Operation',
    ['name'],
    false,
  ),
  deleteModelVersion: spec(
    MODEL_SERVICE,
    'DeleteModelVersion',
    `${V1BETA1}.DeleteModelVersionRequest`,
    'google.longrunning.Operation',
    ['name'],
    false,
  ),
  mergeVersionAliases: spec(
    MODEL_SERVICE,
    'MergeVersionAliases',
    `${V1BETA1}.MergeVersionAliasesRequest`,
    `${V1BETA1}.Model`,
    ['name'],
    false,
  ),
  exportModel: spec(
    MODEL_SERVICE,
    'ExportModel',
    `${V1BETA1}.ExportModelRequest`,
    'google.longrunning.Operation',
    ['name'],
    false,
  ),
  copyModel: spec(
    MODEL_SERVICE,
    'CopyModel',
    `${V1BETA1}.CopyModelRequest`,
    'google.longrunning.Operation',
    ['parent'],
    false,
  ),
  importModelEvaluation: spec(
    MODEL_SERVICE,
    'ImportModelEvaluation',
    `${V1BETA1}.ImportModelEvaluationRequest`,
    `${V1BETA1}.ModelEvaluation`,
    ['parent'],
    false,
  ),
  batchImportModelEvaluationSlices: spec(
    MODEL_SERVICE,
    'BatchImportModelEvaluationSlices',
    `${V1BETA1}.BatchImportModelEvaluationSlicesRequest`,
    `${V1BETA1}.BatchImportModelEvaluationSlicesResponse`,
    ['parent'],
    false,
  ),
  batchImportEvaluatedAnnotations: spec(
    MODEL_SERVICE,
    'BatchImportEvaluatedAnnotations',
    `${V1BETA1}.BatchImportEvaluatedAnnotationsRequest`,
    `${V1BETA1}.BatchImportEvaluatedAnnotationsResponse`,
    ['parent'],
    false,
  ),
  getModelEvaluation: spec(
    MODEL_SERVICE,
    'GetModelEvaluation',
    `${V1BETA1}.GetModelEvaluationRequest`,
    `${V1BETA1}.ModelEvaluation`,
    ['name'],
    true,
  ),
  listModelEvaluations: spec(
    MODEL_SERVICE,
    'ListModelEvaluations',
    `${V1BETA1}.ListModelEvaluationsRequest`,
    `${V1BETA1}.ListModelEvaluationsResponse`,
    ['parent'],
    true,
  ),
  getModelEvaluationSlice: spec(
    MODEL_SERVICE,
    'GetModelEvaluationSlice',
    `${V1BETA1}.GetModelEvaluationSliceRequest`,
    `${V1BETA1}.ModelEvaluationSlice`,
    ['name'],
    true,
  ),
  listModelEvaluationSlices: spec(
    MODEL_SERVICE,
    'ListModelEvaluationSlices',
    `${V1BETA1}.ListModelEvaluationSlicesRequest`,
    `${V1BETA1}.ListModelEvaluationSlicesResponse`,
    ['parent'],
    true,
  ),
  getOperation: spec(
    OPERATIONS,
    'GetOperation',
    'google.longrunning.GetOperationRequest',
    'google.longrunning.Operation',
    ['name'],
    true,
  ),
  listOperations: spec(
    OPERATIONS,
    'ListOperations',
    'google.longrunning.ListOperationsRequest',
    'google.longrunning.ListOperationsResponse',
    ['name'],
    true,
  ),
  cancelOperation: spec(
    OPERATIONS,
    'CancelOperation',
    'google.longrunning.CancelOperationRequest',
    'google.protobuf.Empty',
    ['name'],
    true,
  ),
  deleteOperation: spec(
    OPERATIONS,
    'DeleteOperation',
    'google.longrunning.DeleteOperationRequest',
    'google.protobuf.Empty',
    ['name'],
    true,
  ),
  waitOperation: spec(
    OPERATIONS,
    'WaitOperation',
    'google.longrunning.WaitOperationRequest',
    'google.longrunning.Operation',
    ['name'],
    true,
  ),
  listLocations: spec(
    LOCATIONS,
    'ListLocations',
    'google.cloud.location.ListLocationsRequest',
    'google.cloud.location.ListLocationsResponse',
    ['name'],
    true,
  ),
  getLocation: spec(
    LOCATIONS,
    'GetLocation',
    'google.cloud.location.GetLocationRequest',
    'google.cloud.location.Location',
    ['name'],
    true,
  ),
  getIamPolicy: spec(
    IAM,
    'GetIamPolicy',
    'google.iam.v1.GetIamPolicyRequest',
    'google.iam.v1.Policy',
    ['resource'],
    true,
  ),
  setIamPolicy: spec(
    IAM,
    'SetIamPolicy',
    'google.iam.v1.SetIamPolicyRequest',
    'google.iam.v1.Policy',
    ['resource'],
    false,
  ),
  testIamPermissions: spec(
    IAM,
    'TestIamPermissions',
    'google.iam.v1.TestIamPermissionsRequest',
    'google.iam.v1.TestIamPermissionsResponse',
    ['resource'],
    true,
  ),
  createEndpoint: spec(
    ENDPOINT_SERVICE,
    'CreateEndpoint',
    `${V1BETA1}.CreateEndpointRequest`,
    'google.longrunning.Operation',
    ['parent'],
    false,
  ),
  getEndpoint: spec(
    ENDPOINT_SERVICE,
    'GetEndpoint',
    `${V1BETA1}.GetEndpointRequest`,
    `${V1BETA1}.Endpoint`,
    ['name'],
    true,
  ),
  listEndpoints: spec(
    ENDPOINT_SERVICE,
    'ListEndpoints',
    `${V1BETA1}.ListEndpointsRequest`,
    `${V1BETA1}.ListEndpointsResponse`,
    ['parent'],
    true,
  ),
  deleteEndpoint: spec(
    ENDPOINT_SERVICE,
    'DeleteEndpoint',
    `${V1BETA1}.DeleteEndpointRequest`,
    'google.longrunning.Operation',
    ['name'],
    false,
  ),
  deployModel: spec(
    ENDPOINT_SERVICE,
    'DeployModel',
    `${V1BETA1}.DeployModelRequest`,
    'google.longrunning.Operation',
    ['endpoint'],
    false,
  ),
  undeployModel: spec(
    ENDPOINT_SERVICE,
    'UndeployModel',
    `${V1BETA1}.UndeployModelRequest`,
    'google.longrunning.Operation',
    ['endpoint'],
    false,
  ),
} as const;

/**
 * The location segment of a resource name, or undefined for project-level names. The segment picks
 * the regional host, and names come from responses too (operations, copies, listings): one that is
 * not a location id is refused here, before a host is built from it.
 */
export function locationOfName(name: string | undefined): string | undefined {
  const m = name?.match(/^projects\/[^/]+\/locations\/([^/]*)/);
  if (!m) return undefined;
  const segment = m[1];
  // "projects/p/locations/l/models/m@1": a version or alias follows the model, never the location.
  return checkLocationId(segment, name);
}

function getPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const key of path.split('.')) cur = (cur as Record<string, unknown> | undefined)?.[key];
  return cur;
}

/** x-goog-request-params exactly as google-gax builds it: key=urlencoded(value) joined by "&". */
export function routingHeader(request: object, fields: readonly string[]): string {
  return fields
    .map((f) => [f, getPath(request, f)] as const)
    .filter(([, v]) => typeof v === 'string' && v !== '')
    .map(([f, v]) => `${f}=${encodeURIComponent(v as string)}`)
    .join('&');
}

/**
 * Accepts either `{ request }` or the flattened fields, never both, as the official clients do.
 * Flattened fields outside the method signature are refused too, so a typo is not silently dropped.
 */
export function resolveRequest<Req extends object>(method: string, input: object, flattened: readonly string[]): Req {
  const keys = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
  if (keys.includes('request')) {
    const others = keys.filter((k) => k !== 'request');
    if (others.length) {
      throw new RequestShapeError(
        `${method}: pass either a request message or the flattened fields (${others.join(', ')}), not both.`,
      );
    }
    const request = (input as { request: unknown }).request;
    if (request === null || typeof request !== 'object')
      throw new RequestShapeError(`${method}: the request must be an object.`);
    return request as Req;
  }
  const unknown = keys.filter((k) => !flattened.includes(k));
  if (unknown.length) {
    throw new RequestShapeError(
      `${method}: ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not a flattened field (${flattened.join(', ')}); pass a request message instead.`,
    );
  }
  return input as Req;
}

const grpcMethodPath = (s: MethodSpec): string => `/${s.service}/${s.method}`;

export class ModelRegistryClient {
  private readonly channels = new Map<string, Promise<{ client: grpc.Client; choice: EndpointChoice }>>();
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private closed = false;
  private firstCallSeen = false;

  constructor(private readonly options: ModelRegistryClientOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** The endpoint a location's calls go to (undefined location: project-level calls). */
  async endpointFor(location?: string): Promise<EndpointChoice> {
    return (await this.channelFor(location)).choice;
  }

  private channelFor(location: string | undefined): Promise<{ client: grpc.Client; choice: EndpointChoice }> {
    if (this.closed) return Promise.reject(new Error('The Model Registry client is closed.'));
    const key = this.options.endpoint?.apiEndpoint ? '*' : (location ?? '');
    let entry = this.channels.get(key);
    if (!entry) {
      entry = (async () => {
        const choice = await chooseEndpoint({ ...this.options.endpoint, ...(location ? { location } : {}) });
        const credentials = channelCredentials(choice);
        return {
          client: withGrpcProxyVariables(
            () =>
              new grpc.Client(channelTarget(choice), credentials, {
                'grpc.primary_user_agent': `cloudbench/${CLIENT_VERSION}`,
                // The loopback sandbox is never reached through a proxy (the proxy's loopback is not ours).
                ...(choice.plaintext ? { 'grpc.enable_http_proxy': 0 } : {}),
              }),
          ),
          choice,
        };
      })();
      // A failed channel must not poison later calls (the user may fix the setting).
      entry.catch(() => this.channels.delete(key));
      this.channels.set(key, entry);
    }
    return entry;
  }

  close(): void {
    this.closed = true;
    for (const entry of this.channels.values())
      entry.then(
        ({ client }) => client.close(),
        () => undefined,
      );
    this.channels.clear();
  }

  private call<Res>(s: MethodSpec, request: object, opts: CallOptions = {}): Promise<Res> {
    const result = this.callOnce<Res>(s, request, opts);
    const after = this.options.afterFirstCall;
    if (after && !this.firstCallSeen) {
      this.firstCallSeen = true;
      const notify = (): void => {
        try {
          after();
        } catch {
          // The hook is bookkeeping; a call's outcome never depends on it.
        }
      };
      result.then(notify, notify);
    }
    return result;
  }

  private async callOnce<Res>(s: MethodSpec, request: object, opts: CallOptions = {}): Promise<Res> {
    const routingName = s.routing.map((f) => getPath(request, f)).find((v): v is string => typeof v === 'string');
    const { client, choice } = await this.channelFor(locationOfName(routingName));
    // What the token policy checks: the host and port the channel really connects to.
    const destination = `${choice.plaintext ? 'http' : 'https'}://${choice.address}`;
    const policy = { ...this.retry, ...opts.retry };
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const bytes = encodeMessage(s.requestType, request);
    const attempt = async (): Promise<Res> => {
      const token = await this.options.tokenSource.getAccessToken(destination, opts.signal);
      const metadata = new grpc.Metadata();
      metadata.set('authorization', `Bearer ${token}`);
      const params = routingHeader(request, s.routing);
      if (params) metadata.set('x-goog-request-params', params);
      metadata.set(
        'x-goog-api-client',
        `gl-node/${process.versions.node} grpc/${grpcVersion()} cloudbench/${CLIENT_VERSION}`,
      );
      // The quota project (x-goog-user-project) and any other non-secret headers of the credentials.
      for (const [name, value] of Object.entries((await this.options.tokenSource.requestHeaders?.(opts.signal)) ?? {}))
        metadata.set(name, value);
      return new Promise<Res>((resolve, reject) => {
        if (opts.signal?.aborted) return reject(new CancelledError());
        let onAbort: (() => void) | undefined;
        const call = client.makeUnaryRequest<Buffer, Res>(
          grpcMethodPath(s),
          (b) => b,
          (buf) => decodeMessage<Res>(s.responseType, buf),
          bytes,
          metadata,
          { deadline: Date.now() + timeoutMs },
          (err, value) => {
            if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
            if (err) {
              if (opts.signal?.aborted) return reject(new CancelledError());
              return reject(describeCallFailure(GoogleApiError.fromGrpc(err, s.method), s, timeoutMs));
            }
            resolve(value as Res);
          },
        );
        if (opts.signal) {
          onAbort = () => call.cancel();
          opts.signal.addEventListener('abort', onAbort, { once: true });
        }
      });
    };
    if (!s.idempotent) return attempt();
    return withRetry(attempt, policy, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      onRetry: (err, n, delay) =>
        this.options.log?.(`${s.method}: ${(err as Error).message}; retry ${n} in ${delay} ms`),
    });
  }

  private lro<Res, Meta>(
    kind: OperationKind,
    s: MethodSpec,
    request: object,
    opts?: CallOptions,
  ): Promise<ModelOperation<Res, Meta>> {
    return this.call<Operation>(s, request, opts).then((op) => new ModelOperation<Res, Meta>(this, kind, op));
  }

  private pages<Item>(
    s: MethodSpec,
    request: Record<string, unknown>,
    itemsField: string,
    opts: CallOptions = {},
  ): AsyncGenerator<Item, void, undefined> {
    return paginate<Item>(
      (pageToken, signal) =>
        this.page<Item>(s, { ...request, ...(pageToken ? { pageToken } : {}) }, itemsField, {
          ...opts,
          ...(signal ? { signal } : {}),
        }),
      opts.signal,
    );
  }

  private async page<Item>(
    s: MethodSpec,
    request: object,
    itemsField: string,
    opts?: CallOptions,
  ): Promise<Page<Item>> {
    const res = await this.call<Record<string, unknown>>(s, request, opts);
    return {
      items: (res[itemsField] as Item[] | undefined) ?? [],
      nextPageToken: (res['nextPageToken'] as string | undefined) || undefined,
    };
  }

  // ---- ModelService -------------------------------------------------------------------------

  uploadModel(
    input: RequestOrFields<UploadModelRequest, { parent: string; model: Model }>,
    opts?: CallOptions,
  ): Promise<ModelOperation<UploadModelResponse, ModelOperationMetadata>> {
    return this.lro('upload', M.uploadModel, resolveRequest('uploadModel', input, ['parent', 'model']), opts);
  }

  getModel(input: RequestOrFields<{ name: string }, { name: string }>, opts?: CallOptions): Promise<Model> {
    return this.call(M.getModel, resolveRequest('getModel', input, ['name']), opts);
  }

  listModels(
    input: RequestOrFields<ListModelsRequest, { parent: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<Model, void, undefined> {
    return this.pages(M.listModels, resolveRequest('listModels', input, ['parent']), 'models', opts);
  }

  /** One page of models, for trees that show a "Load more" node. */
  listModelsPage(request: ListModelsRequest, opts?: CallOptions): Promise<Page<Model>> {
    return this.page(M.listModels, request, 'models', opts);
  }

  listModelVersions(
    input: RequestOrFields<ListModelVersionsRequest, { name: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<Model, void, undefined> {
    return this.pages(M.listModelVersions, resolveRequest('listModelVersions', input, ['name']), 'models', opts);
  }

  listModelVersionsPage(request: ListModelVersionsRequest, opts?: CallOptions): Promise<Page<Model>> {
    return this.page(M.listModelVersions, request, 'models', opts);
  }

  listModelVersionCheckpoints(
    input: RequestOrFields<PagedNameRequest, { name: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<Checkpoint, void, undefined> {
    return this.pages(
      M.listModelVersionCheckpoints,
      resolveRequest('listModelVersionCheckpoints', input, ['name']),
      'checkpoints',
      opts,
    );
  }

  listModelVersionCheckpointsPage(request: PagedNameRequest, opts?: CallOptions): Promise<Page<Checkpoint>> {
    return this.page(M.listModelVersionCheckpoints, request, 'checkpoints', opts);
  }

  updateModel(
    input: RequestOrFields<
      { model: Model; updateMask: { paths: string[] } },
      { model: Model; updateMask: { paths: string[] } }
    >,
    opts?: CallOptions,
  ): Promise<Model> {
    return this.call(M.updateModel, resolveRequest('updateModel', input, ['model', 'updateMask']), opts);
  }

  deleteModel(
    input: RequestOrFields<{ name: string }, { name: string }>,
    opts?: CallOptions,
  ): Promise<ModelOperation<Empty, ModelOperationMetadata>> {
    return this.lro('delete', M.deleteModel, resolveRequest('deleteModel', input, ['name']), opts);
  }

  deleteModelVersion(
    input: RequestOrFields<{ name: string }, { name: string }>,
    opts?: CallOptions,
  ): Promise<ModelOperation<Empty, ModelOperationMetadata>> {
    const request = resolveRequest<{ name: string }>('deleteModelVersion', input, ['name']);
    if (typeof request.name === 'string' && !request.name.includes('@')) {
      throw new RequestShapeError(
        `deleteModelVersion: "${request.name}" names no version; add @<version id> (DeleteModel deletes a whole model).`,
      );
    }
    return this.lro('deleteVersion', M.deleteModelVersion, request, opts);
  }

  mergeVersionAliases(
    input: RequestOrFields<{ name: string; versionAliases: string[] }, { name: string; versionAliases: string[] }>,
    opts?: CallOptions,
  ): Promise<Model> {
    return this.call(
      M.mergeVersionAliases,
      resolveRequest('mergeVersionAliases', input, ['name', 'versionAliases']),
      opts,
    );
  }

  exportModel(
    input: RequestOrFields<{ name: string; outputConfig: OutputConfig }, { name: string; outputConfig: OutputConfig }>,
    opts?: CallOptions,
  ): Promise<ModelOperation<ExportModelResponse, ModelOperationMetadata>> {
    return this.lro('export', M.exportModel, resolveRequest('exportModel', input, ['name', 'outputConfig']), opts);
  }

  copyModel(
    input: RequestOrFields<CopyModelRequest, { parent: string; sourceModel: string }>,
    opts?: CallOptions,
  ): Promise<ModelOperation<CopyModelResponse, ModelOperationMetadata>> {
    return this.lro('copy', M.copyModel, resolveRequest('copyModel', input, ['parent', 'sourceModel']), opts);
  }

  importModelEvaluation(
    input: RequestOrFields<
      { parent: string; modelEvaluation: ModelEvaluation },
      { parent: string; modelEvaluation: ModelEvaluation }
    >,
    opts?: CallOptions,
  ): Promise<ModelEvaluation> {
    return this.call(
      M.importModelEvaluation,
      resolveRequest('importModelEvaluation', input, ['parent', 'modelEvaluation']),
      opts,
    );
  }

  batchImportModelEvaluationSlices(
    input: RequestOrFields<
      { parent: string; modelEvaluationSlices: ModelEvaluationSlice[] },
      { parent: string; modelEvaluationSlices: ModelEvaluationSlice[] }
    >,
    opts?: CallOptions,
  ): Promise<{ importedModelEvaluationSlices: string[] }> {
    return this.call(
      M.batchImportModelEvaluationSlices,
      resolveRequest('batchImportModelEvaluationSlices', input, ['parent', 'modelEvaluationSlices']),
      opts,
    );
  }

  batchImportEvaluatedAnnotations(
    input: RequestOrFields<
      { parent: string; evaluatedAnnotations: EvaluatedAnnotation[] },
      { parent: string; evaluatedAnnotations: EvaluatedAnnotation[] }
    >,
    opts?: CallOptions,
  ): Promise<{ importedEvaluatedAnnotationsCount?: number }> {
    return this.call(
      M.batchImportEvaluatedAnnotations,
      resolveRequest('batchImportEvaluatedAnnotations', input, ['parent', 'evaluatedAnnotations']),
      opts,
    );
  }

  getModelEvaluation(
    input: RequestOrFields<{ name: string }, { name: string }>,
    opts?: CallOptions,
  ): Promise<ModelEvaluation> {
    return this.call(M.getModelEvaluation, resolveRequest('getModelEvaluation', input, ['name']), opts);
  }

  listModelEvaluations(
    input: RequestOrFields<PagedParentRequest, { parent: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<ModelEvaluation, void, undefined> {
    return this.pages(
      M.listModelEvaluations,
      resolveRequest('listModelEvaluations', input, ['parent']),
      'modelEvaluations',
      opts,
    );
  }

  listModelEvaluationsPage(request: PagedParentRequest, opts?: CallOptions): Promise<Page<ModelEvaluation>> {
    return this.page(M.listModelEvaluations, request, 'modelEvaluations', opts);
  }

  getModelEvaluationSlice(
    input: RequestOrFields<{ name: string }, { name: string }>,
    opts?: CallOptions,
  ): Promise<ModelEvaluationSlice> {
    return this.call(M.getModelEvaluationSlice, resolveRequest('getModelEvaluationSlice', input, ['name']), opts);
  }

  listModelEvaluationSlices(
    input: RequestOrFields<PagedParentRequest, { parent: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<ModelEvaluationSlice, void, undefined> {
    return this.pages(
      M.listModelEvaluationSlices,
      resolveRequest('listModelEvaluationSlices', input, ['parent']),
      'modelEvaluationSlices',
      opts,
    );
  }

  listModelEvaluationSlicesPage(request: PagedParentRequest, opts?: CallOptions): Promise<Page<ModelEvaluationSlice>> {
    return this.page(M.listModelEvaluationSlices, request, 'modelEvaluationSlices', opts);
  }

  // ---- Operations ---------------------------------------------------------------------------

  getOperation(name: string, opts?: CallOptions): Promise<Operation> {
    return this.call(M.getOperation, { name }, opts);
  }

  listOperations(
    request: { name: string; filter?: string; pageSize?: number },
    opts?: CallOptions,
  ): AsyncGenerator<Operation, void, undefined> {
    return this.pages(M.listOperations, request, 'operations', opts);
  }

  /** Asks the server to cancel; UNIMPLEMENTED becomes a GoogleApiError saying the server cannot cancel. */
  async cancelOperation(name: string, opts?: CallOptions): Promise<void> {
    try {
      await this.call(M.cancelOperation, { name }, opts);
    } catch (err) {
      if (err instanceof GoogleApiError && err.status === 'UNIMPLEMENTED') {
        throw new GoogleApiError('UNIMPLEMENTED', 'The server cannot cancel this operation.', {
          method: 'CancelOperation',
        });
      }
      throw err;
    }
  }

  /** Tells the server the result is no longer wanted; this does not cancel the operation. */
  async deleteOperation(name: string, opts?: CallOptions): Promise<void> {
    try {
      await this.call(M.deleteOperation, { name }, opts);
    } catch (err) {
      if (err instanceof GoogleApiError && err.status === 'UNIMPLEMENTED') {
        throw new GoogleApiError(
          'UNIMPLEMENTED',
          'The server cannot forget this operation; it is still tracked there.',
          { method: 'DeleteOperation' },
        );
      }
      throw err;
    }
  }

  waitOperation(name: string, timeoutSeconds: number, opts?: CallOptions): Promise<Operation> {
    return this.call(M.waitOperation, { name, timeout: { seconds: String(Math.floor(timeoutSeconds)) } }, opts);
  }

  /** Re-attaches to an operation by name, e.g. one started in an earlier session. */
  async resumeOperation<Res, Meta>(
    kind: OperationKind,
    name: string,
    opts?: CallOptions,
  ): Promise<ModelOperation<Res, Meta>> {
    return new ModelOperation<Res, Meta>(this, kind, await this.getOperation(name, opts));
  }

  // ---- Locations, IAM -----------------------------------------------------------------------

  listLocations(project: string, opts?: CallOptions): AsyncGenerator<Location, void, undefined> {
    return this.pages(M.listLocations, { name: `projects/${project}` }, 'locations', opts);
  }

  getLocation(name: string, opts?: CallOptions): Promise<Location> {
    return this.call(M.getLocation, { name }, opts);
  }

  getIamPolicy(resource: string, opts?: CallOptions & { requestedPolicyVersion?: number }): Promise<Policy> {
    const request = {
      resource,
      ...(opts?.requestedPolicyVersion ? { options: { requestedPolicyVersion: opts.requestedPolicyVersion } } : {}),
    };
    return this.call(M.getIamPolicy, request, opts);
  }

  setIamPolicy(resource: string, policy: Policy, opts?: CallOptions): Promise<Policy> {
    return this.call(M.setIamPolicy, { resource, policy }, opts);
  }

  testIamPermissions(resource: string, permissions: string[], opts?: CallOptions): Promise<{ permissions?: string[] }> {
    return this.call(M.testIamPermissions, { resource, permissions }, opts);
  }

  // ---- Endpoints (deployments block deletes) ------------------------------------------------

  listEndpoints(parent: string, opts?: CallOptions): AsyncGenerator<Endpoint, void, undefined> {
    return this.pages(M.listEndpoints, { parent }, 'endpoints', opts);
  }

  getEndpoint(name: string, opts?: CallOptions): Promise<Endpoint> {
    return this.call(M.getEndpoint, { name }, opts);
  }

  createEndpoint(
    parent: string,
    endpoint: Endpoint,
    opts?: CallOptions & { endpointId?: string },
  ): Promise<ModelOperation<Endpoint, unknown>> {
    return this.lro(
      'createEndpoint',
      M.createEndpoint,
      { parent, endpoint, ...(opts?.endpointId ? { endpointId: opts.endpointId } : {}) },
      opts,
    );
  }

  deployModel(
    endpoint: string,
    deployedModel: Record<string, unknown>,
    opts?: CallOptions,
  ): Promise<ModelOperation<{ deployedModel?: { id?: string } }, unknown>> {
    return this.lro('deploy', M.deployModel, { endpoint, deployedModel }, opts);
  }

  undeployModel(
    endpoint: string,
    deployedModelId: string,
    opts?: CallOptions,
  ): Promise<ModelOperation<Empty, unknown>> {
    return this.lro('undeploy', M.undeployModel, { endpoint, deployedModelId }, opts);
  }

  deleteEndpoint(name: string, opts?: CallOptions): Promise<ModelOperation<Empty, unknown>> {
    return this.lro('deleteEndpoint', M.deleteEndpoint, { name }, opts);
  }

  /** Every deployed model, across the location's endpoints, that was built from `model` (optionally one version). */
  async findDeployments(
    model: string,
    opts?: CallOptions & { versionId?: string },
  ): Promise<Array<{ endpoint: Endpoint; deployedModel: DeployedModel }>> {
    const base = model.split('@')[0];
    const parent = base.replace(/\/models\/[^/]+$/, '');
    const out: Array<{ endpoint: Endpoint; deployedModel: DeployedModel }> = [];
    for await (const endpoint of this.listEndpoints(parent, opts)) {
      for (const dm of endpoint.deployedModels ?? []) {
        if (dm.model?.split('@')[0] !== base) continue;
        if (opts?.versionId !== undefined && (dm.modelVersionId || dm.model?.split('@')[1]) !== opts.versionId)
          continue;
        out.push({ endpoint, deployedModel: dm });
      }
    }
    return out;
  }
}

export interface ListModelsRequest {
  parent: string;
  filter?: string;
  pageSize?: number;
  pageToken?: string;
  readMask?: { paths: string[] };
}
export interface ListModelVersionsRequest {
  name: string;
  filter?: string;
  orderBy?: string;
  pageSize?: number;
  pageToken?: string;
  readMask?: { paths: string[] };
}
export interface PagedNameRequest {
  name: string;
  pageSize?: number;
  pageToken?: string;
}
export interface PagedParentRequest {
  parent: string;
  filter?: string;
  pageSize?: number;
  pageToken?: string;
}
export interface UploadModelRequest {
  parent: string;
  model: Model;
  modelId?: string;
  parentModel?: string;
  serviceAccount?: string;
}
export interface CopyModelRequest {
  parent: string;
  sourceModel: string;
  modelId?: string;
  parentModel?: string;
  encryptionSpec?: { kmsKeyName: string };
  customServiceAccount?: string;
}

let cachedGrpcVersion: string | undefined;
function grpcVersion(): string {
  if (cachedGrpcVersion === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      cachedGrpcVersion = (require('@grpc/grpc-js/package.json') as { version: string }).version;
    } catch {
      cachedGrpcVersion = 'unknown';
    }
  }
  return cachedGrpcVersion;
}

/**
 * grpc-js reads only the lower-case proxy variables (grpc_proxy, https_proxy, http_proxy and
 * no_grpc_proxy, no_proxy), while REST calls honour HTTPS_PROXY / HTTP_PROXY / NO_PROXY too. So
 * that a proxy set in upper case carries the Vertex AI calls as well, the upper-case values are
 * lent to the lower-case names while a channel is built (grpc-js reads them only then) and taken
 * back at once; lower-case values already set win, as they do for grpc-js.
 */
export function withGrpcProxyVariables<T>(build: () => T, env: NodeJS.ProcessEnv = process.env): T {
  const lent: string[] = [];
  const proxy = env['HTTPS_PROXY'] || env['HTTP_PROXY'];
  if (proxy && !env['grpc_proxy'] && !env['https_proxy'] && !env['http_proxy']) {
    env['https_proxy'] = proxy;
    lent.push('https_proxy');
  }
  if (env['NO_PROXY'] && !env['no_grpc_proxy'] && !env['no_proxy']) {
    env['no_proxy'] = env['NO_PROXY'];
    lent.push('no_proxy');
  }
  try {
    return build();
  } finally {
    for (const name of lent) delete env[name];
  }
}

/**
 * The gRPC channel target. A loopback IP address (the sandbox) goes to grpc-js' IP resolver
 * ("ipv4:127.0.0.1:8080"), which has nothing to look up, so no DNS resolver is created on a cold
 * start; the authority sent is the same host:port. Any other endpoint is a name resolved by DNS.
 */
export function channelTarget(choice: Pick<EndpointChoice, 'address' | 'host' | 'plaintext'>): string {
  if (!choice.plaintext) return choice.address;
  if (isIPv4(choice.host)) return `ipv4:${choice.address}`;
  // Only a string with a colon can be an IPv6 address (and isIPv6's expression is slow to start).
  if (choice.host.includes(':') && isIPv6(choice.host)) return `ipv6:${choice.address}`;
  return choice.address;
}

/** Plaintext for the loopback sandbox; TLS otherwise, with the client certificate when mTLS is chosen. */
export function channelCredentials(choice: EndpointChoice): grpc.ChannelCredentials {
  if (choice.plaintext) return grpc.credentials.createInsecure();
  if (!choice.clientCert) return grpc.credentials.createSsl();
  try {
    return grpc.credentials.createSsl(null, Buffer.from(choice.clientCert.key), Buffer.from(choice.clientCert.cert));
  } catch (err) {
    throw new MutualTlsChannelError(
      `The mutual-TLS channel to ${choice.address} could not be created: ${(err as Error).message}`,
      { cause: err },
    );
  }
}
