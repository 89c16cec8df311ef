// TypeScript shapes of the decoded messages Cloudbench reads (camelCase, int64 as strings, enums
// as names: the plain-object form of wire.ts). Only the fields the product uses are spelled out;
// the wire format comes from the official protos, never from these interfaces.
import type { AnyMessage } from './wire';

export interface Timestamp {
  seconds?: string;
  nanos?: number;
}

export interface ExportFormat {
  id?: string;
  exportableContents?: Array<'EXPORTABLE_CONTENT_UNSPECIFIED' | 'ARTIFACT' | 'IMAGE'>;
}

export interface DeployedModelRef {
  endpoint?: string;
  deployedModelId?: string;
}

export interface Checkpoint {
  checkpointId?: string;
  epoch?: string;
  step?: string;
}

export interface Model {
  name?: string;
  versionId?: string;
  versionAliases?: string[];
  versionCreateTime?: Timestamp;
  versionUpdateTime?: Timestamp;
  displayName?: string;
  description?: string;
  versionDescription?: string;
  defaultCheckpointId?: string;
  metadataSchemaUri?: string;
  supportedExportFormats?: ExportFormat[];
  trainingPipeline?: string;
  artifactUri?: string;
  createTime?: Timestamp;
  updateTime?: Timestamp;
  deployedModels?: DeployedModelRef[];
  etag?: string;
  labels?: Record<string, string>;
  modelSourceInfo?: { sourceType?: string; copy?: boolean };
  originalModelInfo?: { model?: string };
  checkpoints?: Checkpoint[];
  containerSpec?: { imageUri?: string };
  [field: string]: unknown;
}

export interface ModelEvaluation {
  name?: string;
  displayName?: string;
  metricsSchemaUri?: string;
  metrics?: unknown;
  createTime?: Timestamp;
  sliceDimensions?: string[];
  [field: string]: unknown;
}

export interface ModelEvaluationSlice {
  name?: string;
  slice?: { dimension?: string; value?: string };
  metricsSchemaUri?: string;
  metrics?: unknown;
  createTime?: Timestamp;
  [field: string]: unknown;
}

export interface EvaluatedAnnotation {
  type?: string;
  predictions?: unknown[];
  groundTruths?: unknown[];
  evaluatedDataItemViewId?: string;
  [field: string]: unknown;
}

export interface RpcStatus {
  code?: number;
  message?: string;
  details?: AnyMessage[];
}

export interface Operation {
  name: string;
  metadata?: AnyMessage;
  done?: boolean;
  error?: RpcStatus;
  response?: AnyMessage;
}

export interface GenericOperationMetadata {
  partialFailures?: RpcStatus[];
  createTime?: Timestamp;
  updateTime?: Timestamp;
}

/** The metadata types of the Model Registry's LROs all hold genericMetadata (export adds outputInfo). */
export interface ModelOperationMetadata {
  genericMetadata?: GenericOperationMetadata;
  outputInfo?: { artifactOutputUri?: string; imageOutputUri?: string };
}

export interface CopyModelResponse {
  model?: string;
  modelVersionId?: string;
}
export interface UploadModelResponse {
  model?: string;
  modelVersionId?: string;
}
export type ExportModelResponse = Record<string, never>;
export type Empty = Record<string, never>;

export interface Location {
  name?: string;
  locationId?: string;
  displayName?: string;
  labels?: Record<string, string>;
}

export interface Binding {
  role?: string;
  members?: string[];
  condition?: { expression?: string; title?: string; description?: string; location?: string };
}
export interface Policy {
  version?: number;
  bindings?: Binding[];
  etag?: string;
}

export interface DeployedModel {
  id?: string;
  model?: string;
  modelVersionId?: string;
  displayName?: string;
  [field: string]: unknown;
}
export interface Endpoint {
  name?: string;
  displayName?: string;
  deployedModels?: DeployedModel[];
  /** Deployed model id → percent of traffic (read it through core/models/traffic's trafficSplitOf). */
  trafficSplit?: unknown;
  [field: string]: unknown;
}

export interface OutputConfig {
  exportFormatId?: string;
  artifactDestination?: { outputUriPrefix: string };
  imageDestination?: { outputUri: string };
}

export function timestampToDate(ts: Timestamp | undefined | null): Date | undefined {
  if (!ts || ts.seconds === undefined) return undefined;
  return new Date(Number(ts.seconds) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6));
}
