// Contracts shared by the sandbox's gRPC half, its HTTP half and its entry point.

/**
 * demo: a week of a small company's telemetry (50,000 compact events) with keys and models;
 * realistic: the same directory, keys and models, with 30 days of production-shaped events of
 * 3-6 KB each; empty: nothing.
 */
export const SEED_NAMES = ['demo', 'realistic', 'empty'] as const;
export type SeedName = (typeof SEED_NAMES)[number];

export function isSeedName(value: unknown): value is SeedName {
  return typeof value === 'string' && (SEED_NAMES as readonly string[]).includes(value);
}

/** All time-based behaviour of the sandbox follows this clock (advanced by the admin call). */
export interface SandboxClock {
  /** Milliseconds since the epoch on the sandbox clock. */
  now(): number;
  /** Moves the clock forward; never backward. */
  advance(seconds: number): void;
  /** Called after every advance, so operations can progress on sandbox time. */
  onAdvance(listener: () => void): void;
}

/** One fault rule, as posted to /sandbox/v1/faults. */
export interface FaultRule {
  /** Method name ("google.cloud.aiplatform.v1beta1.ModelService/GetModel", "apikeys.keys.create", "secops.udmSearch") or a prefix ending in "*"; "*" matches all. */
  method: string;
  /** Probability in [0, 1] that a call matching the rule fails. */
  errorRate?: number;
  /** gRPC status names (UNAVAILABLE, INTERNAL, ...) or HTTP codes (500, 503, 429) picked at random when a call fails. */
  codes?: Array<string | number>;
  /** Added latency in milliseconds for every matching call. */
  latencyMs?: number;
  /** Probability in [0, 1] that the connection is reset instead of answered. */
  resetRate?: number;
  /** For answers streamed out (udmSearch): a pause before each chunk of the body after the first. */
  bodyChunkDelayMs?: number;
  /** For answers streamed out (udmSearch): the connection is dropped after this many bytes of the body. */
  bodyResetAfterBytes?: number;
}

/** How a streamed body is slowed or cut. */
export interface BodyFault {
  chunkDelayMs: number;
  resetAfterBytes?: number;
}

export type FaultDecision =
  | { kind: 'none'; latencyMs: number; body?: BodyFault }
  | { kind: 'error'; code: string | number; latencyMs: number }
  | { kind: 'reset'; latencyMs: number };

export interface FaultInjector {
  configure(rules: FaultRule[], seed?: number): void;
  rules(): FaultRule[];
  decide(method: string): FaultDecision;
}

/** A half of the sandbox that keeps state which the admin calls reset and count. */
export interface SandboxPart {
  reset(seed: SeedName): void;
  counts(): Record<string, number>;
}

export interface RunningServer {
  /** "host:port" for gRPC, "http://host:port" for HTTP. */
  address: string;
  port: number;
  close(): Promise<void>;
}
