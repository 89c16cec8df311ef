// hash: detection rules only; search reports them as such.
import { defineFamily, param } from './types';

export const HASH = defineFamily('hash', [
  {
    name: 'hash.fingerprint2011',
    params: [param('byteOrString', 'BYTES', 'STRING')],
    returns: 'INT',
    where: 'Rules only',
    example: 'id_fingerprint = hash.fingerprint2011("user123")',
    notes: 'Documented under the heading "fingerprint"; the page spells the first param type "BTYE".',
  },
  {
    name: 'hash.sha256',
    params: [param('string', 'STRING')],
    returns: 'STRING',
    where: 'Rules only',
    example: 'hash.sha256("") = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
  },
]);
