// A large answer (10,000 UDM events of several KB each) is written out piece by piece instead of as
// one string: the first bytes leave at once, memory stays at one chunk, and the bytes are exactly
// those JSON.stringify would give for the same object.
import type { ServerResponse } from 'node:http';

const CHUNK_CHARS = 64 * 1024;

/** A response body whose array field `arrayKey` is streamed element by element. */
export class StreamedJson {
  constructor(
    readonly body: Record<string, unknown>,
    readonly arrayKey: string,
  ) {}
}

/** The pieces of the serialized body, in order; joined they equal JSON.stringify(body). */
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
    for (let i = 0; i < v.length; i++) yield (i === 0 ? '' : ',') + (JSON.stringify(v[i]) ?? 'null');
    yield ']';
  }
  yield '}';
}

/** Writes the body in chunks, waiting for the socket to drain; stops when the client goes away. */
export async function writeStreamedJson(
  res: ServerResponse,
  status: number,
  value: StreamedJson,
  headers: Record<string, string> = {},
): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  let buf = '';
  for (const piece of jsonPieces(value)) {
    buf += piece;
    if (buf.length < CHUNK_CHARS) continue;
    const ok = res.write(buf);
    buf = '';
    if (res.destroyed) return;
    if (!ok) await drained(res);
    if (res.destroyed) return;
  }
  res.end(buf);
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
