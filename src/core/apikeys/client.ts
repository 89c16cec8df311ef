// API Keys v2 over REST (reference B.1). Key strings are secrets: this module returns them to the
// caller and never logs them; the RestClient's retry hook only sees method names.
import { GoogleApiError, type StatusName } from '../google/errors';
import { serviceRestClient, type RestClient, type RestRequest, type ServiceRestOptions } from '../google/rest';
import { permissionSentence, requirementOf } from '../google/method-requirements';
import { pollOperation } from '../lro';
import { paginate, type Page } from '../paging';
import { formatKeyName, parseKeyName, parseOperationName } from '../names';
import {
  API_KEYS_ADMIN_ROLE,
  KEYS_LOCATION,
  SERVICE_ACCOUNT_BINDING_CONSTRAINT,
  UNDELETE_WINDOW_DAYS,
  type ApiKey,
  type ListKeysResponse,
  type LookupKeyResponse,
  type Operation,
  type Restrictions,
} from './types';

export const DEFAULT_API_KEYS_ENDPOINT = 'https://apikeys.googleapis.com';

export interface ApiKeysClientOptions extends ServiceRestOptions {
  /** First delay between operation polls. */
  pollInitialDelayMs?: number;
  pollMaxDelayMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface OperationCallOptions extends CallOptions {
  /** Every state of the operation seen while waiting; the first one carries its name. */
  onOperation?: (op: Operation) => void;
  /**
   * Follows the started operation instead of this client's own polling (the extension's one
   * operation runner, which reads it by name through whichever client the connection has then).
   */
  follow?: (first: Operation) => Promise<Operation>;
}

export interface CreateKeyRequest {
  /** Optional id (RFC-1034 label); the server assigns a UUID when absent. */
  keyId?: string;
  displayName?: string;
  /** Binds the key to this service account. */
  serviceAccountEmail?: string;
  restrictions?: Restrictions;
  annotations?: Record<string, string>;
}

export interface ListKeysOptions extends CallOptions {
  pageSize?: number;
  pageToken?: string;
  showDeleted?: boolean;
}

export interface UpdateKeyRequest {
  displayName?: string;
  restrictions?: Restrictions;
  annotations?: Record<string, string>;
}

/** The key changed on the server since it was read (etag mismatch): read it again, never overwrite blindly. */
export class EtagConflictError extends GoogleApiError {
  constructor(
    readonly keyName: string,
    cause: GoogleApiError,
  ) {
    super(cause.status, cause.message, cause.options);
  }
}

function keyPath(name: string): string {
  const parsed = parseKeyName(name);
  return `/v2/projects/${encodeURIComponent(parsed.project)}/locations/${KEYS_LOCATION}/keys/${encodeURIComponent(parsed.key)}`;
}

function parentPath(project: string): string {
  if (!project || project.includes('/')) throw new TypeError(`"${project}" is not a project ID or number.`);
  return `/v2/projects/${encodeURIComponent(project)}/locations/${KEYS_LOCATION}/keys`;
}

function keyFromResponse(op: Operation): ApiKey {
  const response = { ...(op.response ?? {}) } as Record<string, unknown>;
  delete response['@type'];
  if (typeof response['name'] !== 'string') {
    throw new GoogleApiError('INTERNAL', `Operation ${op.name} finished without a key in its response.`);
  }
  return response as unknown as ApiKey;
}

function isEtagConflict(err: unknown): err is GoogleApiError {
  if (!(err instanceof GoogleApiError)) return false;
  if (err.status === 'ABORTED') return true;
  return err.status === 'FAILED_PRECONDITION' && /etag/i.test(err.message);
}

export class ApiKeysClient {
  private readonly rest: RestClient;

  constructor(private readonly options: ApiKeysClientOptions) {
    this.rest = serviceRestClient(options, DEFAULT_API_KEYS_ENDPOINT);
  }

  get baseUrl(): string {
    return this.rest.base;
  }

  /** The service's time now, from its last answer's Date header: the undelete window runs on it. */
  serverNow(): number {
    return this.rest.serverNow();
  }

  /** Starts CreateKey; the operation's response is the key, key string included. */
  async startCreateKey(project: string, request: CreateKeyRequest, options: CallOptions = {}): Promise<Operation> {
    const body: Record<string, unknown> = {};
    if (request.displayName !== undefined) body['displayName'] = request.displayName;
    if (request.serviceAccountEmail) body['serviceAccountEmail'] = request.serviceAccountEmail;
    if (request.restrictions) body['restrictions'] = request.restrictions;
    if (request.annotations) body['annotations'] = request.annotations;
    return this.rest.request<Operation>({
      method: 'POST',
      path: parentPath(project),
      query: { keyId: request.keyId || undefined },
      body,
      // A repeated create would fail with ALREADY_EXISTS or make a second key.
      idempotent: false,
      methodName: 'apikeys.keys.create',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** Creates a key and waits for it. The result carries keyString: hand it to the user, never log it. */
  async createKey(project: string, request: CreateKeyRequest, options: OperationCallOptions = {}): Promise<ApiKey> {
    const op = await this.startCreateKey(project, request, options);
    return keyFromResponse(await this.wait(op, options, 'apikeys.keys.create'));
  }

  async listKeys(project: string, options: ListKeysOptions = {}): Promise<Page<ApiKey>> {
    const response = await this.rest.request<ListKeysResponse>({
      method: 'GET',
      path: parentPath(project),
      query: {
        pageSize: options.pageSize,
        pageToken: options.pageToken || undefined,
        showDeleted: options.showDeleted ? true : undefined,
      },
      methodName: 'apikeys.keys.list',
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { items: response.keys ?? [], nextPageToken: response.nextPageToken || undefined };
  }

  /** Every key of the project, fetching pages as the consumer iterates. */
  iterateKeys(
    project: string,
    options: Omit<ListKeysOptions, 'pageToken'> = {},
  ): AsyncGenerator<ApiKey, void, undefined> {
    return paginate(
      (pageToken, signal) =>
        this.listKeys(project, { ...options, ...(pageToken ? { pageToken } : {}), ...(signal ? { signal } : {}) }),
      options.signal,
    );
  }

  async getKey(name: string, options: CallOptions = {}): Promise<ApiKey> {
    return this.rest.request<ApiKey>({
      method: 'GET',
      path: keyPath(name),
      methodName: 'apikeys.keys.get',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** The secret key string; keep it only as long as needed. */
  async getKeyString(name: string, options: CallOptions = {}): Promise<string> {
    const response = await this.rest.request<{ keyString?: string }>({
      method: 'GET',
      path: `${keyPath(name)}/keyString`,
      methodName: 'apikeys.keys.getKeyString',
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!response.keyString) throw new GoogleApiError('INTERNAL', `The server returned no key string for ${name}.`);
    return response.keyString;
  }

  /**
   * Starts UpdateKey. `updateMask` names the fields to replace (restrictions are replaced whole, lists
   * included); `etag` makes the server refuse the change if the key changed since it was read.
   */
  async startUpdateKey(
    name: string,
    update: UpdateKeyRequest,
    updateMask: string[],
    etag: string | undefined,
    options: CallOptions = {},
  ): Promise<Operation> {
    if (updateMask.length === 0) throw new TypeError('updateMask must name at least one field.');
    const body: Record<string, unknown> = { name };
    if (update.displayName !== undefined) body['displayName'] = update.displayName;
    // An empty restrictions object clears every restriction when the mask names it.
    if (updateMask.includes('restrictions')) body['restrictions'] = update.restrictions ?? {};
    if (update.annotations !== undefined) body['annotations'] = update.annotations;
    if (etag) body['etag'] = etag;
    return this.etagChecked(name, {
      method: 'PATCH',
      path: keyPath(name),
      query: { updateMask: updateMask.join(',') },
      body,
      // With an etag a repeat is refused rather than applied twice; without one a patch is still
      // a full replacement of the masked fields, so repeating it is harmless.
      idempotent: true,
      methodName: 'apikeys.keys.patch',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  async updateKey(
    name: string,
    update: UpdateKeyRequest,
    updateMask: string[],
    etag: string | undefined,
    options: OperationCallOptions = {},
  ): Promise<ApiKey> {
    const op = await this.startUpdateKey(name, update, updateMask, etag, options);
    return keyFromResponse(await this.wait(op, options, 'apikeys.keys.patch'));
  }

  /** Replaces the key's restrictions (every list is replaced, not merged) if its etag still matches. */
  updateRestrictions(
    name: string,
    restrictions: Restrictions,
    etag: string | undefined,
    options: OperationCallOptions = {},
  ): Promise<ApiKey> {
    return this.updateKey(name, { restrictions }, ['restrictions'], etag, options);
  }

  rename(
    name: string,
    displayName: string,
    etag: string | undefined,
    options: OperationCallOptions = {},
  ): Promise<ApiKey> {
    return this.updateKey(name, { displayName }, ['display_name'], etag, options);
  }

  startDeleteKey(name: string, etag: string | undefined, options: CallOptions = {}): Promise<Operation> {
    return this.etagChecked(name, {
      method: 'DELETE',
      path: keyPath(name),
      query: { etag: etag || undefined },
      idempotent: false,
      methodName: 'apikeys.keys.delete',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** A change guarded by the key's etag: a refusal because the key changed says so by its own error. */
  private async etagChecked(name: string, request: RestRequest): Promise<Operation> {
    try {
      return await this.rest.request<Operation>(request);
    } catch (err) {
      if (isEtagConflict(err)) throw new EtagConflictError(name, err);
      throw err;
    }
  }

  /** Soft-deletes the key; it can be undeleted for 30 days. */
  async deleteKey(name: string, etag: string | undefined, options: OperationCallOptions = {}): Promise<ApiKey> {
    const op = await this.startDeleteKey(name, etag, options);
    return keyFromResponse(await this.wait(op, options, 'apikeys.keys.delete'));
  }

  async startUndeleteKey(name: string, options: CallOptions = {}): Promise<Operation> {
    return this.rest.request<Operation>({
      method: 'POST',
      path: `${keyPath(name)}:undelete`,
      body: {},
      idempotent: false,
      methodName: 'apikeys.keys.undelete',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  async undeleteKey(name: string, options: OperationCallOptions = {}): Promise<ApiKey> {
    const op = await this.startUndeleteKey(name, options);
    return keyFromResponse(await this.wait(op, options, 'apikeys.keys.undelete'));
  }

  /** Finds the key a key string belongs to. `name` is empty when the key was purged. */
  async lookupKey(keyString: string, options: CallOptions = {}): Promise<LookupKeyResponse> {
    if (!keyString.trim()) throw new TypeError('The key string is empty.');
    return this.rest.request<LookupKeyResponse>({
      method: 'GET',
      path: '/v2/keys:lookupKey',
      query: { keyString: keyString.trim() },
      methodName: 'apikeys.keys.lookupKey',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  async getOperation(name: string, options: CallOptions = {}): Promise<Operation> {
    const parsed = parseOperationName(name);
    if (parsed.kind !== 'global') throw new TypeError(`"${name}" is not an API Keys operation name (operations/ID).`);
    return this.rest.request<Operation>({
      method: 'GET',
      path: `/v2/operations/${encodeURIComponent(parsed.operation)}`,
      methodName: 'apikeys.operations.get',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** Polls an operation until it is done; throws OperationFailedError if it failed. */
  wait(first: Operation, options: OperationCallOptions = {}, method?: string): Promise<Operation> {
    if (options.follow) return options.follow(first);
    return pollOperation(first, {
      ...(method ? { method } : {}),
      get: (name, signal) => this.getOperation(name, signal ? { signal } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      initialDelayMs: this.options.pollInitialDelayMs ?? 500,
      maxDelayMs: this.options.pollMaxDelayMs ?? 5_000,
      ...(options.onOperation ? { onUpdate: options.onOperation } : {}),
    });
  }
}

/** Builds the full key name for a project and key id. */
export function keyName(project: string, keyId: string): string {
  return formatKeyName({ project, key: keyId });
}

/** Days left to undelete a key deleted at `deleteTime` (negative: too late). */
export function daysLeftToUndelete(deleteTime: string | undefined, now: number = Date.now()): number | undefined {
  if (!deleteTime) return undefined;
  const deleted = Date.parse(deleteTime);
  if (Number.isNaN(deleted)) return undefined;
  // The server's time is known to the second (its Date header), so a key deleted this very second
  // may look deleted in the future: never more than the whole window.
  return Math.min(UNDELETE_WINDOW_DAYS, UNDELETE_WINDOW_DAYS - (now - deleted) / 86_400_000);
}

/** Whole days left to undelete as people count them: 30 on the day of deletion, 1 on the last day. */
export function wholeDaysLeftToUndelete(deleteTime: string | undefined, now: number = Date.now()): number | undefined {
  const left = daysLeftToUndelete(deleteTime, now);
  return left === undefined ? undefined : Math.ceil(left);
}

/**
 * What to tell the user when the API Keys service refuses: the usual causes (missing role,
 * the org policy against service-account binding, a location other than global) with the fix.
 */
export function explainKeysError(err: unknown): string | undefined {
  if (!(err instanceof GoogleApiError)) return undefined;
  const status: StatusName = err.status;
  const message = err.message;
  if (err instanceof EtagConflictError) {
    return 'The key was changed by someone else since it was loaded. Its current state was reloaded; review it and apply your change again.';
  }
  if (
    /constraints\/iam\.managed\.disableServiceAccountApiKeyCreation|disableServiceAccountApiKeyCreation/i.test(
      message,
    ) ||
    (status === 'FAILED_PRECONDITION' && /service account/i.test(message) && /polic/i.test(message))
  ) {
    return `Binding keys to service accounts is blocked by the organization policy constraint ${SERVICE_ACCOUNT_BINDING_CONSTRAINT}. An organization policy administrator must add a rule with enforce: false on the organization, folder or project. Projects without an organization cannot bind keys.`;
  }
  if (status === 'PERMISSION_DENIED') {
    const requirement = requirementOf(err.options.method);
    if (requirement) return permissionSentence(requirement);
    return `You need the role ${API_KEYS_ADMIN_ROLE} on the project to manage its API keys (and roles/serviceusage.serviceUsageViewer to pick APIs). Ask a project owner to grant it, then refresh.`;
  }
  if (
    /location/i.test(message) &&
    /global/i.test(message) &&
    (status === 'INVALID_ARGUMENT' || status === 'NOT_FOUND')
  ) {
    return 'API keys exist only in the location "global"; use projects/PROJECT/locations/global/keys/KEY_ID.';
  }
  if (status === 'UNAUTHENTICATED')
    return 'Sign in again (gcloud auth application-default login) or choose a credentials file.';
  return undefined;
}
