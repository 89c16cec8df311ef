// window: aggregations over a match window; window.range is the only one supported in search.
import { defineFamily, optional, param, type Accumulator } from './types';
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
  {
    name: 'window.avg',
    params: [param('numeric_values', 'INT', 'FLOAT'), optional('should_ignore_zero_values', 'BOOL')],
    returns: 'FLOAT',
    where: 'Rules only',
    example: '$size_mode = window.avg($e.file.size, true)',
    notes: 'Aggregation over the match window (outcome section).',
  },
  {
    name: 'window.first',
    params: [param('values_to_sort_by', 'INT'), param('values_to_return', 'STRING')],
    returns: 'STRING',
    where: 'Rules only',
    example: '$first_event = window.first($e.metadata.timestamp.seconds, $e.metadata.event_type)',
  },
  {
    name: 'window.last',
    params: [param('values_to_sort_by', 'INT'), param('values_to_return', 'STRING')],
    returns: 'STRING',
    where: 'Rules only',
    example: '$last_event = window.last($e.metadata.event_timestamp.seconds, $e.metadata.vendor_name)',
  },
  {
    name: 'window.median',
    params: [param('numeric_values', 'INT', 'FLOAT'), optional('should_ignore_zero_values', 'BOOL')],
    returns: 'FLOAT',
    where: 'Rules only',
    example: '$median_file_size = window.median($e.principal.file.size, true)',
    notes: 'The second argument is omitted in several samples.',
  },
  {
    name: 'window.mode',
    params: [param('values', 'INT', 'FLOAT', 'STRING')],
    returns: 'STRING',
    where: 'Rules only',
    example: '$size_mode = window.mode($e.file.size)',
  },
  {
    name: 'window.range',
    params: [param('numeric_values', 'INT', 'FLOAT'), optional('should_ignore_zero_values', 'BOOL')],
    returns: 'ARRAY_FLOATS',
    where: 'Search, Rules',
    example: 'window.range([1, 2, 3, 4], false) = [1.000000, 4.000000]',
    notes: 'The only window.* function marked Supported in Search (2026-04-14 page).',
    evaluate: ([v, ignoreZeros]) => {
      const range = new RangeOfGroup(ignoreZeros === true);
      for (const n of numbers(v)) range.add(n);
      return range.result();
    },
    // Search's outcome: with match: (`$range = window.range(network.sent_bytes, false)`): the range
    // of the group's values, which is what the function computes over a rule's match window.
    overGroup: ([ignoreZeros]) => new RangeOfGroup(ignoreZeros === true),
  },
  {
    name: 'window.stddev',
    params: [param('numeric_values', 'INT', 'FLOAT')],
    returns: 'FLOAT',
    where: 'Rules only',
    example: '$p1 = window.stddev($e.file.size)',
  },
  {
    name: 'window.variance',
    params: [param('values', 'INT', 'FLOAT')],
    returns: 'FLOAT',
    where: 'Rules only',
    example: '$p1 = window.variance($e.file.size)',
  },
]);
