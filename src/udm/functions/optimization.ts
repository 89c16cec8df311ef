// optimization: detection rules only; search reports it as such.
import { defineFamily, param } from './types';

export const OPTIMIZATION = defineFamily('optimization', [
  {
    name: 'optimization.sample_rate',
    params: [param('byteOrString', 'BYTES', 'STRING'), param('rateNumerator', 'INT'), param('rateDenominator', 'INT')],
    returns: 'BOOL',
    where: 'Rules only',
    example: 'optimization.sample_rate($e.metadata.id, 1, 5)',
    notes: 'Documented under the heading "sample_rate".',
  },
]);
