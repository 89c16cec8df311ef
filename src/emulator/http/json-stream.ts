// A large answer (10,000 UDM events of several KB each) is written out piece by piece instead of as
// one string: the first bytes leave at once, memory stays at one chunk, and the bytes are exactly
// those JSON.stringify would give for the same object.
import type { ServerResponse } from 'node:http';
import type { BodyFault } from '../types';

const CHUNK_CHARS = 64 * 1024;

/**
 * An element whose JSON text is already known (the sandbox keeps the text of each stored event, so a
 * 50 MB answer is not serialized again for every search).
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A response body whose array field `arrayKey` is streamed element by element. */
export class StreamedJson {
  constructor(
    readonly body: Record<string, unknown>,
    readonly arrayKey: string,
  ) {}
}

/**
 * The pieces of the serialized body, in order; joined they equal JSON.stringify(body) (with each
 * JsonText element standing for the value its text is).
 */
export function* jsonPieces(value: StreamedJson): Generator<string> {
  let first = true;
  yield '{';
  for (const [key, v] of Object.entries(value.body)) {
    if (key !== value.arrayKey || !Array.isArray(v)) {
      const text = JSON.stringify(v);
      // JSON.stringify leaves out members whose value it cannot represent (undefined, functions).
      if (text === undefined) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
      first = false;
      continue;
    }
    yield `${first ? '' : ','}${JSON.stringify(key)}:[`;
    first = false;
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      yield (i === 0 ? '' : ',') + (item instanceof JsonText ? item.text : (JSON.stringify(item) ?? 'null'));
    }
    yield ']';
  }
  yield '}';
}

/** Writes the body in chunks, waiting for the socket to drain; stops when the client goes away. */
export async function writeStreamedJson(
  res: ServerResponse,
  status: number,
  value: StreamedJson,
  fault?: BodyFault,
): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  let buf = '';
  let sent = 0;
  let chunks = 0;
  // Returns false once the connection is gone (the client left, or a fault dropped it).
  const flush = async (text: string): Promise<boolean> => {
    if (fault && chunks++ > 0 && fault.chunkDelayMs > 0) await new Promise((r) => setTimeout(r, fault.chunkDelayMs));
    if (res.destroyed) return false;
    let bytes = Buffer.from(text);
    const cut = fault?.resetAfterBytes !== undefined && sent + bytes.length > fault.resetAfterBytes;
    if (cut) bytes = bytes.subarray(0, fault.resetAfterBytes! - sent);
    sent += bytes.length;
    const ok = res.write(bytes);
    if (cut) {
      // Ending the socket (not the response) sends what was written, then closes mid-body.
      res.socket?.end();
      return false;
    }
    if (!ok && !res.destroyed) await drained(res);
    return !res.destroyed;
  };
  for (const piece of jsonPieces(value)) {
    buf += piece;
    if (buf.length < CHUNK_CHARS) continue;
    const go = await flush(buf);
    buf = '';
    if (!go) return;
  }
  if (buf !== '' && fault && !(await flush(buf))) return;
  if (buf !== '' && !fault) res.write(buf);
  res.end();
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
