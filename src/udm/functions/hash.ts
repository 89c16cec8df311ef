// hash: detection rules only; search reports them as such.
import { defineFamily, rulesOnly } from './types';

export const HASH = defineFamily('hash', [
  rulesOnly(
    'hash.fingerprint2011(byteOrString: BYTES|STRING): INT',
    'id_fingerprint = hash.fingerprint2011("user123")',
    'Documented under the heading "fingerprint"; the page spells the first param type "BTYE".',
  ),
  rulesOnly(
    'hash.sha256(string: STRING): STRING',
    'hash.sha256("") = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
  ),
]);
