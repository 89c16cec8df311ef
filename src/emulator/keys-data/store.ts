// In-memory API Keys v2 state: keys per project, soft deletion on the sandbox clock, operations.
import { createHash } from 'node:crypto';
import { ApiError, failedPrecondition, invalidArgument, notFound } from '../http/errors';
import { createRng, uuid4, type Rng } from '../random';
import { formatRfc3339 } from '../events-data/time';
import type { SandboxClock, SeedName } from '../types';
import { demoKeys } from './seed';
import { validateKeyCombination, validateKeyId, type KeyInput, type Restrictions } from './validate';

export const UNDELETE_WINDOW_MS = 30 * 24 * 3600 * 1000;
const KEY_TYPE = 'type.googleapis.com/google.api.apikeys.v2.Key';
const EMPTY_TYPE = 'type.googleapis.com/google.protobuf.Empty';

interface StoredKey {
  project: string;
  keyId: string;
  uid: string;
  displayName: string;
  keyString: string;
  createTime: number;
  updateTime: number;
  deleteTime?: number;
  annotations: Record<string, string>;
  restrictions?: Restrictions;
  serviceAccountEmail?: string;
  etag: string;
}

/** The Key resource as the REST API renders it (never the key string). */
export interface KeyJson {
  name: string;
  uid: string;
  displayName: string;
  createTime: string;
  updateTime: string;
  deleteTime?: string;
  annotations: Record<string, string>;
  restrictions?: Restrictions;
  etag: string;
  serviceAccountEmail?: string;
}

export interface OperationJson {
  name: string;
  metadata: { '@type': string };
  done: boolean;
  response?: Record<string, unknown>;
}

interface StoredOperation {
  name: string;
  /** Sandbox time at which a poll reports the operation done. */
  doneAt: number;
  response: Record<string, unknown>;
}

export type MutableField = 'displayName' | 'restrictions' | 'annotations';
const MASK_FIELDS: Record<string, MutableField> = {
  display_name: 'displayName',
  displayName: 'displayName',
  restrictions: 'restrictions',
  annotations: 'annotations',
};

export function parseUpdateMask(mask: string | undefined): MutableField[] | '*' | undefined {
  if (mask === undefined || mask.trim() === '') return undefined;
  const fields = new Set<MutableField>();
  for (const raw of mask.split(',')) {
    const path = raw.trim();
    if (path === '*') return '*';
    // A sub-field such as restrictions.api_targets still replaces the whole restrictions message.
    const top = path.split('.')[0];
    const field = MASK_FIELDS[top];
    if (!field) {
      throw invalidArgument(
        `Invalid update mask path "${path}": only display_name, restrictions and annotations can be updated.`,
        'update_mask',
      );
    }
    fields.add(field);
  }
  return [...fields];
}

export class KeyStore {
  private keys = new Map<string, StoredKey>();
  private operations = new Map<string, StoredOperation>();
  private rng: Rng = createRng(1);
  /** Operations finish this long after they start, on the sandbox clock. */
  operationDelayMs = 0;

  constructor(private readonly clock: SandboxClock) {}

  reset(seed: SeedName): void {
    this.keys.clear();
    this.operations.clear();
    this.rng = createRng(0x6b657973);
    if (seed !== 'empty') {
      const now = this.clock.now();
      for (const k of demoKeys(now)) {
        const stored: StoredKey = {
          project: k.project,
          keyId: k.keyId,
          uid: uuid4(this.rng),
          displayName: k.displayName,
          keyString: this.newKeyString(),
          createTime: k.createTime,
          updateTime: k.deleteTime ?? k.createTime,
          annotations: k.annotations ?? {},
          etag: '',
        };
        if (k.deleteTime !== undefined) stored.deleteTime = k.deleteTime;
        if (k.restrictions) stored.restrictions = k.restrictions;
        if (k.serviceAccountEmail) stored.serviceAccountEmail = k.serviceAccountEmail;
        stored.etag = this.etagOf(stored);
        this.keys.set(this.keyName(stored.project, stored.keyId), stored);
      }
    }
  }

  counts(): Record<string, number> {
    let active = 0;
    let deleted = 0;
    for (const k of this.keys.values()) {
      if (k.deleteTime === undefined) active++;
      else deleted++;
    }
    return { keys: active, deletedKeys: deleted, keyOperations: this.operations.size };
  }

  private keyName(project: string, keyId: string): string {
    return `projects/${project}/locations/global/keys/${keyId}`;
  }

  private newKeyString(): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let s = 'AIza';
    for (let i = 0; i < 35; i++) s += alphabet[this.rng.int(64)];
    return s;
  }

  private etagOf(k: StoredKey): string {
    const h = createHash('sha256')
      .update(
        JSON.stringify([k.displayName, k.restrictions ?? null, k.annotations, k.updateTime, k.deleteTime ?? null]),
      )
      .digest('base64')
      .slice(0, 22);
    return `W/"${h}=="`;
  }

  private render(k: StoredKey): KeyJson {
    const json: KeyJson = {
      name: this.keyName(k.project, k.keyId),
      uid: k.uid,
      displayName: k.displayName,
      createTime: formatRfc3339(k.createTime),
      updateTime: formatRfc3339(k.updateTime),
      annotations: { ...k.annotations },
      etag: k.etag,
    };
    if (k.deleteTime !== undefined) json.deleteTime = formatRfc3339(k.deleteTime);
    if (k.restrictions) json.restrictions = structuredClone(k.restrictions);
    if (k.serviceAccountEmail) json.serviceAccountEmail = k.serviceAccountEmail;
    return json;
  }

  /** A key deleted longer ago than the undelete window is purged: invisible to every call but undelete. */
  private isPurged(k: StoredKey): boolean {
    return k.deleteTime !== undefined && this.clock.now() - k.deleteTime > UNDELETE_WINDOW_MS;
  }

  private find(project: string, keyId: string): StoredKey {
    const k = this.keys.get(this.keyName(project, keyId));
    if (!k || this.isPurged(k)) throw notFound(`Key "${this.keyName(project, keyId)}" was not found.`);
    return k;
  }

  private startOperation(response: Record<string, unknown>): OperationJson {
    const name = `operations/akmf.p7-${this.rng.hex(6)}-${uuid4(this.rng)}`;
    const op: StoredOperation = { name, doneAt: this.clock.now() + this.operationDelayMs, response };
    this.operations.set(name, op);
    return this.renderOperation(op);
  }

  private renderOperation(op: StoredOperation): OperationJson {
    const done = this.clock.now() >= op.doneAt;
    const json: OperationJson = { name: op.name, metadata: { '@type': EMPTY_TYPE }, done };
    if (done) json.response = op.response;
    return json;
  }

  getOperation(name: string): OperationJson {
    const op = this.operations.get(name);
    if (!op) throw notFound(`Operation "${name}" was not found.`);
    return this.renderOperation(op);
  }

  create(project: string, keyId: string | undefined, input: KeyInput): OperationJson {
    if (keyId !== undefined) validateKeyId(keyId);
    validateKeyCombination(input.serviceAccountEmail, input.restrictions);
    const id = keyId ?? uuid4(this.rng);
    const existing = this.keys.get(this.keyName(project, id));
    if (existing)
      throw new ApiError(
        'ALREADY_EXISTS',
        `Key "${this.keyName(project, id)}" already exists${existing.deleteTime !== undefined ? ' (deleted; undelete it or choose another key ID)' : ''}.`,
      );
    const now = this.clock.now();
    const k: StoredKey = {
      project,
      keyId: id,
      uid: uuid4(this.rng),
      displayName: input.displayName ?? '',
      keyString: this.newKeyString(),
      createTime: now,
      updateTime: now,
      annotations: input.annotations ?? {},
      etag: '',
    };
    if (input.restrictions) k.restrictions = input.restrictions;
    if (input.serviceAccountEmail) k.serviceAccountEmail = input.serviceAccountEmail;
    k.etag = this.etagOf(k);
    this.keys.set(this.keyName(project, id), k);
    return this.startOperation({ '@type': KEY_TYPE, ...this.render(k), keyString: k.keyString });
  }

  list(project: string, showDeleted: boolean): KeyJson[] {
    const out: KeyJson[] = [];
    for (const k of this.keys.values()) {
      if (k.project !== project || this.isPurged(k)) continue;
      if (k.deleteTime !== undefined && !showDeleted) continue;
      out.push(this.render(k));
    }
    return out;
  }

  get(project: string, keyId: string): KeyJson {
    return this.render(this.find(project, keyId));
  }

  getKeyString(project: string, keyId: string): { keyString: string } {
    const k = this.find(project, keyId);
    if (k.deleteTime !== undefined)
      throw failedPrecondition(`Key "${this.keyName(project, keyId)}" is deleted; undelete it to read its key string.`);
    return { keyString: k.keyString };
  }

  update(
    project: string,
    keyId: string,
    input: KeyInput,
    mask: MutableField[] | '*' | undefined,
    presentFields: Set<string>,
  ): OperationJson {
    const k = this.find(project, keyId);
    if (k.deleteTime !== undefined)
      throw failedPrecondition(`Key "${this.keyName(project, keyId)}" is deleted; undelete it before updating it.`);
    if (input.etag !== undefined && input.etag !== k.etag) {
      throw new ApiError(
        'ABORTED',
        `The etag "${input.etag}" does not match the current etag of key "${this.keyName(project, keyId)}"; it was changed by someone else. Read the key again and retry.`,
      );
    }
    const fields: MutableField[] =
      mask === '*'
        ? ['displayName', 'restrictions', 'annotations']
        : (mask ?? (['displayName', 'restrictions', 'annotations'] as const).filter((f) => presentFields.has(f)));
    const nextRestrictions = fields.includes('restrictions') ? input.restrictions : k.restrictions;
    validateKeyCombination(k.serviceAccountEmail, nextRestrictions);
    // Replace, never merge: the lists supplied become the key's whole lists.
    if (fields.includes('displayName')) k.displayName = input.displayName ?? '';
    if (fields.includes('annotations')) k.annotations = input.annotations ?? {};
    if (fields.includes('restrictions')) {
      if (input.restrictions) k.restrictions = input.restrictions;
      else delete k.restrictions;
    }
    k.updateTime = Math.max(this.clock.now(), k.updateTime + 1);
    k.etag = this.etagOf(k);
    return this.startOperation({ '@type': KEY_TYPE, ...this.render(k) });
  }

  delete(project: string, keyId: string, etag: string | undefined): OperationJson {
    const k = this.find(project, keyId);
    if (etag !== undefined && etag !== '' && etag !== k.etag) {
      throw new ApiError(
        'ABORTED',
        `The etag "${etag}" does not match the current etag of key "${this.keyName(project, keyId)}"; read the key again and retry.`,
      );
    }
    if (k.deleteTime !== undefined)
      throw failedPrecondition(`Key "${this.keyName(project, keyId)}" is already deleted.`);
    const now = this.clock.now();
    k.deleteTime = now;
    k.updateTime = now;
    k.etag = this.etagOf(k);
    return this.startOperation({ '@type': KEY_TYPE, ...this.render(k) });
  }

  undelete(project: string, keyId: string): OperationJson {
    const name = this.keyName(project, keyId);
    const k = this.keys.get(name);
    if (!k) throw notFound(`Key "${name}" was not found.`);
    if (k.deleteTime === undefined)
      throw failedPrecondition(`Key "${name}" is not deleted, so it cannot be undeleted.`);
    if (this.isPurged(k)) {
      const days = Math.floor((this.clock.now() - k.deleteTime) / 86_400_000);
      throw failedPrecondition(
        `Key "${name}" was deleted ${days} days ago; a key can be undeleted only within 30 days of deletion, so it cannot be undeleted.`,
      );
    }
    delete k.deleteTime;
    k.updateTime = this.clock.now();
    k.etag = this.etagOf(k);
    return this.startOperation({ '@type': KEY_TYPE, ...this.render(k) });
  }

  lookup(keyString: string): { parent: string; name: string } {
    for (const k of this.keys.values()) {
      if (k.keyString !== keyString) continue;
      const parent = `projects/${k.project}/locations/global`;
      // A purged key still tells its project, but no longer its name (API Keys v2 reference).
      if (this.isPurged(k)) return { parent, name: '' };
      return { parent, name: this.keyName(k.project, k.keyId) };
    }
    throw notFound('No API key matches this key string.');
  }
}
