// A large answer (10,000 UDM events of several KB each) is written out piece by piece instead of as
// one string (see core/json-pieces): the first bytes leave at once and memory stays at one chunk.
import type { ServerResponse } from 'node:http';
import { jsonPieces, type StreamedJson } from '../../core/json-pieces';
import type { BodyFault } from '../types';

const CHUNK_CHARS = 64 * 1024;

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
