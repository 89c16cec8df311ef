// The table of the RPCs the Model Registry client makes: the gRPC path, the message types, the
// request fields that go into the routing header, and whether a call is safe to repeat.
import { GoogleApiError } from '../google/errors';

const V1BETA1 = 'google.cloud.aiplatform.v1beta1';
const MODEL_SERVICE = `${V1BETA1}.ModelService`;
const ENDPOINT_SERVICE = `${V1BETA1}.EndpointService`;
const OPERATIONS = 'google.longrunning.Operations';
const LOCATIONS = 'google.cloud.location.Locations';
const IAM = 'google.iam.v1.IAMPolicy';

export interface MethodSpec {
  service: string;
  method: string;
  requestType: string;
  responseType: string;
  /** Request fields whose values go into x-goog-request-params (dotted paths). */
  routing: string[];
  /** Safe to repeat after UNAVAILABLE / DEADLINE_EXCEEDED. */
  idempotent: boolean;
}

/**
 * grpc-js words a deadline with its internal timings; people need the limit, and for a call that
 * changes something, that the change may have happened anyway.
 */
export function describeCallFailure(err: GoogleApiError, s: MethodSpec, timeoutMs: number): GoogleApiError {
  let message = err.message;
  if (err.status === 'DEADLINE_EXCEEDED')
    message = `${s.method} took longer than ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
  if (!s.idempotent && (err.status === 'DEADLINE_EXCEEDED' || err.status === 'UNAVAILABLE')) {
    message += '; the change may or may not have been applied, so refresh to check before trying again';
  }
  return message === err.message ? err : new GoogleApiError(err.status, message, err.options);
}

function spec(
  service: string,
  method: string,
  requestType: string,
  responseType: string,
  routing: string[],
  idempotent: boolean,
): MethodSpec {
  return { service, method, requestType, responseType, routing, idempotent };
}

export const CLIENT_METHODS = {
  uploadModel: spec(
    MODEL_SERVICE,
    'UploadModel',
    `${V1BETA1}.UploadModelRequest`,
    'google.longrunning.Operation',
    ['parent'],
    false,
  ),
  getModel: spec(MODEL_SERVICE, 'GetModel', `${V1BETA1}.GetModelRequest`, `${V1BETA1}.Model`, ['name'], true),
  listModels: spec(
    MODEL_SERVICE,
    'ListModels',
    `${V1BETA1}.ListModelsRequest`,
    `${V1BETA1}.ListModelsResponse`,
    ['parent'],
    true,
  ),
  listModelVersions: spec(
    MODEL_SERVICE,
    'ListModelVersions',
    `${V1BETA1}.ListModelVersionsRequest`,
    `${V1BETA1}.ListModelVersionsResponse`,
    ['name'],
    true,
  ),
  listModelVersionCheckpoints: spec(
    MODEL_SERVICE,
    'ListModelVersionCheckpoints',
    `${V1BETA1}.ListModelVersionCheckpointsRequest`,
    `${V1BETA1}.ListModelVersionCheckpointsResponse`,
    ['name'],
    true,
  ),
  updateModel: spec(
    MODEL_SERVICE,
    'UpdateModel',
    `${V1BETA1}.UpdateModelRequest`,
    `${V1BETA1}.Model`,
    ['model.name'],
    false,
  ),
  deleteModel: spec(
    MODEL_SERVICE,
    'DeleteModel',
    `${V1BETA1}.DeleteModelRequest`,
    'google.longrunning.Operation',
    ['name'],
    false,
  ),
  deleteModelVersion: spec(
    MODEL_SERVICE,
    'DeleteModelVersion',
    `${V1BETA1}.DeleteModelVersionRequest`,
    'google.longrunning.Operation',
    ['name'],
    false,
  ),
  mergeVersionAliases: spec(
    MODEL_SERVICE,
    'MergeVersionAliases',
    `${V1BETA1}.MergeVersionAliasesRequest`,
    `${V1BETA1}.Model`,
    ['name'],
    false,
  ),
  exportModel: spec(
    MODEL_SERVICE,
    'ExportModel',
    `${V1BETA1}.ExportModelRequest`,
    'google.longrunning.Operation',
    ['name'],
    false,
  ),
  copyModel: spec(
    MODEL_SERVICE,
    'CopyModel',
    `${V1BETA1}.CopyModelRequest`,
    'google.longrunning.Operation',
    ['parent'],
    false,
  ),
  importModelEvaluation: spec(
    MODEL_SERVICE,
    'ImportModelEvaluation',
    `${V1BETA1}.ImportModelEvaluationRequest`,
    `${V1BETA1}.ModelEvaluation`,
    ['parent'],
    false,
  ),
  batchImportModelEvaluationSlices: spec(
    MODEL_SERVICE,
    'BatchImportModelEvaluationSlices',
    `${V1BETA1}.BatchImportModelEvaluationSlicesRequest`,
    `${V1BETA1}.BatchImportModelEvaluationSlicesResponse`,
    ['parent'],
    false,
  ),
  batchImportEvaluatedAnnotations: spec(
    MODEL_SERVICE,
    'BatchImportEvaluatedAnnotations',
    `${V1BETA1}.BatchImportEvaluatedAnnotationsRequest`,
    `${V1BETA1}.BatchImportEvaluatedAnnotationsResponse`,
    ['parent'],
    false,
  ),
  getModelEvaluation: spec(
    MODEL_SERVICE,
    'GetModelEvaluation',
    `${V1BETA1}.GetModelEvaluationRequest`,
    `${V1BETA1}.ModelEvaluation`,
    ['name'],
    true,
  ),
  listModelEvaluations: spec(
    MODEL_SERVICE,
    'ListModelEvaluations',
    `${V1BETA1}.ListModelEvaluationsRequest`,
    `${V1BETA1}.ListModelEvaluationsResponse`,
    ['parent'],
    true,
  ),
  getModelEvaluationSlice: spec(
    MODEL_SERVICE,
    'GetModelEvaluationSlice',
    `${V1BETA1}.GetModelEvaluationSliceRequest`,
    `${V1BETA1}.ModelEvaluationSlice`,
    ['name'],
    true,
  ),
  listModelEvaluationSlices: spec(
    MODEL_SERVICE,
    'ListModelEvaluationSlices',
    `${V1BETA1}.ListModelEvaluationSlicesRequest`,
    `${V1BETA1}.ListModelEvaluationSlicesResponse`,
    ['parent'],
    true,
  ),
  getOperation: spec(
    OPERATIONS,
    'GetOperation',
    'google.longrunning.GetOperationRequest',
    'google.longrunning.Operation',
    ['name'],
    true,
  ),
  listOperations: spec(
    OPERATIONS,
    'ListOperations',
    'google.longrunning.ListOperationsRequest',
    'google.longrunning.ListOperationsResponse',
    ['name'],
    true,
  ),
  cancelOperation: spec(
    OPERATIONS,
    'CancelOperation',
    'google.longrunning.CancelOperationRequest',
    'google.protobuf.Empty',
    ['name'],
    true,
  ),
  deleteOperation: spec(
    OPERATIONS,
    'DeleteOperation',
    'google.longrunning.DeleteOperationRequest',
    'google.protobuf.Empty',
    ['name'],
    true,
  ),
  waitOperation: spec(
    OPERATIONS,
    'WaitOperation',
    'google.longrunning.WaitOperationRequest',
    'google.longrunning.Operation',
    ['name'],
    true,
  ),
  listLocations: spec(
    LOCATIONS,
    'ListLocations',
    'google.cloud.location.ListLocationsRequest',
    'google.cloud.location.ListLocationsResponse',
    ['name'],
    true,
  ),
  getLocation: spec(
    LOCATIONS,
    'GetLocation',
    'google.cloud.location.GetLocationRequest',
    'google.cloud.location.Location',
    ['name'],
    true,
  ),
  getIamPolicy: spec(
    IAM,
    'GetIamPolicy',
    'google.iam.v1.GetIamPolicyRequest',
    'google.iam.v1.Policy',
    ['resource'],
    true,
  ),
  setIamPolicy: spec(
    IAM,
    'SetIamPolicy',
    'google.iam.v1.SetIamPolicyRequest',
    'google.iam.v1.Policy',
    ['resource'],
    false,
  ),
  testIamPermissions: spec(
    IAM,
    'TestIamPermissions',
    'google.iam.v1.TestIamPermissionsRequest',
    'google.iam.v1.TestIamPermissionsResponse',
    ['resource'],
    true,
  ),
  createEndpoint: spec(
    ENDPOINT_SERVICE,
    'CreateEndpoint',
    `${V1BETA1}.CreateEndpointRequest`,
    'google.longrunning.Operation',
    ['parent'],
    false,
  ),
  getEndpoint: spec(
    ENDPOINT_SERVICE,
    'GetEndpoint',
    `${V1BETA1}.GetEndpointRequest`,
    `${V1BETA1}.Endpoint`,
    ['name'],
    true,
  ),
  listEndpoints: spec(
    ENDPOINT_SERVICE,
    'ListEndpoints',
    `${V1BETA1}.ListEndpointsRequest`,
    `${V1BETA1}.ListEndpointsResponse`,
    ['parent'],
    true,
  ),
  deleteEndpoint: spec(
    ENDPOINT_SERVICE,
    'DeleteEndpoint',
    `${V1BETA1}.DeleteEndpointRequest`,
    'google.longrunning.Operation',
    ['name'],
    false,
  ),
  deployModel: spec(
    ENDPOINT_SERVICE,
    'DeployModel',
    `${V1BETA1}.DeployModelRequest`,
    'google.longrunning.Operation',
    ['endpoint'],
    false,
  ),
  undeployModel: spec(
    ENDPOINT_SERVICE,
    'UndeployModel',
    `${V1BETA1}.UndeployModelRequest`,
    'google.longrunning.Operation',
    ['endpoint'],
    false,
  ),
} as const;

export const grpcMethodPath = (s: MethodSpec): string => `/${s.service}/${s.method}`;
