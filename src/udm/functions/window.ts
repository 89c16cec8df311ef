// window: aggregations over a match window; window.range is the only one supported in search.
import { defineFamily, optional, param } from './types';
import { numbers } from './values';

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
      const n = numbers(v).filter((x) => !(ignoreZeros === true && x === 0));
      return n.length ? [Math.min(...n), Math.max(...n)] : [];
    },
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
