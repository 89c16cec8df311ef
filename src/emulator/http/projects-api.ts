// Cloud Resource Manager v3 projects.search and projects.get (cloudresourcemanager.googleapis.com)
// at their real paths. The query language follows Google's documentation for the simple forms:
// `field:value` or `field=value`, case-insensitive, a trailing `*` for a prefix, `field:*` for
// "has the field", and several terms matching a project when any of them does.
import { ApiError, invalidArgument } from './errors';
import type { Route } from './route';
import { SANDBOX_PROJECTS, type SandboxProject } from '../projects-data/seed';

const MAX_PAGE_SIZE = 500;
const DEFAULT_PAGE_SIZE = 50;

type Term = { field: string; value: string };
type Getter = (p: SandboxProject) => string | undefined;

const FIELDS: Record<string, Getter> = {
  displayname: (p) => p.displayName,
  name: (p) => p.displayName,
  id: (p) => p.projectId,
  projectid: (p) => p.projectId,
  state: (p) => p.state,
  lifecyclestate: (p) => p.state,
  parent: (p) => p.parent,
  'parent.type': (p) => (p.parent.startsWith('folders/') ? 'folder' : 'organization'),
  'parent.id': (p) => p.parent.split('/')[1],
};

function getterFor(field: string): Getter {
  const key = field.toLowerCase();
  if (key.startsWith('labels.') && key.length > 'labels.'.length) {
    const label = field.slice('labels.'.length);
    return (p) => p.labels[label];
  }
  const getter = FIELDS[key];
  if (!getter)
    throw invalidArgument(
      `Invalid query: the field "${field}" cannot be searched. Use displayName, name, id, projectId, state, lifecycleState, parent, parent.type, parent.id or labels.KEY.`,
      'query',
    );
  return getter;
}

/** Splits the query into field/value terms; a quoted value may hold spaces; "OR" between terms is the default. */
export function parseProjectQuery(query: string): Term[] {
  const terms: Term[] = [];
  const tokens = query.match(/(?:[^\s"]+|"(?:[^"\\]|\\.)*")+/g) ?? [];
  for (const token of tokens) {
    if (token === 'OR') continue;
    const match = /^([A-Za-z][A-Za-z0-9_.-]*)[:=](.+)$/s.exec(token);
    if (!match) {
      throw invalidArgument(
        `Invalid query "${query}": "${token}" is not of the form field:value (for example displayName:prod* or id:my-project).`,
        'query',
      );
    }
    const raw = match[2];
    const value =
      raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    getterFor(match[1]);
    terms.push({ field: match[1], value });
  }
  return terms;
}

function termMatches(term: Term, project: SandboxProject): boolean {
  const actual = getterFor(term.field)(project);
  if (actual === undefined) return false;
  if (term.value === '*') return true;
  const have = actual.toLowerCase();
  const want = term.value.toLowerCase();
  return want.endsWith('*') ? have.startsWith(want.slice(0, -1)) : have === want;
}

function encodePageToken(query: string, offset: number): string {
  return Buffer.from(JSON.stringify({ q: query, o: offset })).toString('base64url');
}

function decodePageToken(token: string, query: string): number {
  try {
    const state = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { q?: unknown; o?: unknown };
    if (state.q === query && typeof state.o === 'number' && Number.isInteger(state.o) && state.o >= 0) return state.o;
  } catch {
    // refused below
  }
  throw invalidArgument(`Invalid page token "${token}": it does not belong to this search (same query).`, 'page_token');
}

function permissionDenied(id: string): ApiError {
  return new ApiError(
    'PERMISSION_DENIED',
    `Permission 'resourcemanager.projects.get' denied on resource '//cloudresourcemanager.googleapis.com/projects/${id}' (or it may not exist).`,
    [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'IAM_PERMISSION_DENIED',
        domain: 'cloudresourcemanager.googleapis.com',
        metadata: { permission: 'resourcemanager.projects.get', resource: `projects/${id}` },
      },
    ],
  );
}

function searchRoute(): Route {
  return {
    method: 'cloudresourcemanager.projects.search',
    handle: ({ params }) => {
      const query = (params.get('query') ?? '').trim();
      const pageSize = Math.min(
        params.int(['pageSize', 'page_size'], 0, 2 ** 31 - 1, 0) || DEFAULT_PAGE_SIZE,
        MAX_PAGE_SIZE,
      );
      const token = params.getAny('pageToken', 'page_token');
      params.rejectUnknown();
      const terms = parseProjectQuery(query);
      const offset = token ? decodePageToken(token, query) : 0;
      const matching = SANDBOX_PROJECTS.filter((p) => terms.length === 0 || terms.some((t) => termMatches(t, p))).sort(
        (a, b) => a.projectId.localeCompare(b.projectId),
      );
      const out: { projects?: SandboxProject[]; nextPageToken?: string } = {};
      const page = matching.slice(offset, offset + pageSize);
      if (page.length > 0) out.projects = page;
      if (offset + pageSize < matching.length) out.nextPageToken = encodePageToken(query, offset + pageSize);
      return out;
    },
  };
}

function getRoute(id: string): Route {
  return {
    method: 'cloudresourcemanager.projects.get',
    handle: ({ params }) => {
      params.rejectUnknown();
      // GetProject takes the project ID or its number.
      const found = SANDBOX_PROJECTS.find((p) => p.projectId === id || p.name === `projects/${id}`);
      if (!found) throw permissionDenied(id);
      return found;
    },
  };
}

/** Matches a path under /v3 to a Resource Manager projects method, or undefined when it is not one. */
export function matchProjectsRoute(httpMethod: string, segments: string[]): Route | undefined {
  if (segments[0] !== 'v3' || httpMethod !== 'GET') return undefined;
  if (segments.length === 2 && segments[1] === 'projects:search') return searchRoute();
  if (segments.length === 3 && segments[1] === 'projects' && segments[2] !== '') return getRoute(segments[2]);
  return undefined;
}
