// udmSearch's bridge to the project's UDM language library: compile once per query text (and per
// version of the reference lists), report the first error with its line and column.
import { invalidArgument } from './errors';
import type { EventStore } from '../events-data/store';
import type { Udm } from '../events-data/demo';

export type EventMatcher = (udm: Udm) => boolean;

export function compileSearchQuery(text: string, _store: EventStore): EventMatcher {
  throw invalidArgument(`UDM queries are not supported yet (query ${JSON.stringify(text.slice(0, 40))}).`, 'query');
}
