// The legacy reference-list API beside the Search API (same host, same credentials): list, get,
// create, update and verify, answered from the event store, so a saved list changes the next
// udmSearch that tests `in %name` (the store's version is bumped on every change).
//
// Paths as the reference documents them: GET /v2/lists, GET /v2/lists/{name}, POST /v2/lists,
// PATCH /v2/lists?update_mask=... . The verify call's legacy path is NOT documented (the current
// Chronicle API has it as POST {instance}:verifyReferenceList); the sandbox serves it as
// POST /v2/lists:verifyReferenceList, the same custom-method form on the legacy collection.
import { ApiError, invalidArgument, notFound } from './errors';
import type { Params } from './request';
import type { Route } from './route';
import type { EventStore } from '../events-data/store';
import type { ReferenceList } from '../events-data/directory';
import { formatRfc3339 } from '../events-data/time';
import {
  checkReferenceListName,
  isReferenceListContentType,
  verifyReferenceListLines,
  type ReferenceListContentType,
} from '../../core/secops/reference-lists';

type Json = Record<string, unknown>;

/** A list's lines may total at most this many bytes (the current API documents 6 MB). */
const MAX_LIST_BYTES = 6 * 1024 * 1024;
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

type View = 'BASIC' | 'FULL';

function viewParam(params: Params, def: View): View {
  const v = params.get('view');
  if (v === undefined || v === '' || v === 'LIST_VIEW_UNSPECIFIED') return def;
  if (v === 'BASIC' || v === 'FULL') return v;
  throw invalidArgument(`Invalid value at 'view' (type.googleapis.com/ListView), "${v}": use BASIC or FULL.`, 'view');
}

function render(list: ReferenceList, view: View): Json {
  const out: Json = {
    name: list.name,
    description: list.description,
    createTime: formatRfc3339(list.createTime),
    contentType: list.contentType,
  };
  if (view === 'FULL') out.lines = list.lines;
  return out;
}

function pageToken(afterName: string): string {
  return Buffer.from(JSON.stringify({ after: afterName }), 'utf8').toString('base64url');
}

function readPageToken(token: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof parsed.after === 'string') return parsed.after;
  } catch {
    // reported below
  }
  throw invalidArgument(`Invalid page_token "${token}": pass the nextPageToken of the previous page unchanged.`);
}

/** Field names of a ReferenceList in a request body, with their proto spellings. */
const BODY_FIELDS: Record<string, 'name' | 'description' | 'lines' | 'contentType' | 'createTime'> = {
  name: 'name',
  description: 'description',
  lines: 'lines',
  contentType: 'contentType',
  content_type: 'contentType',
  createTime: 'createTime',
  create_time: 'createTime',
};

interface ListBody {
  name?: string;
  description?: string;
  lines?: string[];
  contentType?: ReferenceListContentType;
}

function readListBody(body: unknown): ListBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidArgument('The request body must be a reference list object (name, description, lines, contentType).');
  const out: ListBody = {};
  for (const [key, value] of Object.entries(body as Json)) {
    const field = BODY_FIELDS[key];
    if (!field)
      throw invalidArgument(
        `Invalid JSON payload received. Unknown name "${key}": Cannot find field. A reference list has name, description, lines and contentType.`,
        key,
      );
    if (field === 'createTime') continue; // output only
    if (field === 'lines') {
      if (!Array.isArray(value) || !value.every((l) => typeof l === 'string'))
        throw invalidArgument('lines must be an array of strings.', 'lines');
      out.lines = value;
    } else if (field === 'contentType') {
      if (!isReferenceListContentType(value))
        throw invalidArgument(
          `Invalid value at 'content_type' (type.googleapis.com/ReferenceList.ContentType), ${JSON.stringify(value)}: use CONTENT_TYPE_DEFAULT_STRING, REGEX or CIDR.`,
          'content_type',
        );
      out.contentType = value;
    } else {
      if (typeof value !== 'string') throw invalidArgument(`${field} must be a string.`, field);
      out[field] = value;
    }
  }
  return out;
}

/** Refuses lines that are not valid for the type: 400 naming the first bad line. */
function checkLines(type: ReferenceListContentType, lines: readonly string[]): void {
  const size = lines.reduce((n, l) => n + Buffer.byteLength(l, 'utf8') + 1, 0);
  if (size > MAX_LIST_BYTES)
    throw invalidArgument(`The list is ${size} bytes; a reference list may hold at most 6 MB of lines.`, 'lines');
  const errors = verifyReferenceListLines(type, lines);
  if (errors.length === 0) return;
  const first = errors[0];
  const where = first.lineNumber === -1 ? 'the list' : `line ${first.lineNumber} ("${lines[first.lineNumber - 1]}")`;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more invalid line${errors.length > 2 ? 's' : ''})` : '';
  throw new ApiError('INVALID_ARGUMENT', `Invalid ${type} list: ${where}: ${first.errorMessage}${more}`, [
    {
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: errors.map((e) => ({
        field: e.lineNumber === -1 ? 'lines' : `lines[${e.lineNumber - 1}]`,
        description: e.errorMessage,
      })),
    },
  ]);
}

/** update_mask paths: "list.lines" as Google's samples send it, or the bare field name. */
function readMask(params: Params): Set<'description' | 'lines' | 'contentType'> | undefined {
  const raw = params.getAny('update_mask', 'updateMask');
  if (raw === undefined || raw.trim() === '') return undefined;
  const out = new Set<'description' | 'lines' | 'contentType'>();
  for (const part of raw.split(',')) {
    const path = part.trim().replace(/^list\./, '');
    if (path === 'lines') out.add('lines');
    else if (path === 'description') out.add('description');
    else if (path === 'content_type' || path === 'contentType') out.add('contentType');
    else
      throw invalidArgument(
        `update_mask: "${part.trim()}" cannot be updated; use list.lines, list.description or list.content_type.`,
        'update_mask',
      );
  }
  return out;
}

export function matchListsRoute(httpMethod: string, segments: string[], store: EventStore): Route | undefined {
  if (segments[0] !== 'v2') return undefined;
  const collection = segments.length === 2 && segments[1] === 'lists';
  if (collection && httpMethod === 'GET')
    return {
      method: 'secops.listReferenceLists',
      handle: ({ params }) => {
        const pageSize = params.int(['page_size', 'pageSize'], 0, Number.MAX_SAFE_INTEGER, 0) || DEFAULT_PAGE_SIZE;
        const token = params.getAny('page_token', 'pageToken');
        const view = viewParam(params, 'BASIC');
        params.rejectUnknown();
        const size = Math.min(pageSize, MAX_PAGE_SIZE);
        let all = store.referenceLists();
        if (token) {
          const after = readPageToken(token);
          all = all.filter((l) => l.name > after);
        }
        const page = all.slice(0, size);
        const out: Json = {};
        if (page.length > 0) out.lists = page.map((l) => render(l, view));
        if (all.length > size) out.nextPageToken = pageToken(page[page.length - 1].name);
        return out;
      },
    };
  if (collection && httpMethod === 'POST')
    return {
      method: 'secops.createReferenceList',
      handle: async (ctx) => {
        const { params } = ctx;
        params.rejectUnknown();
        const body = readListBody(await ctx.readJson());
        const name = body.name ?? '';
        const nameProblem = checkReferenceListName(name);
        if (nameProblem) throw invalidArgument(nameProblem, 'name');
        if (body.description === undefined || body.description.trim() === '')
          throw invalidArgument('description is required: say what the list holds.', 'description');
        const contentType = body.contentType ?? 'CONTENT_TYPE_DEFAULT_STRING';
        const lines = body.lines ?? [];
        checkLines(contentType, lines);
        const created = store.createReferenceList({ name, description: body.description, lines, contentType });
        if (!created)
          throw new ApiError('ALREADY_EXISTS', `A reference list named "${name}" already exists.`, [
            {
              '@type': 'type.googleapis.com/google.rpc.ResourceInfo',
              resourceType: 'ReferenceList',
              resourceName: name,
            },
          ]);
        return render(created, 'FULL');
      },
    };
  if (collection && httpMethod === 'PATCH')
    return {
      method: 'secops.updateReferenceList',
      handle: async (ctx) => {
        const { params } = ctx;
        const mask = readMask(params);
        params.rejectUnknown();
        const body = readListBody(await ctx.readJson());
        if (body.name === undefined || body.name === '')
          throw invalidArgument('name is required: the body is the list with its name.', 'name');
        const old = store.referenceList(body.name);
        if (!old) throw notFound(`Reference list "${body.name}" was not found.`);
        const fields = mask ?? new Set((['description', 'lines', 'contentType'] as const).filter((f) => f in body));
        if (fields.size === 0)
          throw invalidArgument('Nothing to update: set update_mask (list.lines, list.description).', 'update_mask');
        const change: Partial<Pick<ReferenceList, 'description' | 'lines' | 'contentType'>> = {};
        if (fields.has('description')) {
          if (body.description === undefined || body.description.trim() === '')
            throw invalidArgument('description must not be empty.', 'description');
          change.description = body.description;
        }
        if (fields.has('contentType')) change.contentType = body.contentType ?? 'CONTENT_TYPE_DEFAULT_STRING';
        if (fields.has('lines')) change.lines = body.lines ?? [];
        checkLines(change.contentType ?? old.contentType, change.lines ?? old.lines);
        return render(store.updateReferenceList(body.name, change)!, 'FULL');
      },
    };
  if (segments.length === 2 && segments[1] === 'lists:verifyReferenceList' && httpMethod === 'POST')
    return {
      method: 'secops.verifyReferenceList',
      handle: async (ctx) => {
        const { params } = ctx;
        params.rejectUnknown();
        const body = await ctx.readJson();
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          throw invalidArgument('The request body must be an object with contentType and lines.');
        const b = body as Json;
        for (const k of Object.keys(b))
          if (!['contentType', 'content_type', 'lines'].includes(k))
            throw invalidArgument(`Invalid JSON payload received. Unknown name "${k}": Cannot find field.`, k);
        const type = b.contentType ?? b.content_type ?? 'CONTENT_TYPE_DEFAULT_STRING';
        if (!isReferenceListContentType(type))
          throw invalidArgument(
            `Invalid value at 'content_type', ${JSON.stringify(type)}: use CONTENT_TYPE_DEFAULT_STRING, REGEX or CIDR.`,
            'content_type',
          );
        const lines = b.lines ?? [];
        if (!Array.isArray(lines) || !lines.every((l) => typeof l === 'string'))
          throw invalidArgument('lines must be an array of strings.', 'lines');
        const errors = verifyReferenceListLines(type, lines);
        return errors.length === 0 ? { success: true } : { errors };
      },
    };
  if (segments.length === 3 && segments[1] === 'lists' && httpMethod === 'GET') {
    const name = segments[2];
    return {
      method: 'secops.getReferenceList',
      handle: ({ params }) => {
        const view = viewParam(params, 'FULL');
        params.rejectUnknown();
        const list = store.referenceList(name);
        if (!list) throw notFound(`Reference list "${name}" was not found.`);
        return render(list, view);
      },
    };
  }
  return undefined;
}
