// Undeploy: what happens to an endpoint's traffic split. The service undeploys a DeployedModel only
// when it receives no traffic, or when the request's traffic_split takes its share away (the new
// split covers the remaining deployed models and adds up to 100); the last deployed model of an
// endpoint leaves the split empty (UndeployModelRequest, EndpointService v1beta1).
import type { Endpoint } from './types';

export interface TrafficShare {
  deployedModelId: string;
  /** Percent of the endpoint's traffic, 0-100. */
  share: number;
  model?: string;
  modelVersionId?: string;
  displayName?: string;
}

/** The endpoint's deployed models with their share of traffic (0 when the split does not name them). */
export function trafficShares(endpoint: Endpoint): TrafficShare[] {
  const split = trafficSplitOf(endpoint);
  return (Array.isArray(endpoint.deployedModels) ? endpoint.deployedModels : [])
    .filter((d) => typeof d?.id === 'string' && d.id)
    .map((d) => ({
      deployedModelId: d.id!,
      share: split[d.id!] ?? 0,
      ...(typeof d.model === 'string' ? { model: d.model } : {}),
      ...(typeof d.modelVersionId === 'string' ? { modelVersionId: d.modelVersionId } : {}),
      ...(typeof d.displayName === 'string' ? { displayName: d.displayName } : {}),
    }));
}

/** The endpoint's split as read, keeping only whole percentages 0-100 under string keys (a bad shape is no split). */
export function trafficSplitOf(endpoint: Endpoint): Record<string, number> {
  const raw = endpoint.trafficSplit;
  const out: Record<string, number> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [id, value] of Object.entries(raw as Record<string, unknown>)) {
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
    if (Number.isInteger(n) && n >= 0 && n <= 100) out[id] = n;
  }
  return out;
}

export type UndeployPlan =
  /** It receives no traffic: undeploy as it is. */
  | { kind: 'noTraffic' }
  /** Its share goes to the others in proportion to theirs: `split` is the request's traffic_split. */
  | { kind: 'redistribute'; share: number; split: Record<string, number> }
  /**
   * It receives all the traffic that is served: taking it away needs the user's word. `others`:
   * the remaining deployed models (none: the endpoint then has nothing deployed).
   */
  | { kind: 'lastTraffic'; share: number; others: TrafficShare[] }
  | { kind: 'notDeployed' };

export function undeployPlan(endpoint: Endpoint, deployedModelId: string): UndeployPlan {
  const shares = trafficShares(endpoint);
  const mine = shares.find((s) => s.deployedModelId === deployedModelId);
  if (!mine) return { kind: 'notDeployed' };
  if (mine.share === 0) return { kind: 'noTraffic' };
  const others = shares.filter((s) => s.deployedModelId !== deployedModelId);
  const serving = others.filter((s) => s.share > 0);
  if (!serving.length) return { kind: 'lastTraffic', share: mine.share, others };
  return { kind: 'redistribute', share: mine.share, split: scaleTo100(others) };
}

/** The others' shares scaled to add up to 100 (largest remainders get the rounding). */
export function scaleTo100(shares: readonly TrafficShare[]): Record<string, number> {
  const total = shares.reduce((sum, s) => sum + s.share, 0);
  if (total <= 0) return {};
  const exact = shares.map((s) => ({ id: s.deployedModelId, value: (s.share * 100) / total }));
  const out: Record<string, number> = {};
  let given = 0;
  for (const e of exact) given += out[e.id] = Math.floor(e.value);
  const byRemainder = [...exact].sort((a, b) => b.value - Math.floor(b.value) - (a.value - Math.floor(a.value)));
  for (let i = 0; given < 100; i = (i + 1) % byRemainder.length, given++) out[byRemainder[i].id]++;
  return out;
}

/** "90% fraud-detector-v4 (deployed model 123), 10% …" */
export function describeSplit(shares: readonly TrafficShare[], split?: Record<string, number>): string {
  if (!shares.length) return 'nothing deployed';
  return shares
    .map(
      (s) =>
        `${split ? (split[s.deployedModelId] ?? 0) : s.share}% ${s.displayName || 'deployed model'} (${s.deployedModelId})`,
    )
    .join(', ');
}
