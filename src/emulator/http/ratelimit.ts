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

export class RateLimiter {
  private calls = new Map<string, number[]>();
  settings: RateLimitSettings = { enabled: true, scale: 1 };

  constructor(private readonly clock: SandboxClock) {}

  configure(input: unknown): RateLimitSettings {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Error('the body must be a JSON object like {"scale":0.01,"enabled":true}');
    const body = input as Record<string, unknown>;
    for (const k of Object.keys(body)) if (k !== 'scale' && k !== 'enabled') throw new Error(`unknown field "${k}" (expected scale, enabled)`);
    const next = { ...this.settings };
    if (body.scale !== undefined) {
      if (typeof body.scale !== 'number' || !(body.scale > 0 && body.scale <= 1000)) throw new Error('scale must be a number greater than 0 and at most 1000');
      next.scale = body.scale;
    }
    if (body.enabled !== undefined) {
      if (typeof body.enabled !== 'boolean') throw new Error('enabled must be true or false');
      next.enabled = body.enabled;
    }
    this.settings = next;
    this.calls.clear();
    return this.describe().settings;
  }

  reset(): void {
    this.calls.clear();
    this.settings = { enabled: true, scale: 1 };
  }

  describe(): { settings: RateLimitSettings; limits: Record<string, { limit: number; windowMs: number }> } {
    const limits: Record<string, { limit: number; windowMs: number }> = {};
    for (const [m, l] of Object.entries(SEARCH_RATE_LIMITS)) limits[m] = { limit: l.limit, windowMs: l.windowMs * this.settings.scale };
    return { settings: { ...this.settings }, limits };
  }

  /** Counts a call, or throws 429 RESOURCE_EXHAUSTED with the time until a slot frees up. */
  admit(method: string): void {
    const rule = SEARCH_RATE_LIMITS[method];
    if (!rule || !this.settings.enabled) return;
    const windowMs = rule.windowMs * this.settings.scale;
    const now = this.clock.now();
    let times = this.calls.get(method);
    if (!times) this.calls.set(method, (times = []));
    // Sliding window: drop calls that left it (times are pushed in order, so the old ones lead).
    let drop = 0;
    while (drop < times.length && times[drop]! <= now - windowMs) drop++;
    if (drop > 0) times.splice(0, drop);
    if (times.length >= rule.limit) {
      const waitMs = Math.max(1, Math.ceil(times[0]! + windowMs - now));
      const unit = rule.windowMs === 1000 ? 'queries per second' : 'queries per hour';
      throw new ApiError(
        'RESOURCE_EXHAUSTED',
        `Quota exceeded for ${method.replace('secops.', '')}: the limit is ${rule.limit} ${unit}. Retry after ${(waitMs / 1000).toFixed(3)} s.`,
        [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${(waitMs / 1000).toFixed(3)}s` }],
        { 'retry-after': String(Math.ceil(waitMs / 1000)) },
      );
    }
    times.push(now);
  }
}
