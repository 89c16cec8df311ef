// group: every value of every argument; the placeholder it defines takes each in turn.
import { defineFamily, fn } from './types';
import { arr } from './values';

export const GROUP = defineFamily('group', [
  fn(
    'group(field: EVENT_FIELD, ...): GROUPED_FIELDS',
    '$ip = group(principal.ip, about.ip, target.ip)',
    (args) => args.flatMap(arr),
    { where: 'Search', notes: 'Search only; usable in the events section, not in match or outcome.' },
  ),
]);
