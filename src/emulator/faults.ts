import { mulberry32 } from './random';
import type { BodyFault, FaultDecision, FaultInjector, FaultRule } from './types';

function matches(pattern: string, method: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('*')) return method.startsWith(pattern.slice(0, -1));
  return pattern === method;
}

export function validateFaultRules(input: unknown): FaultRule[] {
  const list = Array.isArray(input) ? input : [input];
  return list.map((raw, i) => {
    if (typeof raw !== 'object' || raw === null) throw new Error(`rules[${i}] must be an object`);
    const r = raw as Record<string, unknown>;
    const method = r.method ?? '*';
    if (typeof method !== 'string' || method === '') throw new Error(`rules[${i}].method must be a non-empty string`);
    const rule: FaultRule = { method };
    for (const key of ['errorRate', 'resetRate'] as const) {
      if (r[key] === undefined) continue;
      const v = r[key];
      if (typeof v !== 'number' || !(v >= 0 && v <= 1))
        throw new Error(`rules[${i}].${key} must be a number between 0 and 1`);
      rule[key] = v;
    }
    if (r.latencyMs !== undefined) {
      if (typeof r.latencyMs !== 'number' || !(r.latencyMs >= 0 && r.latencyMs <= 600_000))
        throw new Error(`rules[${i}].latencyMs must be between 0 and 600000`);
      rule.latencyMs = r.latencyMs;
    }
    if (r.bodyChunkDelayMs !== undefined) {
      if (typeof r.bodyChunkDelayMs !== 'number' || !(r.bodyChunkDelayMs >= 0 && r.bodyChunkDelayMs <= 60_000))
        throw new Error(`rules[${i}].bodyChunkDelayMs must be between 0 and 60000`);
      rule.bodyChunkDelayMs = r.bodyChunkDelayMs;
    }
    if (r.bodyResetAfterBytes !== undefined) {
      if (!Number.isInteger(r.bodyResetAfterBytes) || (r.bodyResetAfterBytes as number) < 0)
        throw new Error(`rules[${i}].bodyResetAfterBytes must be a whole number of bytes`);
      rule.bodyResetAfterBytes = r.bodyResetAfterBytes as number;
    }
    if (r.codes !== undefined) {
      if (
        !Array.isArray(r.codes) ||
        r.codes.length === 0 ||
        !r.codes.every((c) => typeof c === 'string' || typeof c === 'number')
      ) {
        throw new Error(`rules[${i}].codes must be a non-empty array of status names or HTTP codes`);
      }
      rule.codes = r.codes;
    }
    return rule;
  });
}

export function createFaultInjector(): FaultInjector {
  let active: FaultRule[] = [];
  let random = mulberry32(1);
  return {
    configure(rules, seed = 1) {
      active = rules;
      random = mulberry32(seed);
    },
    rules: () => active,
    decide(method): FaultDecision {
      let latencyMs = 0;
      let body: BodyFault | undefined;
      for (const rule of active) {
        if (!matches(rule.method, method)) continue;
        latencyMs += rule.latencyMs ?? 0;
        if (rule.bodyChunkDelayMs !== undefined || rule.bodyResetAfterBytes !== undefined) {
          body ??= { chunkDelayMs: 0 };
          body.chunkDelayMs += rule.bodyChunkDelayMs ?? 0;
          if (rule.bodyResetAfterBytes !== undefined)
            body.resetAfterBytes = Math.min(body.resetAfterBytes ?? Infinity, rule.bodyResetAfterBytes);
        }
        if (rule.resetRate && random() < rule.resetRate) return { kind: 'reset', latencyMs };
        if (rule.errorRate && random() < rule.errorRate) {
          const codes = rule.codes ?? ['UNAVAILABLE'];
          return { kind: 'error', code: codes[Math.floor(random() * codes.length)], latencyMs };
        }
      }
      return body ? { kind: 'none', latencyMs, body } : { kind: 'none', latencyMs };
    },
  };
}
