// Every API Keys command, by id.
import type { CommandTable } from '../../../platform/command-table';
import type { KeysContext } from '../context';
import { auditApiKeys, exportKeyAudit, fixAuditFinding } from './audit';
import { rotateKey } from './rotate';
import { lookUpKey, loadMoreKeys, refreshKeys } from './browse';
import { checkKeyRequest } from './check';
import { copyKeyResourceName, copyKeyString } from './copy';
import { createKey, editKeyRestrictions } from './create';
import { deleteKey, renameKey, undeleteKey } from './lifecycle';

export const KEYS_COMMANDS: CommandTable<KeysContext> = {
  'cloudbench.keys.refresh': refreshKeys,
  'cloudbench.keys.loadMore': loadMoreKeys,
  'cloudbench.keys.create': createKey,
  'cloudbench.keys.editRestrictions': editKeyRestrictions,
  'cloudbench.keys.copyKeyString': copyKeyString,
  'cloudbench.keys.copyResourceName': copyKeyResourceName,
  'cloudbench.keys.lookUp': lookUpKey,
  'cloudbench.keys.rename': renameKey,
  'cloudbench.keys.delete': deleteKey,
  'cloudbench.keys.undelete': undeleteKey,
  'cloudbench.keys.checkRequest': checkKeyRequest,
  'cloudbench.keys.audit': auditApiKeys,
  'cloudbench.keys.exportAudit': exportKeyAudit,
  'cloudbench.keys.fixAuditFinding': fixAuditFinding,
  'cloudbench.keys.rotate': rotateKey,
};
