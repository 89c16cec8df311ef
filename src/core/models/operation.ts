// A Model Registry long-running operation: waits with the shared poller, decodes metadata and
// result by their packed types, and offers the two ways out the API has: cancel (CancelOperation,
// best effort) and stop waiting (DeleteOperation, which leaves the work running).
import { CancelledError, GoogleApiError } from '../google/errors';
import { pollOperation, type PollOptions } from '../lro';
import type { Operation, ModelOperationMetadata, RpcStatus } from './types';
import { unpackAny } from './wire';

export type OperationKind =
  | 'upload'
  | 'copy'
  | 'export'
  | 'delete'
  | 'deleteVersion'
  | 'createEndpoint'
  | 'deploy'
  | 'undeploy'
  | 'deleteEndpoint';

const V1BETA1 = 'google.cloud.aiplatform.v1beta1';
/** Result and metadata types per kind, from the RPCs' google.longrunning.operation_info. */
export const OPERATION_TYPES: Record<OperationKind, { response: string; metadata: string }> = {
  upload: { response: `${V1BETA1}.UploadModelResponse`, metadata: `${V1BETA1}.UploadModelOperationMetadata` },
  copy: { response: `${V1BETA1}.CopyModelResponse`, metadata: `${V1BETA1}.CopyModelOperationMetadata` },
  export: { response: `${V1BETA1}.ExportModelResponse`, metadata: `${V1BETA1}.ExportModelOperationMetadata` },
  delete: { response: 'google.protobuf.Empty', metadata: `${V1BETA1}.DeleteOperationMetadata` },
  deleteVersion: { response: 'google.protobuf.Empty', metadata: `${V1BETA1}.DeleteOperationMetadata` },
  createEndpoint: { response: `${V1BETA1}.Endpoint`, metadata: `${V1BETA1}.CreateEndpointOperationMetadata` },
  deploy: { response: `${V1BETA1}.DeployModelResponse`, metadata: `${V1BETA1}.DeployModelOperationMetadata` },
  undeploy: { response: `${V1BETA1}.UndeployModelResponse`, metadata: `${V1BETA1}.UndeployModelOperationMetadata` },
  deleteEndpoint: { response: 'google.protobuf.Empty', metadata: `${V1BETA1}.DeleteOperationMetadata` },
};

/** The RPC that starts each kind of operation (what a failure of the operation is explained by). */
export const OPERATION_METHODS: Record<OperationKind, string> = {
  upload: 'UploadModel',
  copy: 'CopyModel',
  export: 'ExportModel',
  delete: 'DeleteModel',
  deleteVersion: 'DeleteModelVersion',
  createEndpoint: 'CreateEndpoint',
  deploy: 'DeployModel',
  undeploy: 'UndeployModel',
  deleteEndpoint: 'DeleteEndpoint',
};

/** The calls an operation needs from the client (kept narrow so tests can hand in fakes). */
export interface OperationsApi {
  getOperation(name: string, opts?: { signal?: AbortSignal }): Promise<Operation>;
  cancelOperation(name: string, opts?: { signal?: AbortSignal }): Promise<void>;
  deleteOperation(name: string, opts?: { signal?: AbortSignal }): Promise<void>;
}

/** What the user learns after asking to cancel. */
export type CancelOutcome =
  | { kind: 'cancelled'; message: string }
  | { kind: 'finished'; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'requested'; message: string }
  | { kind: 'unsupported'; message: string };

export type WaitOptions = Omit<PollOptions<Operation>, 'get'>;

export class ModelOperation<Res = unknown, Meta = ModelOperationMetadata> {
  private current: Operation;

  constructor(
    private readonly api: OperationsApi,
    readonly kind: OperationKind,
    first: Operation,
  ) {
    this.current = first;
  }

  get name(): string {
    return this.current.name;
  }

  get latest(): Operation {
    return this.current;
  }

  get done(): boolean {
    return this.current.done === true;
  }

  /** Decoded metadata of the latest state seen (progress, create/update time, export output info). */
  get metadata(): Meta | undefined {
    return unpackAny<Meta>(this.current.metadata);
  }

  /** Decoded result once done without error. */
  get result(): Res | undefined {
    return this.current.done && !this.current.error ? unpackAny<Res>(this.current.response) : undefined;
  }

  get error(): RpcStatus | undefined {
    return this.current.done && this.current.error && (this.current.error.code ?? 0) !== 0
      ? this.current.error
      : undefined;
  }

  async refresh(opts?: { signal?: AbortSignal }): Promise<Operation> {
    this.current = await this.api.getOperation(this.current.name, opts);
    return this.current;
  }

  /**
   * Polls until done and returns the decoded result. The signal only stops waiting locally;
   * throws OperationFailedError (a GoogleApiError) when the operation ended in error.
   */
  async wait(options: WaitOptions = {}): Promise<Res> {
    const onUpdate = options.onUpdate;
    const done = await pollOperation<Operation>(this.current, {
      ...options,
      method: OPERATION_METHODS[this.kind],
      get: (name, signal) => this.api.getOperation(name, signal ? { signal } : {}),
      onUpdate: (op) => {
        this.current = op;
        onUpdate?.(op);
      },
    });
    this.current = done;
    return unpackAny<Res>(done.response) ?? ({} as Res);
  }

  /**
   * Requests cancellation and reports what happened: CancelOperation is best effort, so the
   * operation is read once more to tell "cancelled" from "finished anyway" or "still stopping".
   */
  async cancel(opts: { signal?: AbortSignal } = {}): Promise<CancelOutcome> {
    try {
      await this.api.cancelOperation(this.current.name, opts);
    } catch (err) {
      if (err instanceof GoogleApiError && err.status === 'UNIMPLEMENTED') {
        return {
          kind: 'unsupported',
          message:
            'The server cannot cancel this operation; it goes on running. Use "Stop Waiting" to stop following it.',
        };
      }
      throw err;
    }
    let op: Operation;
    try {
      op = await this.refresh(opts);
    } catch (err) {
      if (err instanceof CancelledError) throw err;
      return { kind: 'requested', message: 'Cancellation was requested; the server did not report the outcome yet.' };
    }
    if (!op.done)
      return {
        kind: 'requested',
        message: 'Cancellation was requested; the server is stopping the operation (cancel is best effort).',
      };
    const code = op.error?.code ?? 0;
    if (code === 1) return { kind: 'cancelled', message: 'The operation was cancelled.' };
    if (code !== 0)
      return {
        kind: 'failed',
        message: `The operation ended with an error before it could be cancelled: ${op.error?.message ?? ''}`,
      };
    return { kind: 'finished', message: 'The operation had already finished; cancelling changed nothing.' };
  }

  /** DeleteOperation: the server forgets the result; the work itself is NOT cancelled. */
  async stopWaiting(opts: { signal?: AbortSignal } = {}): Promise<void> {
    await this.api.deleteOperation(this.current.name, opts);
  }
}
