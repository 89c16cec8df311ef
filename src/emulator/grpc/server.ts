// The sandbox's gRPC half: a plaintext grpc-js server with the official service definitions (from the
// compact descriptor) for ModelService, EndpointService, Operations, IAMPolicy and Locations. Every call
// passes the fault rules first (latency, injected status, connection reset), then must carry an
// `authorization` bearer token, then reaches its handler.
import * as grpc from '@grpc/grpc-js';
import type { Http2Session } from 'node:http2';
import { ServiceNames, grpcServiceDefinition, loadProtoRoot, methodPath, type ProtoObject } from '../../core/proto';
import { EncodedMessage } from './encoded';
import type { FaultInjector, RunningServer, SandboxClock, SandboxPart, SeedName } from '../types';
import { loadModelSeed } from '../models-data/seed';
import type { AnyServiceHandlers, Handler, ServiceContext } from './context';
import { endpointServiceHandlers } from './endpoint-service';
import { RpcError, injectedFault, unauthenticated } from './errors';
import { modelServiceHandlers } from './model-service';
import { OperationManager, operationSecondsFromEnv, type OperationSeconds } from './operations';
import { iamHandlers, locationsHandlers, operationsHandlers } from './standard-services';
import { ModelStore } from './store';

export interface GrpcSandboxOptions {
  host: string;
  port: number;
  clock: SandboxClock;
  faults: FaultInjector;
  seed: SeedName;
  /** Running time of long-running operations; defaults to CLOUDBENCH_SANDBOX_OPERATION_SECONDS, then realistic times. */
  operationSeconds?: OperationSeconds;
}

export interface GrpcSandbox extends RunningServer {
  part: SandboxPart;
  /** For in-process tests and the HTTP admin calls: the operation running times. */
  setOperationSeconds(seconds: OperationSeconds | undefined): void;
}

function hasBearerToken(metadata: grpc.Metadata): boolean {
  return metadata
    .get('authorization')
    .some((value) => typeof value === 'string' && /^Bearer\s+\S+/i.test(value.trim()));
}

/** Closes the HTTP/2 connection a call arrived on, as a network reset would. */
function resetConnection(server: grpc.Server, call: grpc.ServerUnaryCall<unknown, unknown>): boolean {
  const peer = call.getPeer();
  // grpc-js keeps its sessions privately; a reset fault has no public API to reach them.
  const sessions = (server as unknown as { sessions?: Map<Http2Session, unknown> }).sessions;
  for (const session of sessions?.keys() ?? []) {
    const socket = session.socket;
    if (socket && `${socket.remoteAddress}:${socket.remotePort}` === peer) {
      session.destroy();
      return true;
    }
  }
  return false;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The service's definition with response serialisers that send an EncodedMessage's bytes as they are. */
function sendingEncoded(service: string, definition: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const methods = loadProtoRoot().lookupService(service).methods;
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [method, d] of Object.entries(definition)) {
    const described = methods[method];
    described.resolve();
    const responseType = described.resolvedResponseType!.fullName.slice(1);
    const serialize = d.responseSerialize;
    out[method] = {
      ...d,
      responseSerialize: (value: unknown): Buffer => {
        if (!(value instanceof EncodedMessage)) return serialize(value);
        if (value.typeName !== responseType)
          throw new Error(`${d.path} answers ${responseType}, not ${value.typeName}`);
        const bytes = value.bytes;
        return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      },
    };
  }
  return out;
}

export async function startGrpcSandbox(options: GrpcSandboxOptions): Promise<GrpcSandbox> {
  const { clock, faults } = options;
  const store = new ModelStore(clock);
  const ops = new OperationManager(clock, options.operationSeconds ?? operationSecondsFromEnv(), () => store.changed());
  const ctx: ServiceContext = { store, ops, clock };
  const reset = (seed: SeedName): void => {
    ops.clear();
    store.clear();
    if (seed !== 'empty') loadModelSeed(store, clock.now());
  };
  reset(options.seed);

  const server = new grpc.Server({ 'grpc.max_receive_message_length': 64 * 1024 * 1024 });

  const unary = (
    service: string,
    method: string,
    handler: Handler<never>,
  ): grpc.handleUnaryCall<ProtoObject, ProtoObject | EncodedMessage> => {
    const path = methodPath(service, method);
    const changes = !/^(Get|List)[A-Z]/.test(method);
    return (call, callback) => {
      void (async () => {
        try {
          const decision = faults.decide(path);
          if (decision.latencyMs > 0) await sleep(decision.latencyMs);
          if (decision.kind === 'reset') {
            if (resetConnection(server, call)) return;
            throw new RpcError(grpc.status.UNAVAILABLE, 'Connection reset by the sandbox fault rules.');
          }
          if (!hasBearerToken(call.metadata)) throw unauthenticated();
          if (decision.kind === 'error') throw injectedFault(decision.code);
          // The codec built from the descriptor decoded the request into the shape the handler's type names.
          let pending: ProtoObject | EncodedMessage | Promise<ProtoObject | EncodedMessage>;
          try {
            pending = handler(call.request as never, ctx);
          } finally {
            // Handlers change the store synchronously; Get and List calls only read it (AIP-131, 132).
            if (changes) store.changed();
          }
          callback(null, await pending);
        } catch (err) {
          if (err instanceof RpcError) callback(err.toServiceError());
          else
            callback({
              code: grpc.status.INTERNAL,
              details: `Internal error in the sandbox: ${(err as Error)?.message ?? err}`,
            });
        }
      })();
    };
  };

  const services: Array<[string, AnyServiceHandlers]> = [
    [ServiceNames.model, modelServiceHandlers()],
    [ServiceNames.endpoint, endpointServiceHandlers()],
    [ServiceNames.operations, operationsHandlers()],
    [ServiceNames.iamPolicy, iamHandlers()],
    [ServiceNames.locations, locationsHandlers()],
  ];
  for (const [service, handlers] of services) {
    const definition = sendingEncoded(service, grpcServiceDefinition(service));
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const method of Object.keys(definition)) {
      const handler = handlers[method];
      // Methods of the descriptor without a handler stay UNIMPLEMENTED, as grpc-js answers by default.
      if (handler) implementation[method] = unary(service, method, handler);
    }
    server.addService(definition, implementation);
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    );
  });
  const hostForAddress = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    address: `${hostForAddress}:${port}`,
    port,
    part: {
      reset,
      counts: () => ({ ...store.counts(), operations: ops.count(), runningOperations: ops.running() }),
    },
    setOperationSeconds: (seconds) => ops.setDurations(seconds),
    close: () =>
      new Promise<void>((resolve) => {
        ops.close();
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
