// The decoded shapes of the requests the sandbox's handlers read, and of the parts of stored messages they
// look into. Requests are decoded by the descriptor's codec (src/core/proto) with defaults filled in: unset
// strings are '', unset messages null, repeated fields [] and maps {}. Only the fields a handler reads are
// listed; the rest of a message stays in the ProtoObject it is part of.
import type { ProtoObject } from '../../core/proto';

export type FieldMask = { paths: string[] } | null;

/** The paging and filtering fields every List request has. */
export type ListRequest = {
  pageSize: number;
  pageToken: string;
  filter: string;
  readMask: FieldMask;
};

export type NameRequest = { name: string };

// ----- google.cloud.aiplatform.v1beta1.ModelService ------------------------------------------------

export type ModelInput = ProtoObject & {
  name: string;
  displayName: string;
  description: string;
  versionDescription: string;
  versionAliases: string[];
  labels: Record<string, string>;
  etag: string;
};

export type ExportFormat = { id: string; exportableContents: string[] };

export type ModelEvaluationSliceInput = ProtoObject & { slice: { dimension: string } | null };

/** The parts of a stored version spec (Model fields) that handlers read. */
export type ContainerSpec = { imageUri?: string | null };
export type BaseModelSource = { modelGardenSource?: { publicModelName?: string | null } | null };
export type Checkpoint = { checkpointId?: string; epoch?: string; step?: string };
export type ExplanationSpec = { parameters?: { examples?: ProtoObject | null } | null };
export type ModelSourceInfo = { sourceType?: string | null };

export interface ModelServiceRequests {
  UploadModel: { parent: string; parentModel: string; modelId: string; model: ModelInput | null };
  GetModel: NameRequest;
  ListModels: ListRequest & { parent: string };
  ListModelVersions: ListRequest & NameRequest & { orderBy: string };
  ListModelVersionCheckpoints: NameRequest & Pick<ListRequest, 'pageSize' | 'pageToken'>;
  UpdateModel: { model: ModelInput | null; updateMask: FieldMask };
  UpdateExplanationDataset: { model: string; examples: ProtoObject | null };
  DeleteModel: NameRequest;
  DeleteModelVersion: NameRequest;
  MergeVersionAliases: NameRequest & { versionAliases: string[] };
  ExportModel: NameRequest & {
    outputConfig: {
      exportFormatId: string;
      artifactDestination: { outputUriPrefix: string } | null;
      imageDestination: { outputUri: string } | null;
    } | null;
  };
  CopyModel: {
    parent: string;
    sourceModel: string;
    parentModel: string;
    modelId: string;
    encryptionSpec: ProtoObject | null;
  };
  ImportModelEvaluation: { parent: string; modelEvaluation: ProtoObject | null };
  BatchImportModelEvaluationSlices: { parent: string; modelEvaluationSlices: ModelEvaluationSliceInput[] };
  BatchImportEvaluatedAnnotations: { parent: string; evaluatedAnnotations: ProtoObject[] };
  GetModelEvaluation: NameRequest;
  ListModelEvaluations: ListRequest & { parent: string };
  GetModelEvaluationSlice: NameRequest;
  ListModelEvaluationSlices: ListRequest & { parent: string };
  RecommendSpec: { parent: string; gcsUri: string; checkMachineAvailability: boolean; checkUserQuota: boolean };
}

// ----- google.cloud.aiplatform.v1beta1.EndpointService ---------------------------------------------

export type EndpointInput = {
  name: string;
  displayName: string;
  description: string;
  labels: Record<string, string>;
  trafficSplit: Record<string, number>;
};

export type MachineSpec = { machineType?: string | null };

export type DedicatedResources = ProtoObject & {
  machineSpec?: MachineSpec | null;
  minReplicaCount?: number | null;
  maxReplicaCount?: number | null;
};

export type AutomaticResources = { minReplicaCount?: number | null; maxReplicaCount?: number | null };

export type DeployedModelInput = {
  model: string;
  displayName: string;
  serviceAccount: string;
  disableExplanations: boolean;
  enableAccessLogging: boolean;
  enableContainerLogging: boolean;
  dedicatedResources: DedicatedResources | null;
  automaticResources: AutomaticResources | null;
};

export interface EndpointServiceRequests {
  CreateEndpoint: { parent: string; endpointId: string; endpoint: EndpointInput | null };
  GetEndpoint: NameRequest;
  ListEndpoints: ListRequest & { parent: string };
  UpdateEndpoint: { endpoint: EndpointInput | null; updateMask: FieldMask };
  DeleteEndpoint: NameRequest;
  DeployModel: {
    endpoint: string;
    deployedModel: DeployedModelInput | null;
    trafficSplit: Record<string, number>;
  };
  UndeployModel: { endpoint: string; deployedModelId: string; trafficSplit: Record<string, number> };
}

// ----- google.longrunning.Operations, google.iam.v1.IAMPolicy, google.cloud.location.Locations -----

export interface OperationsRequests {
  GetOperation: NameRequest;
  ListOperations: NameRequest & Pick<ListRequest, 'pageSize' | 'pageToken' | 'filter'>;
  DeleteOperation: NameRequest;
  CancelOperation: NameRequest;
  WaitOperation: NameRequest & { timeout: { seconds: string | number; nanos: number } | null };
}

export type Binding = { role: string; members: string[]; condition: { expression: string } | null };

export type PolicyInput = {
  version: number;
  bindings: Binding[];
  auditConfigs: ProtoObject[];
  etag: Uint8Array;
};

export interface IamRequests {
  GetIamPolicy: { resource: string; options: { requestedPolicyVersion: number } | null };
  SetIamPolicy: { resource: string; policy: PolicyInput | null; updateMask: FieldMask };
  TestIamPermissions: { resource: string; permissions: string[] };
}

export interface LocationsRequests {
  ListLocations: NameRequest & Pick<ListRequest, 'pageSize' | 'pageToken' | 'filter'>;
  GetLocation: NameRequest;
}
