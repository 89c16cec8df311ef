// The SecOps client for the current settings, and the hourly budgets that outlive it: one limiter per
// endpoint, so that a settings change does not reset what was spent.
import * as vscode from 'vscode';
import { RateLimiter, SECOPS_BUDGETS } from '../../core/ratelimit';
import { SecOpsClient, type SecOpsMethod } from '../../core/secops/client';
import { getLogger } from '../../platform/log';
import type { Services } from '../services';
import { keepBudget, reportingThrottle, type SearchKeeping } from '../shared/keeping';

const log = getLogger('search');

export interface UdmSearchBudget {
  remaining: number;
  limit: number;
  nextRefillAt: number | undefined;
  blockedUntil: number | undefined;
}

/** Limiters belong to an endpoint: the same address however the setting spells it. */
export function endpointKey(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return baseUrl.trim().replace(/\/+$/, '').toLowerCase();
  }
}

/**
 * Runs `call` (whose client retries a 429 within its bounds); `report` says while the server holds
 * calls of the method. The limiter holds every other caller of the method for the same time.
 */
export type QuotaCall = <T>(
  method: SecOpsMethod,
  call: () => Promise<T>,
  signal: AbortSignal,
  report: (message: string) => void,
) => Promise<T>;

export class SearchClients implements vscode.Disposable {
  private client: SecOpsClient | undefined;
  private clientKey = '';
  private readonly limiters = new Map<string, RateLimiter>();
  private readonly limiterListeners: Array<{ dispose(): void }> = [];
  private readonly budgetEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeBudget = this.budgetEmitter.event;

  constructor(
    private readonly services: Services,
    private readonly keeping: SearchKeeping,
  ) {}

  dispose(): void {
    this.budgetEmitter.dispose();
    for (const l of this.limiterListeners.splice(0)) l.dispose();
  }

  /** The client for the current settings (rebuilt when the endpoint, region or credentials change). */
  get(): SecOpsClient {
    const connection = this.services.connection();
    const { settings } = connection;
    // endpoint() refuses a malformed override: falling back to the region's production host would
    // send the user's searches somewhere they did not mean.
    // The region's host in the configured universe domain (or its mTLS host), or the override.
    const target = connection.restEndpoint('secops');
    const baseUrl = target.baseUrl;
    const tokens = connection.secopsTokens(baseUrl);
    const key = JSON.stringify([
      baseUrl,
      target.mtls,
      settings.universeDomain,
      settings.quotaProject,
      settings.secops.credentialsFile,
      settings.credentialsFile,
      settings.timeoutMs,
      settings.retry,
    ]);
    if (!this.client || key !== this.clientKey) {
      this.client = new SecOpsClient({
        baseUrl,
        tokens,
        ...(target.certSource ? { clientCert: target.certSource } : {}),
        limiter: this.limiterFor(endpointKey(baseUrl)),
        retry: settings.retry,
        timeoutMs: settings.timeoutMs,
        onRetry: (method, err, attempt, delayMs) =>
          log.info(`${method}: retry ${attempt} in ${delayMs} ms after ${(err as Error).message}`),
      });
      this.clientKey = key;
      this.budgetEmitter.fire();
    }
    return this.client;
  }

  private limiterFor(endpoint: string): RateLimiter {
    let limiter = this.limiters.get(endpoint);
    if (!limiter) {
      limiter = new RateLimiter(SECOPS_BUDGETS);
      // The limiter lives as long as these clients; its listener goes with it.
      this.limiterListeners.push(
        limiter.onDidChange((method) => method === 'udmSearch' && this.budgetEmitter.fire()),
        keepBudget(this.keeping.state, endpoint, limiter),
      );
      this.limiters.set(endpoint, limiter);
    }
    return limiter;
  }

  /** What is left of the hourly udmSearch budget, or undefined while the settings make no client. */
  budget(): UdmSearchBudget | undefined {
    try {
      const snap = this.get().limiter.snapshot('udmSearch');
      return {
        remaining: snap.remaining,
        limit: snap.limit,
        nextRefillAt: snap.nextRefillAt,
        blockedUntil: snap.blockedUntil,
      };
    } catch {
      return undefined;
    }
  }

  readonly withQuota: QuotaCall = (method, call, signal, report) =>
    reportingThrottle(this.get().limiter, method, call, signal, report);
}
