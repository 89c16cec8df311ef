// Reads a udmSearch answer while it arrives and hands its events over in batches: a batch per piece
// of the body that completed at least one event, so the first rows can be shown long before the
// last byte of a large answer.
import { isTransportError } from '../google/rest';
import type { UdmSearchEvent } from './types';
import { UdmEventsScanner, UdmStreamSyntaxError } from './udm-stream';

export interface UdmSearchStreamResult {
  /** Events handed over in all. */
  eventCount: number;
  moreDataAvailable: boolean;
  /** The answer's other top-level fields, whatever their order in the body. */
  fields: Record<string, unknown>;
}

/**
 * The answer broke off after some events were already handed over. Not retried (the events would
 * come twice); the search has to be run again.
 */
export class UdmSearchStreamBrokenError extends Error {
  override readonly name = 'UdmSearchStreamBrokenError';
  constructor(
    readonly eventsReceived: number,
    override readonly cause: unknown,
  ) {
    super(
      `The UDM search answer broke off after ${eventsReceived.toLocaleString('en-US')} events (${cause instanceof Error ? cause.message : String(cause)}). Run the search again.`,
    );
  }
}

/**
 * A body that is already buffered is read piece after piece in microtasks, which would keep the
 * thread from anything else until its end: after the first batch, and then after this much work,
 * the reader lets the event loop run (so that a batch handed over can leave, say to a panel).
 */
const YIELD_EVERY_MS = 16;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function readUdmSearchStream(
  body: AsyncIterable<Uint8Array>,
  onEvents: (events: UdmSearchEvent[], texts: readonly string[]) => void,
  pick?: readonly string[],
): Promise<UdmSearchStreamResult> {
  const scanner = new UdmEventsScanner(pick ? { pick } : {});
  let delivered = 0;
  let yielded = Date.now();
  try {
    for await (const chunk of body) {
      const { events, texts } = scanner.read(chunk);
      if (events.length === 0) continue;
      const first = delivered === 0;
      delivered += events.length;
      onEvents(events as UdmSearchEvent[], texts);
      if (first || Date.now() - yielded >= YIELD_EVERY_MS) {
        await nextTurn();
        yielded = Date.now();
      }
    }
    const fields = scanner.end();
    return { eventCount: delivered, moreDataAvailable: fields.moreDataAvailable === true, fields };
  } catch (err) {
    // Before the first batch a lost connection is retried like any udmSearch; after it, it is not.
    if (delivered > 0 && (isTransportError(err) || err instanceof UdmStreamSyntaxError))
      throw new UdmSearchStreamBrokenError(delivered, err);
    throw err;
  }
}
