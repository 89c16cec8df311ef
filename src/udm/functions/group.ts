// group: every value of every argument; the placeholder it defines takes each in turn.
import { defineFamily, param } from './types';
import { arr } from './values';

export const GROUP = defineFamily('group', [
  {
    name: 'group',
    params: [param('field', 'EVENT_FIELD')],
    variadic: true,
    returns: 'GROUPED_FIELDS',
    where: 'Search',
    example: '$ip = group(principal.ip, about.ip, target.ip)',
    notes: 'Search only; usable in the events section, not in match or outcome.',
    evaluate: (args) => args.flatMap(arr),
  },
]);
