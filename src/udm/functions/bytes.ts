// bytes: BYTES values are Bytes objects (values.ts); a bytes field of an event arrives as the
// base64 text of the proto3 JSON mapping.
import { defineFamily, fn } from './types';
import { Bytes, toStr } from './values';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of a value, or undefined when it holds none (text that is not base64). */
function bytesOf(v: unknown): Uint8Array | undefined {
  if (v instanceof Bytes) return v.data;
  if (typeof v === 'string' && BASE64.test(v)) return Buffer.from(v, 'base64');
  return undefined;
}

export const BYTES = defineFamily('bytes', [
  // The standard alphabet with padding (the page's sample has `+`, `/` and `=`); "Function calls
  // with values that cannot be casted return an empty string by default", or the default string.
  fn(
    'bytes.to_base64(bytes: BYTES, optional_default_string?: STRING): STRING',
    'bytes.to_base64(b\'000000006f8ec5586d026f9ddac56e9f2fe15b8a0000000001000000cd000000) = "AAAAAG+OxVhtAm+d2sVuny/hW4oAAAAAAQAAAM0AAAA="',
    ([b, dflt]) => {
      const data = bytesOf(b);
      if (!data) return dflt === undefined ? '' : toStr(dflt);
      return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
    },
  ),
]);
