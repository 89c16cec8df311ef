// window: aggregations over a match window; window.range is the only one supported in search.
import { type Accumulator, defineFamily, fn, rulesOnly } from './types';
import { numbers, toNum } from './values';

/**
 * window.range over a group: the smallest and largest value, as floats ([] for no value); with
 * `true` as second argument, zeros are left out (Google's window.range page).
 */
class RangeOfGroup implements Accumulator {
  private min = Infinity;
  private max = -Infinity;
  constructor(private readonly ignoreZeros: boolean) {}
  add(value: unknown): void {
    const n = typeof value === 'number' ? value : toNum(value);
    if (!Number.isFinite(n) || (this.ignoreZeros && n === 0)) return;
    if (n < this.min) this.min = n;
    if (n > this.max) this.max = n;
  }
  result(): number[] {
    return this.min <= this.max ? [this.min, this.max] : [];
  }
}

export const WINDOW = defineFamily('window', [
  rulesOnly(
    'window.avg(numeric_values: INT|FLOAT, should_ignore_zero_values?: BOOL): FLOAT',
    '$size_mode = window.avg($e.file.size, true)',
    'Aggregation over the match window (outcome section).',
  ),
  rulesOnly(
    'window.first(values_to_sort_by: INT, values_to_return: STRING): STRING',
    '$first_event = window.first($e.metadata.timestamp.seconds, $e.metadata.event_type)',
  ),
  rulesOnly(
    'window.last(values_to_sort_by: INT, values_to_return: STRING): STRING',
    '$last_event = window.last($e.metadata.event_timestamp.seconds, $e.metadata.vendor_name)',
  ),
  rulesOnly(
    'window.median(numeric_values: INT|FLOAT, should_ignore_zero_values?: BOOL): FLOAT',
    '$median_file_size = window.median($e.principal.file.size, true)',
    'The second argument is omitted in several samples.',
  ),
  rulesOnly('window.mode(values: INT|FLOAT|STRING): STRING', '$size_mode = window.mode($e.file.size)'),
  // Search's outcome: with match: (`$range = window.range(network.sent_bytes, false)`): the range
  // of the group's values, which is what the function computes over a rule's match window.
  fn(
    'window.range(numeric_values: INT|FLOAT, should_ignore_zero_values?: BOOL): ARRAY_FLOATS',
    'window.range([1, 2, 3, 4], false) = [1.000000, 4.000000]',
    ([v, ignoreZeros]) => {
      const range = new RangeOfGroup(ignoreZeros === true);
      for (const n of numbers(v)) range.add(n);
      return range.result();
    },
    {
      notes: 'The only window.* function marked Supported in Search (2026-04-14 page).',
      overGroup: ([ignoreZeros]) => new RangeOfGroup(ignoreZeros === true),
    },
  ),
  rulesOnly('window.stddev(numeric_values: INT|FLOAT): FLOAT', '$p1 = window.stddev($e.file.size)'),
  rulesOnly('window.variance(values: INT|FLOAT): FLOAT', '$p1 = window.variance($e.file.size)'),
]);
