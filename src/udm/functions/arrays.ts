// arrays: functions over repeated fields and list literals (a single value reads as a list of one).
import { defineFamily, optional, param } from './types';
import { arr, num, numbers, toStr } from './values';

/** Element `i` of an array (a negative index counts from the end). */
function at(list: unknown[], i: unknown): unknown {
  const n = Math.trunc(num(i));
  const k = n < 0 ? list.length + n : n;
  return k >= 0 && k < list.length ? list[k] : undefined;
}

export const ARRAYS = defineFamily('arrays', [
  {
    name: 'arrays.concat',
    params: [param('string_array', 'ARRAY_STRINGS'), param('string_array', 'ARRAY_STRINGS')],
    returns: 'ARRAY_STRINGS',
    where: 'Search, Rules',
    example: 'arrays.concat(["test1", "test2"], ["test3"]) = ["test1", "test2", "test3"]',
    evaluate: ([a, b]) => [...arr(a), ...arr(b)],
  },
  {
    name: 'arrays.index_to_float',
    params: [param('array', 'ARRAY_STRINGS', 'ARRAY_INTS', 'ARRAY_FLOATS'), param('index', 'INT')],
    returns: 'FLOAT',
    where: 'Search, Rules',
    example: 'arrays.index_to_float([1.2, 2.1, 3.5, 4.6], 1) // 2.1',
    evaluate: ([a, i]) => {
      const v = at(arr(a), i);
      return v === undefined ? 0 : num(v);
    },
  },
  {
    name: 'arrays.index_to_int',
    params: [param('array_of_inputs', 'ARRAY_STRINGS', 'ARRAY_INTS', 'ARRAY_FLOATS'), param('index', 'INT')],
    returns: 'INT',
    where: 'Search, Rules',
    example: 'arrays.index_to_int([1, 2, 3], 0) = 1',
    evaluate: ([a, i]) => {
      const v = at(arr(a), i);
      return v === undefined ? 0 : Math.trunc(num(v)) || 0;
    },
  },
  {
    name: 'arrays.index_to_str',
    params: [param('array', 'ARRAY_STRINGS', 'ARRAY_INTS', 'ARRAY_FLOATS'), param('index', 'INT')],
    returns: 'STRING',
    where: 'Search, Rules',
    example: 'arrays.index_to_str(["test1", "test2", "test3", "test4"], 1) // "test2"',
    evaluate: ([a, i]) => toStr(at(arr(a), i)),
  },
  {
    name: 'arrays.join_string',
    params: [param('array_of_strings', 'ARRAY_STRINGS'), optional('optional_delimiter', 'STRING')],
    returns: 'STRING',
    where: 'Search, Rules',
    example: 'arrays.join_string(["foo", "bar"], ",") = "foo,bar"',
    evaluate: ([a, d]) =>
      arr(a)
        .map(toStr)
        .join(d === undefined ? '' : toStr(d)),
  },
  {
    name: 'arrays.length',
    params: [param('repeatedField', 'LIST')],
    returns: 'NUMBER',
    where: 'Search, Rules',
    example: 'arrays.length($e.principal.ip) = 2',
    evaluate: ([a]) => arr(a).length,
  },
  {
    name: 'arrays.max',
    params: [param('array_of_ints_or_floats', 'ARRAY_INTS', 'ARRAY_FLOATS')],
    returns: 'FLOAT',
    where: 'Search, Rules',
    example: 'arrays.max([10, 20]) = 20.000000',
    evaluate: ([a]) => {
      const n = numbers(a);
      return n.length ? Math.max(...n) : 0;
    },
  },
  {
    name: 'arrays.min',
    params: [param('array_of_ints_or_floats', 'ARRAY_INTS', 'ARRAY_FLOATS'), optional('ignore_zeros', 'BOOL')],
    returns: 'FLOAT',
    where: 'Search, Rules',
    example: 'arrays.min([10.000000, 20.000000, 0.0], true) = 10.000000',
    evaluate: ([a, ignoreZeros]) => {
      const n = numbers(a).filter((x) => !(ignoreZeros === true && x === 0));
      return n.length ? Math.min(...n) : 0;
    },
  },
  {
    name: 'arrays.size',
    params: [param('array', 'ARRAY_STRINGS', 'ARRAY_INTS', 'ARRAY_FLOATS')],
    returns: 'INT',
    where: 'Search, Rules',
    example: 'arrays.size(["test1", "test2"]) = 2',
    evaluate: ([a]) => arr(a).length,
  },
]);
