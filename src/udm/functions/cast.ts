// cast: conversions between strings, numbers, booleans and bytes.
import { defineFamily, optional, param } from './types';
import { num, toStr } from './values';

export const CAST = defineFamily('cast', [
  {
    name: 'cast.as_bool',
    params: [param('string_or_int', 'INT', 'STRING')],
    returns: 'BOOL',
    where: 'Search, Rules',
    example: 'cast.as_bool("TRUE") = true',
    evaluate: ([v]) => {
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number') return v !== 0;
      const s = toStr(v).trim().toLowerCase();
      return s === 'true' || s === '1' || s === 't';
    },
  },
  {
    name: 'cast.as_float',
    params: [param('string_to_cast', 'STRING')],
    returns: 'FLOAT',
    where: 'Search, Rules',
    example: 'cast.as_float("1.012345678") = 1.0123456',
    evaluate: ([v]) => {
      const n = num(v);
      return Number.isNaN(n) ? 0 : n;
    },
  },
  {
    name: 'cast.as_int',
    params: [param('string_to_cast', 'STRING')],
    returns: 'FLOAT',
    where: 'Search, Rules',
    example: 'cast.as_int("2.012345678") = 2',
    notes:
      'The page lists return type FLOAT while every sample returns an integer. The SPL-to-YARA-L page uses it in search: $bytes = cast.as_int(network.sent_bytes) in an outcome section.',
    evaluate: ([v]) => {
      const n = num(v);
      return Number.isNaN(n) ? 0 : Math.trunc(n);
    },
  },
  {
    name: 'cast.as_string',
    params: [param('int_or_bytes_or_bool', 'INT', 'BYTES', 'BOOL'), optional('optional_default_string', 'STRING')],
    returns: 'STRING',
    where: 'Search, Rules',
    example: 'cast.as_string(123) = "123"',
    evaluate: ([v, dflt]) => {
      if (v === undefined || v === null || v === '') return dflt === undefined ? '' : toStr(dflt);
      return toStr(v);
    },
  },
]);
