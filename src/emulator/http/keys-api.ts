// API Keys v2 REST surface (apikeys.googleapis.com) at its real paths.
import { invalidArgument } from './errors';
import type { RequestContext, Route } from './route';
import { type KeyStore, parseUpdateMask } from '../keys-data/store';
import { parseKeyBody } from '../keys-data/validate';

const MAX_PAGE_SIZE = 300;

function checkProject(project: string): void {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$|^\d+$/.test(project))
    throw invalidArgument(`"${project}" is not a valid project ID or number.`, 'parent');
}

function checkLocation(location: string): void {
  if (location !== 'global') {
    throw invalidArgument(
      `API keys exist only in location "global", not "${location}". Use projects/PROJECT/locations/global.`,
      'parent',
    );
  }
}

function encodePageToken(state: { p: string; d: boolean; o: number }): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decodePageToken(token: string, parent: string, showDeleted: boolean): number {
  try {
    const state = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      p?: unknown;
      d?: unknown;
      o?: unknown;
    };
    if (
      state.p === parent &&
      state.d === showDeleted &&
      typeof state.o === 'number' &&
      Number.isInteger(state.o) &&
      state.o >= 0
    )
      return state.o;
  } catch {
    // fall through to the error below
  }
  throw invalidArgument(
    `Invalid page token "${token}": it does not belong to this list request (same parent and showDeleted).`,
    'page_token',
  );
}

/** Matches a path under /v2 to an API Keys method, or undefined when it is not one. */
export function matchKeysRoute(httpMethod: string, segments: string[], store: KeyStore): Route | undefined {
  if (segments[0] !== 'v2') return undefined;
  const s = segments.slice(1);
  if (s.length === 1 && s[0] === 'keys:lookupKey' && httpMethod === 'GET') {
    return {
      method: 'apikeys.keys.lookupKey',
      handle: ({ params }) => {
        const keyString = params.getAny('keyString', 'key_string');
        // Seed 001: "The request can also carry an etag"; a lookup changes nothing, so it is accepted as is.
        params.get('etag');
        params.rejectUnknown();
        if (!keyString) throw invalidArgument('keyString is required.', 'key_string');
        return store.lookup(keyString);
      },
    };
  }
  if (s.length === 2 && s[0] === 'operations' && httpMethod === 'GET') {
    return bareRoute('apikeys.operations.get', NO_PATH_CHECK, () => store.getOperation(`operations/${s[1]}`));
  }
  if (s[0] !== 'projects' || s[2] !== 'locations' || s.length < 5) return undefined;
  const project = s[1];
  const location = s[3];
  const check = (): void => {
    checkProject(project);
    checkLocation(location);
  };
  if (s.length === 5 && s[4] === 'keys') return keysCollectionRoute(httpMethod, store, project, check);
  if (s[4] !== 'keys' || s.length < 6 || s.length > 7) return undefined;
  let keyId = s[5];
  if (s.length === 7) {
    if (s[6] !== 'keyString' || httpMethod !== 'GET') return undefined;
    return bareRoute('apikeys.keys.getKeyString', check, () => store.getKeyString(project, keyId));
  }
  if (keyId.endsWith(':undelete')) {
    if (httpMethod !== 'POST') return undefined;
    keyId = keyId.slice(0, -':undelete'.length);
    return {
      method: 'apikeys.keys.undelete',
      handle: async (ctx) => {
        ctx.params.rejectUnknown();
        check();
        const body = await ctx.readJson();
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          throw invalidArgument('The undelete request body must be a JSON object ({}).');
        for (const k of Object.keys(body)) {
          if (k !== 'name')
            throw invalidArgument(`Invalid JSON payload received. Unknown name "${k}": Cannot find field.`, k);
        }
        return store.undelete(project, keyId);
      },
    };
  }
  if (keyId.includes(':')) return undefined;
  return singleKeyRoute(httpMethod, store, project, keyId, check);
}

const NO_PATH_CHECK = (): void => undefined;

/** A route that takes no query parameters: refuses any, checks the path's project and location, answers. */
function bareRoute(method: string, check: () => void, answer: () => unknown): Route {
  return {
    method,
    handle: ({ params }) => {
      params.rejectUnknown();
      check();
      return answer();
    },
  };
}

/** projects/P/locations/L/keys: create (POST) and list (GET). */
function keysCollectionRoute(
  httpMethod: string,
  store: KeyStore,
  project: string,
  check: () => void,
): Route | undefined {
  if (httpMethod === 'POST') {
    return {
      method: 'apikeys.keys.create',
      handle: async (ctx: RequestContext) => {
        const keyId = ctx.params.getAny('keyId', 'key_id');
        ctx.params.rejectUnknown();
        check();
        const input = parseKeyBody(await ctx.readJson());
        return store.create(project, keyId === '' ? undefined : keyId, input);
      },
    };
  }
  if (httpMethod === 'GET') {
    return {
      method: 'apikeys.keys.list',
      handle: ({ params }) => {
        // AIP-158: a page size above the maximum is coerced down, a negative one is an error.
        const pageSize = Math.min(
          params.int(['pageSize', 'page_size'], 0, 2 ** 31 - 1, 0) || MAX_PAGE_SIZE,
          MAX_PAGE_SIZE,
        );
        const pageToken = params.getAny('pageToken', 'page_token') ?? '';
        const showDeleted = params.bool(['showDeleted', 'show_deleted']);
        params.rejectUnknown();
        check();
        const parent = `projects/${project}/locations/global`;
        const offset = pageToken === '' ? 0 : decodePageToken(pageToken, parent, showDeleted);
        const all = store.list(project, showDeleted);
        const keys = all.slice(offset, offset + pageSize);
        const out: { keys: unknown[]; nextPageToken?: string } = { keys };
        if (offset + pageSize < all.length)
          out.nextPageToken = encodePageToken({ p: parent, d: showDeleted, o: offset + pageSize });
        return out;
      },
    };
  }
  return undefined;
}

/** projects/P/locations/L/keys/K: get, patch and delete. */
function singleKeyRoute(
  httpMethod: string,
  store: KeyStore,
  project: string,
  keyId: string,
  check: () => void,
): Route | undefined {
  switch (httpMethod) {
    case 'GET':
      return bareRoute('apikeys.keys.get', check, () => store.get(project, keyId));
    case 'PATCH':
      return {
        method: 'apikeys.keys.patch',
        handle: async (ctx) => {
          const mask = parseUpdateMask(ctx.params.getAny('updateMask', 'update_mask'));
          ctx.params.rejectUnknown();
          check();
          const body = await ctx.readJson();
          const input = parseKeyBody(body);
          // proto3 fields without presence (strings, maps) count as set only when not empty, so the
          // official client's ever-present "annotations":{} does not wipe annotations without a mask.
          const present = new Set<string>();
          if (input.displayName) present.add('displayName');
          if (input.annotations && Object.keys(input.annotations).length > 0) present.add('annotations');
          if (input.restrictions) present.add('restrictions');
          return store.update(project, keyId, input, mask, present);
        },
      };
    case 'DELETE':
      return {
        method: 'apikeys.keys.delete',
        handle: ({ params }) => {
          const etag = params.get('etag');
          params.rejectUnknown();
          check();
          return store.delete(project, keyId, etag);
        },
      };
    default:
      return undefined;
  }
}
