// optimization: detection rules only; search reports it as such.
import { defineFamily, rulesOnly } from './types';

export const OPTIMIZATION = defineFamily('optimization', [
  rulesOnly(
    'optimization.sample_rate(byteOrString: BYTES|STRING, rateNumerator: INT, rateDenominator: INT): BOOL',
    'optimization.sample_rate($e.metadata.id, 1, 5)',
    'Documented under the heading "sample_rate".',
  ),
]);
