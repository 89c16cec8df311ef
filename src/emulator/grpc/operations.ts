// Long-running operations of the sandbox. Each runs for a configurable, realistic time on the sandbox
// clock: it completes when that much real time has passed or when the clock is advanced past its due
// time (admin clock:advance), whichever comes first. Completion performs the change (delete, copy, ...)
// then; cancel ends it with google.rpc.Code CANCELLED (1) and no change.
import { status as Status } from '@grpc/grpc-js';
import type { SandboxClock } from '../types';
import { AIPLATFORM, packAny, type ProtoObject } from '../../core/proto';
import { RpcError, notFound } from './errors';
import { numericId, timestamp } from './util';

/** Default running time in seconds of each long-running method. */
export const DEFAULT_OPERATION_SECONDS: Readonly<Record<string, number>> = {
  UploadModel: 25,
  CopyModel: 40,
  ExportModel: 60,
  DeleteModel: 8,
  DeleteModelVersion: 6,
  UpdateExplanationDataset: 30,
  CreateEndpoint: 4,
  DeleteEndpoint: 6,
  DeployModel: 45,
  UndeployModel: 15,
};

/**
 * Running times: a number applies to every method; an object overrides single methods. The environment
 * variable CLOUDBENCH_SANDBOX_OPERATION_SECONDS takes the same forms as JSON ("0", "{\"ExportModel\":5}").
 */
export type OperationSeconds = number | Partial<Record<string, number>>;

export function operationSecondsFromEnv(env: NodeJS.ProcessEnv = process.env): OperationSeconds | undefined {
  const raw = env.CLOUDBENCH_SANDBOX_OPERATION_SECONDS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const parsed = JSON.parse(raw) as unknown;
  if (typeof parsed === 'number' && parsed >= 0) return parsed;
  if (parsed && typeof parsed === 'object' && Object.values(parsed).every((v) => typeof v === 'number' && v >= 0))
    return parsed;
  throw new Error(
    'CLOUDBENCH_SANDBOX_OPERATION_SECONDS must be a non-negative number or an object of method names to seconds',
  );
}

export interface OperationSpec {
  /** Resource the operation belongs to; the name becomes `${parent}/operations/${id}`. */
  parent: string;
  /** RPC method name, for the running time and listing. */
  method: string;
  /** The Any type of the metadata; by default `<method>OperationMetadata` of Vertex AI. */
  metadataType: string;
  /** The Any type of the response; by default `<method>Response` of Vertex AI. */
  responseType: string;
  /**
   * Metadata fields besides genericMetadata (for example ExportModelOperationMetadata.outputInfo), or a
   * function of progress (0..1 of the running time) for metadata that shows stages.
   */
  metadata?: ProtoObject | ((progress: number, done: boolean) => ProtoObject);
  /** Performs the change; returns the response message or throws an RpcError that ends the operation. */
  complete(): ProtoObject;
  /** Releases what the operation held (reserved ids, pending deployments) when it ends without completing. */
  release?(): void;
}

/** An operation to start: the message types may follow the method name (see OperationSpec). */
export type OperationInput = Omit<OperationSpec, 'metadataType' | 'responseType'> &
  Partial<Pick<OperationSpec, 'metadataType' | 'responseType'>>;

/** The message types of every Vertex AI delete operation. */
const DELETE_OPERATION = {
  metadataType: `${AIPLATFORM}.DeleteOperationMetadata`,
  responseType: 'google.protobuf.Empty',
} as const;

export interface OperationRecord {
  name: string;
  spec: OperationSpec;
  createTime: number;
  dueTime: number;
  done: boolean;
  endTime?: number;
  error?: { code: number; message: string };
  response?: ProtoObject;
  /** DeleteOperation hides it; it still completes, as the real service does. */
  deleted: boolean;
  timer?: NodeJS.Timeout;
}

export class OperationManager {
  private readonly ops = new Map<string, OperationRecord>();
  /** Operations not done yet; ticks look only at these, so thousands of finished ones cost nothing. */
  private readonly pending = new Set<OperationRecord>();
  private waiters: Array<() => void> = [];
  private counter = 0;
  private closed = false;

  constructor(
    private readonly clock: SandboxClock,
    private seconds: OperationSeconds | undefined,
    /** Told after an operation has finished its work (which may have changed the store). */
    private readonly onFinish: () => void = () => undefined,
  ) {
    clock.onAdvance(() => {
      if (!this.closed) this.tick();
    });
  }

  setDurations(seconds: OperationSeconds | undefined): void {
    this.seconds = seconds;
  }

  durationMs(method: string): number {
    const s = this.seconds;
    if (typeof s === 'number') return s * 1000;
    return ((s && s[method]) ?? DEFAULT_OPERATION_SECONDS[method] ?? 10) * 1000;
  }

  /** Starts a Vertex AI delete (DeleteOperationMetadata, an Empty response) that runs `remove` when due. */
  startDelete(parent: string, method: string, remove: () => void): ProtoObject {
    const complete = (): ProtoObject => {
      remove();
      return {};
    };
    return this.message(this.start({ parent, method, ...DELETE_OPERATION, complete }));
  }

  start(input: OperationInput): OperationRecord {
    const spec: OperationSpec = {
      metadataType: `${AIPLATFORM}.${input.method}OperationMetadata`,
      responseType: `${AIPLATFORM}.${input.method}Response`,
      ...input,
    };
    this.counter++;
    const now = this.clock.now();
    const record: OperationRecord = {
      name: `${spec.parent}/operations/${numericId(`operation:${this.counter}`)}`,
      spec,
      createTime: now,
      dueTime: now + this.durationMs(spec.method),
      done: false,
      deleted: false,
    };
    this.ops.set(record.name, record);
    this.pending.add(record);
    this.schedule(record);
    if (record.dueTime <= now) this.finish(record);
    return record;
  }

  private schedule(record: OperationRecord): void {
    const delay = record.dueTime - this.clock.now();
    if (delay <= 0) return;
    record.timer = setTimeout(() => this.tick(), Math.min(delay, 2 ** 31 - 1));
    record.timer.unref();
  }

  /** Completes every operation that is due on the sandbox clock, oldest first. */
  tick(): void {
    const now = this.clock.now();
    if (this.pending.size === 0) return;
    const due = [...this.pending].filter((r) => r.dueTime <= now).sort((a, b) => a.dueTime - b.dueTime);
    for (const record of due) this.finish(record);
    if (due.length) this.notify();
  }

  private finish(record: OperationRecord): void {
    if (record.done) return;
    if (record.timer) clearTimeout(record.timer);
    try {
      record.response = record.spec.complete();
    } catch (err) {
      record.spec.release?.();
      if (err instanceof RpcError) record.error = { code: err.code, message: err.message };
      else record.error = { code: Status.INTERNAL, message: `Internal error: ${(err as Error).message}` };
    }
    record.done = true;
    record.endTime = Math.max(this.clock.now(), record.createTime);
    this.pending.delete(record);
    this.onFinish();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  get(name: string): OperationRecord {
    this.tick();
    const record = this.ops.get(name);
    if (!record || record.deleted)
      throw notFound(`Operation ${name} does not exist.`, 'google.longrunning.Operation', name);
    return record;
  }

  /** Operations under a resource or location name, newest first. */
  list(under: string): OperationRecord[] {
    this.tick();
    const prefix = under.endsWith('/') ? under : `${under}/`;
    return [...this.ops.values()]
      .filter((r) => !r.deleted && r.name.startsWith(prefix))
      .sort((a, b) => b.createTime - a.createTime || (a.name < b.name ? 1 : -1));
  }

  cancel(name: string): void {
    const record = this.get(name);
    if (record.done) return;
    if (record.timer) clearTimeout(record.timer);
    record.spec.release?.();
    record.done = true;
    record.endTime = this.clock.now();
    record.error = { code: Status.CANCELLED, message: 'Operation was cancelled.' };
    this.pending.delete(record);
    this.notify();
  }

  delete(name: string): void {
    const record = this.get(name);
    record.deleted = true;
  }

  /** Resolves when the operation is done or the timeout (real milliseconds) elapses. */
  async wait(name: string, timeoutMs: number): Promise<OperationRecord> {
    const record = this.get(name);
    if (record.done || timeoutMs <= 0) return record;
    await new Promise<void>((resolve) => {
      let settled = false;
      const finish = (): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(finish, timeoutMs);
      const check = (): void => {
        if (settled) return;
        if (record.done || this.closed) finish();
        else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
    return this.get(name);
  }

  /** The google.longrunning.Operation message. */
  message(record: OperationRecord): ProtoObject {
    const updateTime = record.done ? record.endTime! : this.clock.now();
    const span = record.dueTime - record.createTime;
    const progress = record.done
      ? 1
      : span <= 0
        ? 1
        : Math.min(1, Math.max(0, (updateTime - record.createTime) / span));
    const extra =
      typeof record.spec.metadata === 'function' ? record.spec.metadata(progress, record.done) : record.spec.metadata;
    const metadata = packAny(record.spec.metadataType, {
      ...(extra ?? {}),
      genericMetadata: { createTime: timestamp(record.createTime), updateTime: timestamp(updateTime) },
    });
    const op: ProtoObject = { name: record.name, metadata, done: record.done };
    if (record.error) op.error = { code: record.error.code, message: record.error.message, details: [] };
    else if (record.done) op.response = packAny(record.spec.responseType, record.response ?? {});
    return op;
  }

  count(): number {
    return [...this.ops.values()].filter((r) => !r.deleted).length;
  }

  running(): number {
    return this.pending.size;
  }

  clear(): void {
    for (const r of this.ops.values()) if (r.timer) clearTimeout(r.timer);
    this.ops.clear();
    this.pending.clear();
    this.counter = 0;
    this.notify();
  }

  close(): void {
    this.closed = true;
    this.clear();
  }
}
