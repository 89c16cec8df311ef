// The standard services the model registry exposes beside its own: google.longrunning.Operations,
// google.iam.v1.IAMPolicy and google.cloud.location.Locations.
import {
  ResourceNameError,
  parseEndpointName,
  parseLocationName,
  parseModelVersionName,
  parseOperationName,
} from '../../core/names';
import type { ProtoObject } from '../../core/proto';
import { requireField, maskPaths, type ServiceHandlers } from './context';
import { aborted, invalidArgument, notFound } from './errors';
import { compileFilter } from './filter';
import type { IamRequests, LocationsRequests, OperationsRequests } from './messages';
import { LOCATIONS, canonicalProject, checkLocation, endpointKey, modelKey, type ModelStore } from './store';
import { paginate, parseName } from './util';

/** How long WaitOperation blocks at most when the caller gives no timeout (real milliseconds). */
const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 120_000;

export function operationsHandlers(): ServiceHandlers<OperationsRequests> {
  const opName = (value: unknown): string => {
    parseName('name', value, parseOperationName);
    return value as string;
  };
  return {
    GetOperation(req, { ops }) {
      return ops.message(ops.get(opName(req.name)));
    },

    ListOperations(req, { ops }) {
      requireField(req.name, 'name');
      const name = String(req.name);
      if (!/^projects\/[^/]+\/locations\/[^/]+(\/(models|endpoints)\/[^/]+)?$/.test(name)) {
        throw invalidArgument(
          `name must be a location or a model/endpoint name to list its operations, got "${name}".`,
          [{ field: 'name', description: 'not a location or resource' }],
        );
      }
      const predicate = compileFilter<{ done: boolean }>(
        req.filter,
        (r, path) => (path[0] === 'done' ? { kind: 'scalar', value: String(r.done) } : undefined),
        (path) => path.length === 1 && path[0] === 'done',
      );
      const canonical = name.replace(/^projects\/([^/]+)/, (_, p: string) => `projects/${canonicalProject(p)}`);
      const records = ops.list(canonical).filter(predicate);
      const { page, nextPageToken } = paginate(records, req, ['ListOperations', canonical, req.filter ?? '']);
      return { operations: page.map((r) => ops.message(r)), nextPageToken, unreachable: [] };
    },

    DeleteOperation(req, { ops }) {
      ops.delete(opName(req.name));
      return {};
    },

    CancelOperation(req, { ops }) {
      ops.cancel(opName(req.name));
      return {};
    },

    async WaitOperation(req, { ops }) {
      const name = opName(req.name);
      const timeout = req.timeout;
      const ms = timeout
        ? Number(timeout.seconds ?? 0) * 1000 + Math.floor(Number(timeout.nanos ?? 0) / 1e6)
        : DEFAULT_WAIT_MS;
      if (ms < 0)
        throw invalidArgument('timeout must not be negative.', [{ field: 'timeout', description: 'negative' }]);
      return ops.message(await ops.wait(name, Math.min(ms, MAX_WAIT_MS)));
    },
  };
}

/** The resource a policy belongs to; only models and endpoints carry policies here. */
function policyResource(store: ModelStore, resource: unknown): string {
  requireField(resource, 'resource');
  const text = String(resource);
  try {
    if (/\/models\//.test(text)) {
      const n = parseModelVersionName(text);
      checkLocation(n.location);
      store.getModel(n.project, n.location, n.model);
      return modelKey(n.project, n.location, n.model);
    }
    if (/\/endpoints\//.test(text)) {
      const n = parseEndpointName(text);
      checkLocation(n.location);
      store.getEndpoint(n.project, n.location, n.endpoint);
      return endpointKey(n.project, n.location, n.endpoint);
    }
  } catch (err) {
    if (err instanceof ResourceNameError)
      throw invalidArgument(`Invalid resource: ${err.message}`, [{ field: 'resource', description: err.message }]);
    throw err;
  }
  throw invalidArgument(
    `resource "${text}" is not a model or an endpoint; access policies are kept on models and endpoints.`,
    [{ field: 'resource', description: 'unsupported resource type' }],
  );
}

const MEMBER =
  /^(allUsers|allAuthenticatedUsers|(user|serviceAccount|group|domain|principal|principalSet|deleted:user|deleted:serviceAccount|deleted:group):\S+)$/;
const ROLE = /^(roles\/[A-Za-z0-9_.]+|(projects|organizations)\/[^/]+\/roles\/[A-Za-z0-9_.]+)$/;
const PERMISSION = /^[a-z][a-zA-Z0-9]*\.[a-zA-Z0-9]+\.[a-zA-Z0-9]+$/;

/** An empty policy's etag, as the real service returns it (base64 "ACAB"). */
const EMPTY_ETAG = Buffer.from('ACAB', 'base64');

function etagOf(seq: number): Buffer {
  return Buffer.from(`BwY${seq.toString(36).padStart(5, '0')}`, 'utf8');
}

export function iamHandlers(): ServiceHandlers<IamRequests> {
  return {
    GetIamPolicy(req, { store }) {
      const key = policyResource(store, req.resource);
      const requested = Number(req.options?.requestedPolicyVersion ?? 0);
      if (![0, 1, 3].includes(requested)) {
        throw invalidArgument(`options.requested_policy_version must be 0, 1 or 3, got ${requested}.`, [
          { field: 'options.requested_policy_version', description: 'unsupported version' },
        ]);
      }
      const stored = store.policies.get(key);
      if (!stored) return { version: 0, bindings: [], auditConfigs: [], etag: EMPTY_ETAG };
      return { ...stored.policy, etag: etagOf(stored.etagSeq) };
    },

    SetIamPolicy(req, { store }) {
      const key = policyResource(store, req.resource);
      if (!req.policy) throw invalidArgument('policy is required.', [{ field: 'policy', description: 'required' }]);
      const policy = req.policy;
      const stored = store.policies.get(key);
      const currentEtag = stored ? etagOf(stored.etagSeq) : EMPTY_ETAG;
      const givenEtag = policy.etag ? Buffer.from(policy.etag) : undefined;
      if (givenEtag && givenEtag.length > 0 && !givenEtag.equals(currentEtag)) {
        throw aborted(
          'There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.',
        );
      }
      const paths = maskPaths(req.updateMask);
      for (const p of paths) {
        if (!['bindings', 'etag', 'auditConfigs'].includes(p)) {
          throw invalidArgument(
            `update_mask path "${p}" is not part of a policy; use bindings, etag or audit_configs.`,
            [{ field: 'update_mask', description: `unknown path ${p}` }],
          );
        }
      }
      const bindings = policy.bindings ?? [];
      let needsConditions = false;
      bindings.forEach((b, i) => {
        if (!ROLE.test(b.role ?? '')) {
          throw invalidArgument(
            `policy.bindings[${i}].role "${b.role}" is not a role name such as roles/aiplatform.user.`,
            [{ field: `policy.bindings[${i}].role`, description: 'invalid role' }],
          );
        }
        requireField(b.members, `policy.bindings[${i}].members`);
        for (const m of b.members) {
          if (!MEMBER.test(m)) {
            throw invalidArgument(
              `policy.bindings[${i}].members has "${m}", which is not a principal such as user:alice@example.com.`,
              [{ field: `policy.bindings[${i}].members`, description: `invalid member ${m}` }],
            );
          }
        }
        if (b.condition?.expression) needsConditions = true;
      });
      const version = Number(policy.version ?? 0);
      if (needsConditions && version !== 3) {
        throw invalidArgument('Policies with conditional bindings need policy.version 3.', [
          { field: 'policy.version', description: 'must be 3 with conditions' },
        ]);
      }
      const next: ProtoObject = {
        version: needsConditions ? 3 : Math.max(1, version === 3 ? 3 : 1),
        bindings: paths.length && !paths.includes('bindings') ? (stored?.policy.bindings ?? []) : bindings,
        auditConfigs:
          paths.length && !paths.includes('auditConfigs')
            ? (stored?.policy.auditConfigs ?? [])
            : (policy.auditConfigs ?? []),
      };
      const seq = (stored?.etagSeq ?? 0) + 1;
      store.policies.set(key, { policy: next, etagSeq: seq });
      return { ...next, etag: etagOf(seq) };
    },

    TestIamPermissions(req, { store }) {
      policyResource(store, req.resource);
      const permissions = req.permissions ?? [];
      requireField(permissions, 'permissions');
      for (const p of permissions) {
        if (!PERMISSION.test(p)) {
          throw invalidArgument(
            `Permission "${p}" is not valid: permissions look like aiplatform.models.get and have no wildcards.`,
            [{ field: 'permissions', description: `invalid permission ${p}` }],
          );
        }
      }
      // The sandbox's caller owns the project: every Vertex AI permission is granted.
      return { permissions: permissions.filter((p) => p.startsWith('aiplatform.')) };
    },
  };
}

export function locationsHandlers(): ServiceHandlers<LocationsRequests> {
  const message = (project: string, l: (typeof LOCATIONS)[number]): ProtoObject => ({
    name: `projects/${project}/locations/${l.id}`,
    locationId: l.id,
    displayName: l.displayName,
    // Google's location services label each region with the region it names.
    labels: { 'cloud.googleapis.com/region': l.id },
  });
  return {
    ListLocations(req) {
      requireField(req.name, 'name');
      const m = /^projects\/([a-z0-9][a-z0-9.:-]*)$/.exec(String(req.name));
      if (!m)
        throw invalidArgument(`name must be projects/PROJECT, got "${req.name}".`, [
          { field: 'name', description: 'not a project name' },
        ]);
      const project = m[1];
      const predicate = compileFilter<(typeof LOCATIONS)[number]>(
        req.filter,
        (l, path) =>
          path[0] === 'location_id' || path[0] === 'locationId'
            ? { kind: 'scalar', value: l.id }
            : { kind: 'scalar', value: l.displayName },
        (path) => path.length === 1 && ['location_id', 'locationId', 'display_name', 'displayName'].includes(path[0]),
      );
      const { page, nextPageToken } = paginate(LOCATIONS.filter(predicate), req, [
        'ListLocations',
        project,
        req.filter ?? '',
      ]);
      return { locations: page.map((l) => message(project, l)), nextPageToken };
    },

    GetLocation(req) {
      const n = parseName('name', req.name, parseLocationName);
      const location = LOCATIONS.find((l) => l.id === n.location);
      if (!location)
        throw notFound(`Location ${req.name} is not served.`, 'locations.googleapis.com/Location', String(req.name));
      return message(n.project, location);
    },
  };
}
