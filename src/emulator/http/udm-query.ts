// udmSearch's bridge to the project's UDM language library: compile once per query text and data
// version (reference lists can change), report the first error with its line and column.
import { invalidArgument } from './errors';
import { compileQuery } from '../../udm';
import type { EventStore } from '../events-data/store';
import type { Udm } from '../events-data/demo';

export type EventMatcher = (udm: Udm) => boolean;

const cache = new Map<string, { version: number; matcher: EventMatcher }>();
const CACHE_SIZE = 64;

export function compileSearchQuery(text: string, store: EventStore): EventMatcher {
  store.entitiesReady();
  const hit = cache.get(text);
  if (hit && hit.version === store.version) return hit.matcher;
  const referenceLists: Record<string, string[]> = {};
  for (const [name, list] of store.lists) referenceLists[name] = list.lines;
  const compiled = compileQuery(text, { referenceLists });
  // Past 1,000 problems the list ends in a summary; it is no error of its own.
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error' && d.code !== 'too-many-problems');
  const cut = compiled.diagnostics.some((d) => d.code === 'too-many-problems');
  if (errors.length > 0 || compiled.hasErrors) {
    const first = errors[0] ?? compiled.diagnostics[compiled.diagnostics.length - 1];
    const where = `line ${first.range.start.line + 1}, column ${first.range.start.character + 1}`;
    const more = cut
      ? ' (and more problems)'
      : errors.length > 1
        ? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''})`
        : '';
    throw invalidArgument(`Invalid UDM query at ${where}: ${first.message}${more}`, 'query');
  }
  const matcher: EventMatcher = (udm) => compiled.matches(udm);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, { version: store.version, matcher });
  return matcher;
}
