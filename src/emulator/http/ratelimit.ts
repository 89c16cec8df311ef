// Per-method request budgets of the Search API (seed 002's table), counted on the sandbox clock.
// The window of every budget can be scaled (POST /sandbox/v1/ratelimits {"scale":0.01}) so tests and
// benchmarks see the same limits in milliseconds instead of seconds or hours.
import { ApiError } from './errors';
import type { SandboxClock } from '../types';

export interface RateLimit {
  limit: number;
  windowMs: number;
}

const QPS = (n: number): RateLimit => ({ limit: n, windowMs: 1000 });
const QPH = (n: number): RateLimit => ({ limit: n, windowMs: 3_600_000 });

/** Keyed by the same method names the fault rules use. */
export const SEARCH_RATE_LIMITS: Readonly<Record<string, RateLimit>> = {
  'secops.listAlerts': QPS(1),
  'secops.listEvents': QPS(1),
  'secops.listIocs': QPS(1),
  'secops.listIocDetails': QPS(1),
  'secops.listAssets': QPS(5),
  'secops.listAssetAliases': QPS(1),
  'secops.listUserAliases': QPS(1),
  'secops.udmSearch': QPH(360),
  'secops.getLog': QPS(60),
  'secops.getEvent': QPS(60),
};

export interface RateLimitSettings {
  enabled: boolean;
  scale: number;
}

/**
 * How far ahead of its slot one call may arrive, as a share of the interval between calls. Clients
 * that pace themselves exactly at the limit still see their calls arrive a little bunched (event-loop
 * and network jitter); that must not cost them a 429, while the long-run rate stays exact.
 */
const JITTER_SHARE = 0.5;

/**
 * Generic cell-rate algorithm: each method has a theoretical arrival time (TAT) that every admitted
 * call pushes one emission interval (window / limit) further. A call is admitted when it arrives no
 * earlier than TAT minus the tolerance, which allows a burst of `limit` calls and then exactly
 * `limit` per window, like a token bucket of that size refilled continuously.
 */
export class RateLimiter {
  private tat = new Map<string, number>();
  settings: RateLimitSettings = { enabled: true, scale: 1 };

  constructor(private readonly clock: SandboxClock) {}

  configure(input: unknown): RateLimitSettings {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      throw new Error('the body must be a JSON object like {"scale":0.01,"enabled":true}');
    const body = input as Record<string, unknown>;
    for (const k of Object.keys(body))
      if (k !== 'scale' && k !== 'enabled') throw new Error(`unknown field "${k}" (expected scale, enabled)`);
    const next = { ...this.settings };
    if (body.scale !== undefined) {
      if (typeof body.scale !== 'number' || !(body.scale > 0 && body.scale <= 1000))
        throw new Error('scale must be a number greater than 0 and at most 1000');
      next.scale = body.scale;
    }
    if (body.enabled !== undefined) {
      if (typeof body.enabled !== 'boolean') throw new Error('enabled must be true or false');
      next.enabled = body.enabled;
    }
    this.settings = next;
    this.tat.clear();
    return this.describe().settings;
  }

  reset(): void {
    this.tat.clear();
    this.settings = { enabled: true, scale: 1 };
  }

  describe(): { settings: RateLimitSettings; limits: Record<string, { limit: number; windowMs: number }> } {
    const limits: Record<string, { limit: number; windowMs: number }> = {};
    for (const [m, l] of Object.entries(SEARCH_RATE_LIMITS))
      limits[m] = { limit: l.limit, windowMs: l.windowMs * this.settings.scale };
    return { settings: { ...this.settings }, limits };
  }

  /** Counts a call, or throws 429 RESOURCE_EXHAUSTED with the time until the next call is admitted. */
  admit(method: string): void {
    const rule = SEARCH_RATE_LIMITS[method];
    if (!rule || !this.settings.enabled) return;
    const interval = (rule.windowMs * this.settings.scale) / rule.limit;
    const tolerance = (rule.limit - 1 + JITTER_SHARE) * interval;
    const now = this.clock.now();
    const tat = Math.max(this.tat.get(method) ?? now, now);
    const earliest = tat - tolerance;
    if (now < earliest) {
      const waitMs = Math.max(1, Math.ceil(earliest - now));
      const unit = rule.windowMs === 1000 ? 'queries per second' : 'queries per hour';
      throw new ApiError(
        'RESOURCE_EXHAUSTED',
        `Quota exceeded for ${method.replace('secops.', '')}: the limit is ${rule.limit} ${unit}. Retry after ${(waitMs / 1000).toFixed(3)} s.`,
        [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${(waitMs / 1000).toFixed(3)}s` }],
        { 'retry-after': String(Math.ceil(waitMs / 1000)) },
      );
    }
    this.tat.set(method, tat + interval);
  }
}
