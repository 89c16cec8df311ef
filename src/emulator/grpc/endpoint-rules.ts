// Checks the EndpointService RPCs share: the endpoint a request names, and a traffic split.
import { parseEndpointName } from '../../core/names';
import { invalidArgument } from './errors';
import { checkLocation, type EndpointRecord, type ModelStore } from './store';
import { parseName } from './util';

export function endpointOf(store: ModelStore, name: unknown, field: string): EndpointRecord {
  const n = parseName(field, name, parseEndpointName);
  checkLocation(n.location);
  return store.getEndpoint(n.project, n.location, n.endpoint);
}

/** Checks a traffic split: percentages 0..100 summing to 100 over the given deployed model ids. */
export function checkTrafficSplit(split: Record<string, number>, ids: string[], field: string): Record<string, number> {
  const out: Record<string, number> = {};
  let sum = 0;
  for (const [id, pct] of Object.entries(split)) {
    if (!ids.includes(id))
      throw invalidArgument(`${field} names "${id}", which is not a deployed model of this endpoint.`, [
        { field, description: `unknown id ${id}` },
      ]);
    if (!Number.isInteger(pct) || pct < 0 || pct > 100)
      throw invalidArgument(`${field}["${id}"] must be an integer percentage 0-100.`, [
        { field, description: 'bad percentage' },
      ]);
    sum += pct;
    if (pct > 0) out[id] = pct;
  }
  if (ids.length > 0 && sum !== 100)
    throw invalidArgument(`${field} must add up to 100, got ${sum}.`, [{ field, description: 'does not sum to 100' }]);
  return out;
}
