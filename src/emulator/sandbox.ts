// Starts both halves of the sandbox in-process; used by main.ts, tests and benchmarks.
import { createSandboxClock } from './clock';
import { createFaultInjector } from './faults';
import { startGrpcSandbox } from './grpc/server';
import { startHttpSandbox } from './http/server';
import type { FaultInjector, SandboxClock, SeedName } from './types';

export interface SandboxOptions {
  host?: string;
  grpcPort?: number;
  httpPort?: number;
  seed?: SeedName;
}

export interface Sandbox {
  /** "host:port" of the plaintext gRPC server. */
  grpc: string;
  /** "http://host:port" of the HTTP server. */
  http: string;
  clock: SandboxClock;
  faults: FaultInjector;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const seed = options.seed ?? 'demo';
  const clock = createSandboxClock();
  const faults = createFaultInjector();
  const grpc = await startGrpcSandbox({ host, port: options.grpcPort ?? 0, clock, faults, seed });
  const http = await startHttpSandbox({
    host,
    port: options.httpPort ?? 0,
    clock,
    faults,
    seed,
    parts: { models: grpc.part },
  });
  return {
    grpc: grpc.address,
    http: http.address,
    clock,
    faults,
    async close() {
      await Promise.allSettled([grpc.close(), http.close()]);
    },
  };
}
