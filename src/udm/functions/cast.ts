// cast: conversions between strings, numbers, booleans and bytes.
import { defineFamily, fn } from './types';
import { Bytes, num, toStr } from './values';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const INT64_MAX = 9223372036854775807n;

export const CAST = defineFamily('cast', [
  // "Returns TRUE only for integer 1 and case insensitive string 'true'"; anything that cannot
  // be cast ("123", -1, "") is FALSE (the page's samples).
  fn('cast.as_bool(string_or_int: INT|STRING): BOOL', 'cast.as_bool("TRUE") = true', ([v]) => {
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') return v === 1;
    return toStr(v).toLowerCase() === 'true';
  }),
  fn('cast.as_float(string_to_cast: STRING): FLOAT', 'cast.as_float("1.012345678") = 1.0123456', ([v]) => {
    const n = num(v);
    return Number.isNaN(n) ? 0 : n;
  }),
  fn(
    'cast.as_int(string_to_cast: STRING): FLOAT',
    'cast.as_int("2.012345678") = 2',
    ([v]) => {
      const n = num(v);
      return Number.isNaN(n) ? 0 : Math.trunc(n);
    },
    {
      notes:
        'The page lists return type FLOAT while every sample returns an integer. The SPL-to-YARA-L page uses it in search: $bytes = cast.as_int(network.sent_bytes) in an outcome section.',
    },
  ),
  // Bytes become their UTF-8 text (`cast.as_string(b'01, "") = "\x01"`); invalid UTF-8 or an
  // integer outside INT64 (`9223372036854775808`) gives the default string, else "" (the page).
  fn(
    'cast.as_string(int_or_bytes_or_bool: INT|BYTES|BOOL, optional_default_string?: STRING): STRING',
    'cast.as_string(123) = "123"',
    ([v, dflt]) => {
      const fallback = dflt === undefined ? '' : toStr(dflt);
      if (v === undefined || v === null || v === '') return fallback;
      if (v instanceof Bytes) {
        try {
          return UTF8.decode(v.data);
        } catch {
          return fallback;
        }
      }
      if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER) {
        const big = BigInt(v);
        if (big > INT64_MAX || big < -INT64_MAX - 1n) return fallback;
      }
      return toStr(v);
    },
  ),
]);
