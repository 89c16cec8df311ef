// bytes: BYTES values travel as lower-case hex strings.
import { defineFamily, optional, param } from './types';
import { toStr } from './values';

/** BYTES values travel as lower-case hex strings; `b'…'` literals hold hex digits or text. */
function bytesOf(v: unknown): Buffer {
  const s = toStr(v);
  return /^(?:[0-9a-fA-F]{2})*$/.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'utf8');
}

export const BYTES = defineFamily('bytes', [
  {
    name: 'bytes.to_base64',
    params: [param('bytes', 'BYTES'), optional('optional_default_string', 'STRING')],
    returns: 'STRING',
    where: 'Search, Rules',
    example:
      'bytes.to_base64(b\'000000006f8ec5586d026f9ddac56e9f2fe15b8a0000000001000000cd000000) = "AAAAAG+OxVhtAm+d2sVuny/hW4oAAAAAAQAAAM0AAAA="',
    evaluate: ([b, dflt]) => {
      const buf = bytesOf(b);
      return buf.length === 0 && dflt !== undefined ? toStr(dflt) : buf.toString('base64');
    },
  },
]);
