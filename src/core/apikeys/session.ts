// One restriction-editing session, apart from the webview so its rules are tested against the
// sandbox: validate before sending, send only real changes with the etag the user started from,
// and on a conflict return the newer server state instead of retrying or overwriting.
import { EtagConflictError, type ApiKeysClient, type OperationCallOptions } from './client';
import { describeChanges, diffRestrictions } from './describe';
import type { ApiKey, Restrictions } from './types';
import { normalizeRestrictions, validateRestrictions, type Problem } from './validation';

export type SaveOutcome =
  | { kind: 'invalid'; problems: Problem[] }
  | { kind: 'unchanged' }
  | { kind: 'saved'; key: ApiKey; changes: string[] }
  | { kind: 'conflict'; key: ApiKey };

export class RestrictionSession {
  constructor(
    private readonly client: ApiKeysClient,
    private current: ApiKey,
  ) {}

  /** The key as this session last saw it on the server. */
  get key(): ApiKey {
    return this.current;
  }

  /** What sending `restrictions` would change, one sentence per list. */
  preview(restrictions: Restrictions): string[] {
    return describeChanges(diffRestrictions(this.current.restrictions, normalizeRestrictions(restrictions)));
  }

  /**
   * Replaces the key's restrictions if the key still has `etag` (the version the user edited).
   * Other failures (permission, network) are thrown.
   */
  async save(
    restrictions: Restrictions,
    etag: string | undefined,
    options: OperationCallOptions = {},
  ): Promise<SaveOutcome> {
    const problems = validateRestrictions(restrictions, { serviceAccountBound: !!this.current.serviceAccountEmail });
    if (problems.length > 0) return { kind: 'invalid', problems };
    const normalized = normalizeRestrictions(restrictions);
    const changes = describeChanges(diffRestrictions(this.current.restrictions, normalized));
    if (changes.length === 0 && etag === this.current.etag) return { kind: 'unchanged' };
    try {
      const updated = await this.client.updateRestrictions(this.current.name, normalized, etag || undefined, options);
      this.current = updated;
      return { kind: 'saved', key: updated, changes };
    } catch (err) {
      if (!(err instanceof EtagConflictError)) throw err;
      this.current = await this.client.getKey(this.current.name, options.signal ? { signal: options.signal } : {});
      // A retried PATCH whose first answer was lost meets its own new etag: when the server already
      // holds exactly this edit, it was saved, and calling it a conflict would make the user redo it.
      if (diffRestrictions(normalizeRestrictions(this.current.restrictions ?? {}), normalized).length === 0) {
        return { kind: 'saved', key: this.current, changes };
      }
      return { kind: 'conflict', key: this.current };
    }
  }
}
