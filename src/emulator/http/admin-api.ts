// Sandbox-only admin calls under /sandbox/v1/ (no credentials, JSON in and out).
import { ApiError, invalidArgument, notFound } from './errors';
import { validateFaultRules } from '../faults';
import type { EventStore } from '../events-data/store';
import type { KeyStore } from '../keys-data/store';
import type { RateLimiter } from './ratelimit';
import { formatRfc3339 } from '../events-data/time';
import { MAX_REALISTIC_EVENTS } from '../events-data/realistic';
import {
  SEED_NAMES,
  isSeedName,
  type FaultInjector,
  type FaultRule,
  type SandboxClock,
  type SandboxPart,
  type SeedName,
} from '../types';

export interface AdminDeps {
  clock: SandboxClock;
  faults: FaultInjector;
  keys: KeyStore;
  events: EventStore;
  limiter: RateLimiter;
  models: SandboxPart;
  /**
   * Calls of each HTTP API method that reached the service (credentials checked), answered or
   * refused by a fault or the rate limit: tests read how many searches a client spent.
   */
  calls: Map<string, number>;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidArgument('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body))
    if (!allowed.includes(k))
      throw invalidArgument(`Unknown field "${k}"; expected ${allowed.join(', ') || 'no fields'}.`);
}

/** The number of events a realistic reset generates, when the call names one. */
function realisticCount(seed: SeedName, events: unknown): number | undefined {
  if (events === undefined) return undefined;
  if (seed !== 'realistic')
    throw invalidArgument(`events sets the size of the "realistic" seed only; the "${seed}" seed has a fixed size.`);
  if (typeof events !== 'number' || !Number.isInteger(events) || events < 1 || events > MAX_REALISTIC_EVENTS)
    throw invalidArgument(
      `events must be a whole number from 1 to ${MAX_REALISTIC_EVENTS.toLocaleString('en-US')}, got ${JSON.stringify(events)}.`,
    );
  return events;
}

function resetAll(deps: AdminDeps, seed: SeedName, events?: number): void {
  deps.keys.reset(seed);
  deps.events.reset(seed, events);
  deps.models.reset(seed);
  deps.limiter.reset();
  deps.faults.configure([]);
  deps.calls.clear();
}

function state(deps: AdminDeps): Record<string, unknown> {
  return {
    now: formatRfc3339(deps.clock.now()),
    apiKeys: deps.keys.counts(),
    search: {
      events: deps.events.count(),
      users: deps.events.users.length,
      iocs: deps.events.iocs.size,
      referenceLists: deps.events.lists.size,
    },
    models: deps.models.counts(),
    faults: deps.faults.rules().length,
    rateLimits: deps.limiter.describe().settings,
    calls: Object.fromEntries([...deps.calls].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

/** Runs one admin call; `readJson` is only called for calls that take a body. */
export async function handleAdmin(
  httpMethod: string,
  action: string,
  readJson: () => Promise<unknown>,
  deps: AdminDeps,
): Promise<unknown> {
  const key = `${httpMethod} ${action}`;
  switch (key) {
    case 'GET state':
      return state(deps);
    case 'POST reset': {
      const body = objectBody(await readJson());
      onlyFields(body, ['seed', 'events']);
      const seed = body.seed ?? 'demo';
      if (!isSeedName(seed))
        throw invalidArgument(
          `seed must be one of ${SEED_NAMES.map((n) => `"${n}"`).join(', ')}, got ${JSON.stringify(seed)}.`,
        );
      const events = realisticCount(seed, body.events);
      resetAll(deps, seed, events);
      deps.events.entitiesReady();
      return state(deps);
    }
    case 'POST clock:advance': {
      const body = objectBody(await readJson());
      onlyFields(body, ['seconds']);
      const seconds = body.seconds;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
        throw invalidArgument('seconds must be a finite number of seconds, 0 or more (the clock never goes back).');
      deps.clock.advance(seconds);
      return { now: formatRfc3339(deps.clock.now()) };
    }
    case 'POST events:ingest': {
      const body = objectBody(await readJson());
      onlyFields(body, ['events']);
      const ingested = deps.events.ingest(body.events);
      return { ingested, events: deps.events.count() };
    }
    case 'POST entities:ingest': {
      const body = objectBody(await readJson());
      return { ingested: deps.events.ingestEntities(body) };
    }
    case 'GET faults':
      return { rules: deps.faults.rules() };
    case 'POST faults': {
      const body = await readJson();
      let rules: unknown = body;
      let seed: number | undefined;
      if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'rules' in body) {
        const b = body as Record<string, unknown>;
        onlyFields(b, ['rules', 'seed']);
        rules = b.rules;
        if (b.seed !== undefined) {
          if (typeof b.seed !== 'number' || !Number.isInteger(b.seed))
            throw invalidArgument('seed must be an integer.');
          seed = b.seed;
        }
      }
      let validated: FaultRule[];
      try {
        validated = validateFaultRules(rules);
      } catch (err) {
        throw invalidArgument(`Invalid fault rules: ${(err as Error).message}.`);
      }
      deps.faults.configure(validated, seed);
      return { rules: deps.faults.rules() };
    }
    case 'GET ratelimits':
      return deps.limiter.describe();
    case 'POST ratelimits': {
      const body = await readJson();
      try {
        deps.limiter.configure(body);
      } catch (err) {
        throw invalidArgument(`Invalid rate-limit settings: ${(err as Error).message}.`);
      }
      return deps.limiter.describe();
    }
    default:
      if (
        ['state', 'reset', 'clock:advance', 'events:ingest', 'entities:ingest', 'faults', 'ratelimits'].includes(action)
      ) {
        throw new ApiError('UNIMPLEMENTED', `${httpMethod} is not supported on /sandbox/v1/${action}.`);
      }
      throw notFound(
        `There is no admin call /sandbox/v1/${action}. Known: GET state, POST reset, POST clock:advance, POST events:ingest, POST entities:ingest, GET|POST faults, GET|POST ratelimits.`,
      );
  }
}
