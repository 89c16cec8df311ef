// What Test Rule takes from the other features: the search's client (its hourly budget and
// retries), its time range and picker, the events table and the event documents search results
// open, and the statistics feature's question before fetching the rest. Gathered here so the rule
// feature reaches the others in one place.
import * as vscode from 'vscode';
import type { ReferenceListDetails } from '../../core/secops/client';
import type { ResolvedWindow, TimeRangeSpec } from '../../core/secops/timerange';
import type { UdmSearchEvent } from '../../core/secops/types';
import { pickTimeRange } from '../shared/time-range';
import { eventTitle } from '../shared/documents';
import type { MoreSearchesQuestion, SearchClient } from '../shared/statistics-fetch';
import type { SearchService, Services } from '../services';
import { counted } from './view-model';

/** The SecOps client as Test Rule uses it: udmSearch within the budget, and the reference lists. */
export interface RuleTestClient extends SearchClient {
  getReferenceList(name: string, signal?: AbortSignal): Promise<ReferenceListDetails>;
}

export interface RuleTestDeps {
  client(): RuleTestClient;
  /** the search's current time range (the picker's "current") */
  timeRange(): TimeRangeSpec;
  pickTimeRange(current: TimeRangeSpec): Promise<TimeRangeSpec | undefined>;
  confirmMore(question: MoreSearchesQuestion): Promise<boolean>;
  /** the events table with its detail pane, as search results and statistics drill-downs show it */
  showEvents(title: string, events: UdmSearchEvent[], window: ResolvedWindow): void;
  /** one event as a read-only JSON document, as a result's "Full event" opens it */
  openEvent(event: UdmSearchEvent): Promise<vscode.TextDocument>;
}

export function searchDeps(services: Services): RuleTestDeps {
  // Looked up on each use: the search feature may start after this one, or not at all.
  const search = (): SearchService => services.search.require();
  return {
    client: () => search().controller.getClient(),
    timeRange: () => search().timeRange(),
    pickTimeRange,
    confirmMore: askForMoreRuleEvents,
    showEvents: (title, events, window) => void search().controller.showRows('udm', title, events, { window }),
    openEvent: (event) =>
      search().controller.documents.open(
        `Event ${eventTitle(event.udm, event.name)}`,
        'json',
        JSON.stringify(event.udm, null, 2),
      ),
  };
}

/**
 * Test Rule's question when a variable's search was cut short: fetch the rest (more searches), or
 * test the rule over the events already here, which may miss detections or undercount them.
 * Esc or closing tests over what is here.
 */
export async function askForMoreRuleEvents(q: MoreSearchesQuestion): Promise<boolean> {
  const more = counted(q.atLeast, 'more search', 'more searches');
  const spend =
    q.likely !== undefined
      ? `at least ${more}, likely about ${q.likely.toLocaleString('en-US')}`
      : `at least ${more} (how many depends on how the events spread over the time range)`;
  const fetched = counted(q.fetched, 'event', 'events');
  const choice = await vscode.window.showWarningMessage(
    `udmSearch returned ${fetched} and says more match: a rule tested over them may miss detections or count too few events in them.`,
    {
      modal: true,
      detail: `Fetching the rest splits the time range into smaller windows: ${spend}. ${q.remaining.toLocaleString('en-US')} of ${counted(q.limit, 'udmSearch call', 'udmSearch calls')} are left this hour; Cloudbench stops when they run out and the result says which events it covers. Without the rest, the rule is tested over these ${fetched} and the result says so.`,
    },
    'Fetch the Rest',
    'Test These Events',
  );
  return choice === 'Fetch the Rest';
}
