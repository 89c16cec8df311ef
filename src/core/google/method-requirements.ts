// What each method Cloudbench calls needs before it can succeed: the IAM permission, the predefined
// role that holds it, the documented preconditions, and its reference page. One table, used by every
// explanation of PERMISSION_DENIED and of a FAILED_PRECONDITION that came without a reason.
//
// Sources: the methods and preconditions are the seeds' (model management: "Constraints that hold";
// API keys: the 30-day undelete window, one application restriction, service-account binding);
// the API keys role is the seed's (roles/serviceusage.apiKeysAdmin). The Vertex AI permissions and
// roles, which the seed leaves out ("roles required per operation: not shown"), are those of Google's
// Vertex AI access-control page.

export interface MethodRequirement {
  /** What the method does, for sentences: "list models". */
  action: string;
  permission: string;
  /** Predefined roles that hold the permission, the narrowest first. */
  roles: string[];
  /** Documented conditions that must hold for the call to succeed. */
  preconditions: string[];
  docs: string;
}

const VERTEX_RPC = 'https://cloud.google.com/vertex-ai/docs/reference/rpc/google.cloud.aiplatform.v1beta1';
const VERTEX_ACCESS = 'https://cloud.google.com/vertex-ai/docs/general/access-control';
const KEYS_REST = 'https://cloud.google.com/api-keys/docs/reference/rest/v2';

export const VIEWER = 'roles/aiplatform.viewer';
export const USER = 'roles/aiplatform.user';
export const KEYS_ADMIN = 'roles/serviceusage.apiKeysAdmin';
export const KEYS_VIEWER = 'roles/serviceusage.apiKeysViewer';

function vertex(
  method: string,
  action: string,
  permission: string,
  write: boolean,
  preconditions: string[] = [],
  service = 'ModelService',
): [string, MethodRequirement] {
  const roles = write ? [USER] : [VIEWER, USER];
  const docs = `${VERTEX_RPC}#google.cloud.aiplatform.v1beta1.${service}.${method}`;
  return [method, { action, permission, roles, preconditions, docs }];
}

function keys(
  method: string,
  action: string,
  permission: string,
  write: boolean,
  docPath: string,
  preconditions: string[] = [],
): [string, MethodRequirement] {
  const roles = write ? [KEYS_ADMIN] : [KEYS_VIEWER, KEYS_ADMIN];
  return [method, { action, permission, roles, preconditions, docs: `${KEYS_REST}/${docPath}` }];
}

/** Keyed by the method names errors carry: gRPC method names and the API Keys discovery ids. */
export const METHOD_REQUIREMENTS: ReadonlyMap<string, MethodRequirement> = new Map([
  vertex('ListModels', 'list models', 'aiplatform.models.list', false),
  vertex('GetModel', 'read a model', 'aiplatform.models.get', false),
  vertex('ListModelVersions', 'list model versions', 'aiplatform.models.list', false),
  vertex('ListModelVersionCheckpoints', 'list checkpoints', 'aiplatform.models.get', false),
  vertex('UploadModel', 'upload a model', 'aiplatform.models.upload', true),
  vertex('UpdateModel', 'update a model', 'aiplatform.models.update', true),
  vertex('MergeVersionAliases', 'change version aliases', 'aiplatform.models.update', true, [
    'Every model keeps exactly one "default" alias: it can be moved to another version, never removed.',
  ]),
  vertex('DeleteModel', 'delete a model', 'aiplatform.models.delete', true, [
    'No endpoint has a deployed model based on the model: undeploy it from every endpoint first.',
  ]),
  vertex('DeleteModelVersion', 'delete a model version', 'aiplatform.models.delete', true, [
    'No deployed model was created from that version: undeploy it first.',
    'The version is not the only version of the model: delete the model instead.',
    'The version does not hold the "default" alias: move the alias to another version first.',
  ]),
  vertex('ExportModel', 'export a model', 'aiplatform.models.export', true, [
    'The model has at least one supported export format.',
  ]),
  vertex('CopyModel', 'copy a model', 'aiplatform.models.upload', true, [
    'The source model is in the same project as the destination location.',
  ]),
  vertex('ImportModelEvaluation', 'import an evaluation', 'aiplatform.modelEvaluations.import', true),
  vertex(
    'BatchImportModelEvaluationSlices',
    'import evaluation slices',
    'aiplatform.modelEvaluationSlices.import',
    true,
  ),
  vertex(
    'BatchImportEvaluatedAnnotations',
    'import evaluated annotations',
    'aiplatform.modelEvaluationSlices.import',
    true,
  ),
  vertex('GetModelEvaluation', 'read an evaluation', 'aiplatform.modelEvaluations.get', false),
  vertex('ListModelEvaluations', 'list evaluations', 'aiplatform.modelEvaluations.list', false),
  vertex('GetModelEvaluationSlice', 'read an evaluation slice', 'aiplatform.modelEvaluationSlices.get', false),
  vertex('ListModelEvaluationSlices', 'list evaluation slices', 'aiplatform.modelEvaluationSlices.list', false),
  vertex('ListEndpoints', 'list endpoints', 'aiplatform.endpoints.list', false, [], 'EndpointService'),
  vertex('GetEndpoint', 'read an endpoint', 'aiplatform.endpoints.get', false, [], 'EndpointService'),
  [
    'GetIamPolicy',
    {
      action: 'read an IAM policy',
      permission: 'aiplatform.models.getIamPolicy',
      roles: [VIEWER, USER],
      preconditions: [],
      docs: VERTEX_ACCESS,
    },
  ],
  [
    'ListLocations',
    {
      action: 'list locations',
      permission: 'aiplatform.locations.list',
      roles: [VIEWER, USER],
      preconditions: [],
      docs: VERTEX_ACCESS,
    },
  ],
  [
    'GetOperation',
    {
      action: 'follow an operation',
      permission: 'aiplatform.operations.get',
      roles: [VIEWER, USER],
      preconditions: [],
      docs: VERTEX_ACCESS,
    },
  ],
  [
    'CancelOperation',
    {
      action: 'cancel an operation',
      permission: 'aiplatform.operations.cancel',
      roles: [USER],
      preconditions: [],
      docs: VERTEX_ACCESS,
    },
  ],
  [
    'DeleteOperation',
    {
      action: 'stop following an operation (forget its result)',
      permission: 'aiplatform.operations.delete',
      roles: [USER],
      preconditions: [],
      docs: VERTEX_ACCESS,
    },
  ],
  keys('apikeys.keys.create', 'create an API key', 'apikeys.keys.create', true, 'projects.locations.keys/create', [
    'Keys are created in the location global only.',
    'Only one application restriction type per key.',
    'A key bound to a service account needs the organization policy constraints/iam.managed.disableServiceAccountApiKeyCreation not enforced, and allows only server (IP) restrictions.',
  ]),
  keys('apikeys.keys.list', 'list API keys', 'apikeys.keys.list', false, 'projects.locations.keys/list'),
  keys('apikeys.keys.get', 'read an API key', 'apikeys.keys.get', false, 'projects.locations.keys/get'),
  keys(
    'apikeys.keys.getKeyString',
    'read a key string',
    'apikeys.keys.getKeyString',
    false,
    'projects.locations.keys/getKeyString',
  ),
  keys('apikeys.keys.patch', 'change an API key', 'apikeys.keys.update', true, 'projects.locations.keys/patch', [
    'Only one application restriction type per key.',
    'A key bound to a service account allows only server (IP) restrictions.',
    'The etag sent is the key’s current one (reload the key if it changed).',
  ]),
  keys('apikeys.keys.delete', 'delete an API key', 'apikeys.keys.delete', true, 'projects.locations.keys/delete'),
  keys(
    'apikeys.keys.undelete',
    'undelete an API key',
    'apikeys.keys.undelete',
    true,
    'projects.locations.keys/undelete',
    ['The key was deleted at most 30 days ago.'],
  ),
  keys('apikeys.keys.lookupKey', 'look up a key string', 'apikeys.keys.lookup', false, 'keys/lookupKey'),
  keys('apikeys.operations.get', 'follow a key operation', 'apikeys.keys.get', false, 'operations/get'),
]);

/** The requirement of a method by the name an error carries ("ListModels", "/svc/ListModels", "apikeys.keys.list"). */
export function requirementOf(method: string | undefined): MethodRequirement | undefined {
  if (!method) return undefined;
  return METHOD_REQUIREMENTS.get(method) ?? METHOD_REQUIREMENTS.get(method.slice(method.lastIndexOf('/') + 1));
}

/** "needs aiplatform.models.list, in roles/aiplatform.viewer or roles/aiplatform.user". */
export function permissionSentence(r: MethodRequirement): string {
  const roles =
    r.roles.length > 1 ? `${r.roles.slice(0, -1).join(', ')} or ${r.roles[r.roles.length - 1]}` : r.roles[0];
  return `To ${r.action} you need the permission ${r.permission}, which the predefined role ${roles} holds; ask a project owner to grant it (${r.docs}).`;
}

export function preconditionSentence(r: MethodRequirement): string | undefined {
  if (!r.preconditions.length) return undefined;
  return `To ${r.action}, these must hold: ${r.preconditions.join(' ')} (${r.docs})`;
}

/** A FAILED_PRECONDITION message that names no reason of its own. */
export function isBarePrecondition(message: string): boolean {
  // The local sandbox's injected faults name only the status or HTTP code.
  const m = message
    .trim()
    .replace(/^injected fault:\s*/i, '')
    .replace(/[.\s]+$/, '');
  return (
    m === '' ||
    /^(failed_precondition|precondition (check )?failed|http \d{3}|9 FAILED_PRECONDITION:?|aborted)$/i.test(m) ||
    // What a finished operation says when its error carried no message.
    /^operation \S+ failed$/i.test(m)
  );
}

/**
 * What to do about a FAILED_PRECONDITION of a delete, by the method and the reason its message
 * gives (the deployed-model message is the one Vertex AI sends: "… is deployed or being deployed at
 * the following Endpoint(s): … Please undeploy the model before retry."). Undefined: no specific advice.
 */
const DELETE_PRECONDITIONS: Record<string, Array<[RegExp, string]>> = {
  DeleteModel: [
    [
      /deployed|endpoint/i,
      'Undeploy the model from every endpoint the message names (Show Deployments on the model lists them), then delete it again.',
    ],
  ],
  DeleteModelVersion: [
    [
      /deployed|endpoint/i,
      'Undeploy this version from the endpoints the message names (Show Deployments lists them), then delete it again.',
    ],
    [/only version|last version|DeleteModel/i, 'A model keeps at least one version: delete the whole model instead.'],
    [
      /default/i,
      'Move the "default" alias to another version first (Set Version Alias on that version), then delete this one.',
    ],
  ],
  'apikeys.keys.delete': [
    [
      /./,
      'The key cannot be deleted in the state it is in now: refresh the API Keys view to see that state (a key deleted already is listed under "Deleted keys"), then delete it again if it is still listed.',
    ],
  ],
};

export function deletePreconditionAdvice(method: string | undefined, message: string): string | undefined {
  if (!method) return undefined;
  const rules = DELETE_PRECONDITIONS[method] ?? DELETE_PRECONDITIONS[method.slice(method.lastIndexOf('/') + 1)];
  return rules?.find(([reason]) => reason.test(message))?.[1];
}
