// arrays: functions over repeated fields and list literals (a single value reads as a list of one).
import { defineFamily, fn } from './types';
import { arr, num, numbers, toStr } from './values';

/** Element `i` of an array (a negative index counts from the end). */
function at(list: unknown[], i: unknown): unknown {
  const n = Math.trunc(num(i));
  const k = n < 0 ? list.length + n : n;
  return k >= 0 && k < list.length ? list[k] : undefined;
}

export const ARRAYS = defineFamily('arrays', [
  fn(
    'arrays.concat(string_array: ARRAY_STRINGS, string_array: ARRAY_STRINGS): ARRAY_STRINGS',
    'arrays.concat(["test1", "test2"], ["test3"]) = ["test1", "test2", "test3"]',
    ([a, b]) => [...arr(a), ...arr(b)],
  ),
  fn(
    'arrays.index_to_float(array: ARRAY_STRINGS|ARRAY_INTS|ARRAY_FLOATS, index: INT): FLOAT',
    'arrays.index_to_float([1.2, 2.1, 3.5, 4.6], 1) // 2.1',
    ([a, i]) => {
      const v = at(arr(a), i);
      return v === undefined ? 0 : num(v);
    },
  ),
  fn(
    'arrays.index_to_int(array_of_inputs: ARRAY_STRINGS|ARRAY_INTS|ARRAY_FLOATS, index: INT): INT',
    'arrays.index_to_int([1, 2, 3], 0) = 1',
    ([a, i]) => {
      const v = at(arr(a), i);
      return v === undefined ? 0 : Math.trunc(num(v)) || 0;
    },
  ),
  fn(
    'arrays.index_to_str(array: ARRAY_STRINGS|ARRAY_INTS|ARRAY_FLOATS, index: INT): STRING',
    'arrays.index_to_str(["test1", "test2", "test3", "test4"], 1) // "test2"',
    ([a, i]) => toStr(at(arr(a), i)),
  ),
  fn(
    'arrays.join_string(array_of_strings: ARRAY_STRINGS, optional_delimiter?: STRING): STRING',
    'arrays.join_string(["foo", "bar"], ",") = "foo,bar"',
    ([a, d]) =>
      arr(a)
        .map(toStr)
        .join(d === undefined ? '' : toStr(d)),
  ),
  fn('arrays.length(repeatedField: LIST): NUMBER', 'arrays.length($e.principal.ip) = 2', ([a]) => arr(a).length),
  fn(
    'arrays.max(array_of_ints_or_floats: ARRAY_INTS|ARRAY_FLOATS): FLOAT',
    'arrays.max([10, 20]) = 20.000000',
    ([a]) => {
      const n = numbers(a);
      return n.length ? Math.max(...n) : 0;
    },
  ),
  fn(
    'arrays.min(array_of_ints_or_floats: ARRAY_INTS|ARRAY_FLOATS, ignore_zeros?: BOOL): FLOAT',
    'arrays.min([10.000000, 20.000000, 0.0], true) = 10.000000',
    ([a, ignoreZeros]) => {
      const n = numbers(a).filter((x) => !(ignoreZeros === true && x === 0));
      return n.length ? Math.min(...n) : 0;
    },
  ),
  fn(
    'arrays.size(array: ARRAY_STRINGS|ARRAY_INTS|ARRAY_FLOATS): INT',
    'arrays.size(["test1", "test2"]) = 2',
    ([a]) => arr(a).length,
  ),
]);
