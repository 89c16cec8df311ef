// Vertex AI Model Registry client (ModelService v1beta1 plus the Operations, Locations, IAM and
// Endpoint calls the product needs) over @grpc/grpc-js. Each call goes to the regional endpoint of
// the location in its resource name, carries a bearer token and the routing header the official
// clients send, has a deadline, and is retried only when repeating it is safe.
import * as grpc from '@grpc/grpc-js';
import type { TokenSource } from '../google/credentials';
import { chooseEndpoint, type EndpointChoice, type EndpointOptions } from '../google/endpoints';
import { CancelledError, ClientClosedError, GoogleApiError } from '../google/errors';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from '../google/retry';
import { paginate, type Page } from '../paging';
import { ListPageBytes, decodeMessage, encodeMessage } from './wire';
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
import { CLIENT_METHODS as M, describeCallFailure, grpcMethodPath, type MethodSpec } from './client-methods';
import { channelCredentials, channelTarget, grpcVersion, withGrpcProxyVariables } from './client-channel';
import {
  RequestShapeError,
  getPath,
  locationOfName,
  resolveRequest,
  routingHeader,
  type CopyModelRequest,
  type ListModelVersionsRequest,
  type ListModelsRequest,
  type PagedNameRequest,
  type PagedParentRequest,
  type RequestOrFields,
  type UploadModelRequest,
} from './client-requests';

export { channelCredentials, channelTarget, withGrpcProxyVariables } from './client-channel';
export { RequestShapeError, locationOfName, resolveRequest, routingHeader } from './client-requests';
export type {
  CopyModelRequest,
  ListModelVersionsRequest,
  ListModelsRequest,
  PagedNameRequest,
  PagedParentRequest,
  RequestOrFields,
  UploadModelRequest,
} from './client-requests';

type MethodName = keyof typeof M;

export const CLIENT_VERSION = '0.1.0';

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

/** Bytes the server may send on a channel and on a call before this side acknowledges them. */
const FLOW_CONTROL_WINDOW = 16 * 1024 * 1024;

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
    if (this.closed) return Promise.reject(new ClientClosedError('Model Registry'));
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
                // A page of 1,000 models is hundreds of KB: with HTTP/2's 64 KB window the server
                // waits for window updates while this side decodes the page before, which undoes
                // reading one page ahead.
                'grpc-node.flow_control_window': FLOW_CONTROL_WINDOW,
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
    return this.callDecoded(s, request, (buf) => decodeMessage<Res>(s.responseType, buf), opts);
  }

  private callDecoded<Res>(
    s: MethodSpec,
    request: object,
    decode: (buf: Buffer) => Res,
    opts: CallOptions = {},
  ): Promise<Res> {
    const result = this.callOnce<Res>(s, request, decode, opts);
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

  private async callOnce<Res>(
    s: MethodSpec,
    request: object,
    decode: (buf: Buffer) => Res,
    opts: CallOptions = {},
  ): Promise<Res> {
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
          decode,
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

  /** A unary call of `method`, given its request message or its flattened fields. */
  private unary<Res>(
    method: MethodName,
    input: object,
    flattened: readonly string[],
    opts?: CallOptions,
  ): Promise<Res> {
    return this.call<Res>(M[method], resolveRequest(method, input, flattened), opts);
  }

  /** Every item of a paged `method`, given its request message or its flattened fields. */
  private listAll<Item>(
    method: MethodName,
    input: object,
    flattened: readonly string[],
    itemsField: string,
    opts?: CallOptions,
  ): AsyncGenerator<Item, void, undefined> {
    return this.pages<Item>(M[method], resolveRequest(method, input, flattened), itemsField, opts);
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

  /**
   * One page: its token is read first and its items are decoded when first asked for, so that
   * `paginate` has the next page on the wire while this one is decoded.
   */
  private async page<Item>(
    s: MethodSpec,
    request: object,
    itemsField: string,
    opts?: CallOptions,
  ): Promise<Page<Item>> {
    const bytes = await this.callDecoded(s, request, (buf) => buf, opts);
    return new ListPageBytes<Item>(s.responseType, itemsField, bytes);
  }

  // ---- ModelService -------------------------------------------------------------------------

  uploadModel(
    input: RequestOrFields<UploadModelRequest, { parent: string; model: Model }>,
    opts?: CallOptions,
  ): Promise<ModelOperation<UploadModelResponse, ModelOperationMetadata>> {
    return this.lro('upload', M.uploadModel, resolveRequest('uploadModel', input, ['parent', 'model']), opts);
  }

  getModel(input: RequestOrFields<{ name: string }, { name: string }>, opts?: CallOptions): Promise<Model> {
    return this.unary('getModel', input, ['name'], opts);
  }

  listModels(
    input: RequestOrFields<ListModelsRequest, { parent: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<Model, void, undefined> {
    return this.listAll('listModels', input, ['parent'], 'models', opts);
  }

  /** One page of models, for trees that show a "Load more" node. */
  listModelsPage(request: ListModelsRequest, opts?: CallOptions): Promise<Page<Model>> {
    return this.page(M.listModels, request, 'models', opts);
  }

  listModelVersions(
    input: RequestOrFields<ListModelVersionsRequest, { name: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<Model, void, undefined> {
    return this.listAll('listModelVersions', input, ['name'], 'models', opts);
  }

  listModelVersionsPage(request: ListModelVersionsRequest, opts?: CallOptions): Promise<Page<Model>> {
    return this.page(M.listModelVersions, request, 'models', opts);
  }

  listModelVersionCheckpoints(
    input: RequestOrFields<PagedNameRequest, { name: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<Checkpoint, void, undefined> {
    return this.listAll('listModelVersionCheckpoints', input, ['name'], 'checkpoints', opts);
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
    return this.unary('updateModel', input, ['model', 'updateMask'], opts);
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
    return this.unary('mergeVersionAliases', input, ['name', 'versionAliases'], opts);
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
    return this.unary('importModelEvaluation', input, ['parent', 'modelEvaluation'], opts);
  }

  batchImportModelEvaluationSlices(
    input: RequestOrFields<
      { parent: string; modelEvaluationSlices: ModelEvaluationSlice[] },
      { parent: string; modelEvaluationSlices: ModelEvaluationSlice[] }
    >,
    opts?: CallOptions,
  ): Promise<{ importedModelEvaluationSlices: string[] }> {
    return this.unary('batchImportModelEvaluationSlices', input, ['parent', 'modelEvaluationSlices'], opts);
  }

  batchImportEvaluatedAnnotations(
    input: RequestOrFields<
      { parent: string; evaluatedAnnotations: EvaluatedAnnotation[] },
      { parent: string; evaluatedAnnotations: EvaluatedAnnotation[] }
    >,
    opts?: CallOptions,
  ): Promise<{ importedEvaluatedAnnotationsCount?: number }> {
    return this.unary('batchImportEvaluatedAnnotations', input, ['parent', 'evaluatedAnnotations'], opts);
  }

  getModelEvaluation(
    input: RequestOrFields<{ name: string }, { name: string }>,
    opts?: CallOptions,
  ): Promise<ModelEvaluation> {
    return this.unary('getModelEvaluation', input, ['name'], opts);
  }

  listModelEvaluations(
    input: RequestOrFields<PagedParentRequest, { parent: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<ModelEvaluation, void, undefined> {
    return this.listAll('listModelEvaluations', input, ['parent'], 'modelEvaluations', opts);
  }

  listModelEvaluationsPage(request: PagedParentRequest, opts?: CallOptions): Promise<Page<ModelEvaluation>> {
    return this.page(M.listModelEvaluations, request, 'modelEvaluations', opts);
  }

  getModelEvaluationSlice(
    input: RequestOrFields<{ name: string }, { name: string }>,
    opts?: CallOptions,
  ): Promise<ModelEvaluationSlice> {
    return this.unary('getModelEvaluationSlice', input, ['name'], opts);
  }

  listModelEvaluationSlices(
    input: RequestOrFields<PagedParentRequest, { parent: string }>,
    opts?: CallOptions,
  ): AsyncGenerator<ModelEvaluationSlice, void, undefined> {
    return this.listAll('listModelEvaluationSlices', input, ['parent'], 'modelEvaluationSlices', opts);
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
    opts?: CallOptions & { trafficSplit?: Record<string, number> },
  ): Promise<ModelOperation<Empty, ModelOperationMetadata>> {
    const trafficSplit = opts?.trafficSplit ?? {}; // the split afterwards; an empty map is not sent
    return this.lro('undeploy', M.undeployModel, { endpoint, deployedModelId, trafficSplit }, opts);
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
