// In-memory state of the sandbox's model registry: models with versions, evaluations, slices and
// evaluated annotations, endpoints with deployed models, IAM policies. Services read and change it;
// reset() reloads a seed. Timestamps are sandbox-clock milliseconds.
import type { SandboxClock } from '../types';
import { notFound, invalidArgument } from './errors';
import { numericId, timestamp } from './util';
import { AIPLATFORM, encodeMessage, type ProtoObject } from '../../core/proto';

export const DEMO_PROJECT_ID = 'cloudbench-demo';
export const DEMO_PROJECT_NUMBER = '123456789012';

export interface LocationInfo {
  id: string;
  displayName: string;
}

/** Regions the sandbox serves; every project sees all of them. */
export const LOCATIONS: readonly LocationInfo[] = [
  { id: 'us-central1', displayName: 'Iowa' },
  { id: 'us-east1', displayName: 'South Carolina' },
  { id: 'us-west1', displayName: 'Oregon' },
  { id: 'europe-west1', displayName: 'Belgium' },
  { id: 'europe-west4', displayName: 'Netherlands' },
  { id: 'asia-northeast1', displayName: 'Tokyo' },
  { id: 'asia-southeast1', displayName: 'Singapore' },
];

/** The project id a name refers to: the demo project's number is the same project. */
export function canonicalProject(project: string): string {
  return project === DEMO_PROJECT_NUMBER ? DEMO_PROJECT_ID : project;
}

export function checkLocation(location: string): void {
  if (!LOCATIONS.some((l) => l.id === location)) {
    throw invalidArgument(
      `Location "${location}" is not supported. Supported locations: ${LOCATIONS.map((l) => l.id).join(', ')}.`,
      [{ field: 'parent', description: `unsupported location ${location}` }],
    );
  }
}

export interface SliceRecord {
  id: string;
  createTime: number;
  /** ModelEvaluationSlice fields other than name and createTime. */
  message: ProtoObject;
  annotations: ProtoObject[];
}

export interface EvaluationRecord {
  id: string;
  versionId: string;
  createTime: number;
  /** ModelEvaluation fields other than name and createTime. */
  message: ProtoObject;
  slices: Map<string, SliceRecord>;
}

export interface VersionRecord {
  versionId: string;
  aliases: string[];
  createTime: number;
  updateTime: number;
  versionDescription: string;
  labels: Record<string, string>;
  /** Version-specific Model fields (artifactUri, containerSpec, supportedExportFormats, checkpoints, ...). */
  spec: ProtoObject;
}

/** What models and endpoints both are: a named, labelled resource of one location with an etag. */
export interface ResourceRecord {
  project: string;
  location: string;
  id: string;
  displayName: string;
  description: string;
  labels: Record<string, string>;
  createTime: number;
  updateTime: number;
  etagSeq: number;
}

export interface ModelRecord extends ResourceRecord {
  versions: Map<string, VersionRecord>;
  nextVersionId: number;
  evaluations: Map<string, EvaluationRecord>;
}

export interface EndpointRecord extends ResourceRecord {
  /** DeployedModel messages (model name without version, modelVersionId set). */
  deployedModels: ProtoObject[];
  trafficSplit: Record<string, number>;
}

export interface PolicyRecord {
  policy: ProtoObject;
  etagSeq: number;
}

export function modelKey(project: string, location: string, id: string): string {
  return `projects/${canonicalProject(project)}/locations/${location}/models/${id}`;
}

export function endpointKey(project: string, location: string, id: string): string {
  return `projects/${canonicalProject(project)}/locations/${location}/endpoints/${id}`;
}

/** A map that counts its changes, so that what is derived from it can be kept until it changes. */
export class RevisionedMap<K, V> extends Map<K, V> {
  revision = 0;
  override set(key: K, value: V): this {
    this.revision++;
    return super.set(key, value);
  }
  override delete(key: K): boolean {
    this.revision++;
    return super.delete(key);
  }
  override clear(): void {
    this.revision++;
    super.clear();
  }
}

export class ModelStore {
  readonly models = new RevisionedMap<string, ModelRecord>();
  /** A location's models newest first, as ListModels pages through them (see modelsNewestFirst). */
  private readonly newestFirst = new Map<string, { revision: number; models: ModelRecord[] }>();
  readonly endpoints = new Map<string, EndpointRecord>();
  /** Model and endpoint names taken by uploads, copies and creations still running, so a second one is refused at once. */
  readonly reservedNames = new Set<string>();
  /** Deployments still running: the model version is "being deployed" and cannot be deleted. */
  readonly pendingDeployments = new Map<string, { model: string; versionId: string; endpoint: string }>();
  readonly policies = new Map<string, PolicyRecord>();
  private idCounter = 0;
  /**
   * Counts changes that can show in a message: every call that is not a Get or List (server.ts),
   * every operation that finishes, every reset. Handlers change records in place, so what is
   * derived from records (encodedModel) is kept only while this stays the same.
   */
  private changes = 0;
  private readonly encodings = new WeakMap<ModelRecord, { changes: number; bytes: Uint8Array }>();

  constructor(readonly clock: SandboxClock) {}

  changed(): void {
    this.changes++;
  }

  /**
   * The encoded Model message of a model's default version, as ListModels returns it: kept until the
   * next change, so that paging through 10,000 unchanged models does not build and encode 10,000
   * messages again for every page.
   */
  encodedModel(model: ModelRecord): Uint8Array {
    const kept = this.encodings.get(model);
    if (kept?.changes === this.changes) return kept.bytes;
    const bytes = encodeMessage(`${AIPLATFORM}.Model`, this.modelMessage(model, defaultVersion(model)));
    this.encodings.set(model, { changes: this.changes, bytes });
    return bytes;
  }

  clear(): void {
    this.changes++;
    this.models.clear();
    this.endpoints.clear();
    this.reservedNames.clear();
    this.pendingDeployments.clear();
    this.policies.clear();
    this.idCounter = 0;
  }

  /**
   * The models under `prefix` (a location's models/ path), newest first, ties by id. Kept until a
   * model is added or removed (creation times and ids never change), so that paging through 10,000
   * models does not sort them again for every page.
   */
  modelsNewestFirst(prefix: string): readonly ModelRecord[] {
    const kept = this.newestFirst.get(prefix);
    if (kept?.revision === this.models.revision) return kept.models;
    const models: ModelRecord[] = [];
    for (const [key, model] of this.models) if (key.startsWith(prefix)) models.push(model);
    models.sort((a, b) => b.createTime - a.createTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.newestFirst.set(prefix, { revision: this.models.revision, models });
    return models;
  }

  /** A fresh, deterministic numeric id (same sequence after every reset). */
  nextId(kind: string): string {
    this.idCounter++;
    return numericId(`${kind}:${this.idCounter}`);
  }

  getModel(project: string, location: string, id: string): ModelRecord {
    return existing(this.models, modelKey(project, location, id), 'Model');
  }

  getEndpoint(project: string, location: string, id: string): EndpointRecord {
    return existing(this.endpoints, endpointKey(project, location, id), 'Endpoint');
  }

  /** The version a reference names: a version id, an alias, or (no reference) the default or latest. */
  resolveVersion(
    model: ModelRecord,
    ref: string | undefined,
    fallback: 'default' | 'latest' = 'default',
  ): VersionRecord {
    if (ref === undefined || ref === '' || ref === '-') {
      if (fallback === 'latest') return latestVersion(model);
      return defaultVersion(model);
    }
    const byId = model.versions.get(ref);
    if (byId) return byId;
    for (const v of model.versions.values()) if (v.aliases.includes(ref)) return v;
    const name = `${modelKey(model.project, model.location, model.id)}@${ref}`;
    throw notFound(
      `Model version ${name} does not exist: no version has the id or alias "${ref}".`,
      'aiplatform.googleapis.com/Model',
      name,
    );
  }

  /** Endpoints where a model (optionally one version) is deployed, as DeployedModelRef messages. */
  deploymentsOf(model: ModelRecord, versionId?: string): Array<{ endpoint: string; deployedModelId: string }> {
    const name = modelKey(model.project, model.location, model.id);
    const refs: Array<{ endpoint: string; deployedModelId: string }> = [];
    for (const [endpointName, endpoint] of this.endpoints) {
      for (const dm of endpoint.deployedModels) {
        if (dm.model === name && (versionId === undefined || dm.modelVersionId === versionId)) {
          refs.push({ endpoint: endpointName, deployedModelId: String(dm.id) });
        }
      }
    }
    return refs;
  }

  pendingDeploymentsOf(model: ModelRecord, versionId?: string): string[] {
    const name = modelKey(model.project, model.location, model.id);
    return [...this.pendingDeployments.values()]
      .filter((p) => p.model === name && (versionId === undefined || p.versionId === versionId))
      .map((p) => p.endpoint);
  }

  /** The Model message for one version, as GetModel returns it. */
  modelMessage(model: ModelRecord, version: VersionRecord, nameWithVersion = false): ProtoObject {
    const base = modelKey(model.project, model.location, model.id);
    return {
      ...version.spec,
      name: nameWithVersion ? `${base}@${version.versionId}` : base,
      versionId: version.versionId,
      versionAliases: [...version.aliases],
      versionCreateTime: timestamp(version.createTime),
      versionUpdateTime: timestamp(version.updateTime),
      displayName: model.displayName,
      description: model.description,
      versionDescription: version.versionDescription,
      labels: { ...model.labels, ...version.labels },
      createTime: timestamp(model.createTime),
      updateTime: timestamp(Math.max(model.updateTime, version.updateTime)),
      deployedModels: this.deploymentsOf(model, version.versionId),
      etag: modelEtag(model, version),
    };
  }

  endpointMessage(endpoint: EndpointRecord): ProtoObject {
    return {
      name: endpointKey(endpoint.project, endpoint.location, endpoint.id),
      displayName: endpoint.displayName,
      description: endpoint.description,
      labels: { ...endpoint.labels },
      deployedModels: endpoint.deployedModels.map((d) => ({ ...d })),
      trafficSplit: { ...endpoint.trafficSplit },
      createTime: timestamp(endpoint.createTime),
      updateTime: timestamp(endpoint.updateTime),
      etag: `AMEw9yP${Buffer.from(`${endpoint.id}:${endpoint.etagSeq}`).toString('base64url')}`,
    };
  }

  counts(): Record<string, number> {
    let versions = 0;
    let evaluations = 0;
    let slices = 0;
    let annotations = 0;
    for (const m of this.models.values()) {
      versions += m.versions.size;
      evaluations += m.evaluations.size;
      for (const e of m.evaluations.values()) {
        slices += e.slices.size;
        for (const s of e.slices.values()) annotations += s.annotations.length;
      }
    }
    let deployedModels = 0;
    for (const e of this.endpoints.values()) deployedModels += e.deployedModels.length;
    return {
      models: this.models.size,
      modelVersions: versions,
      modelEvaluations: evaluations,
      modelEvaluationSlices: slices,
      evaluatedAnnotations: annotations,
      endpoints: this.endpoints.size,
      deployedModels,
    };
  }
}

export function defaultVersion(model: ModelRecord): VersionRecord {
  for (const v of model.versions.values()) if (v.aliases.includes('default')) return v;
  // Unreachable while the invariant "exactly one default" holds; fall back to the latest.
  return latestVersion(model);
}

export function latestVersion(model: ModelRecord): VersionRecord {
  let latest: VersionRecord | undefined;
  for (const v of model.versions.values()) if (!latest || Number(v.versionId) > Number(latest.versionId)) latest = v;
  if (!latest) throw new Error(`model ${model.id} has no versions`);
  return latest;
}

export function modelEtag(model: ModelRecord, version: VersionRecord): string {
  return `AMEw9yN${Buffer.from(`${model.id}:${model.etagSeq}:${version.versionId}:${version.updateTime}`).toString('base64url')}`;
}

/** Version aliases: `[a-z][a-zA-Z0-9-]{0,126}[a-z-0-9]` (the proto's rule). */
export const ALIAS_PATTERN = /^[a-z][a-zA-Z0-9-]{0,126}[a-z0-9-]$/;

/** Model ids chosen by users: up to 63 of `[a-z0-9_-]`, not starting with a digit or hyphen. */
export const MODEL_ID_PATTERN = /^[a-z_][a-z0-9_-]{0,62}$/;

function existing<T>(records: Map<string, T>, name: string, kind: 'Model' | 'Endpoint'): T {
  const record = records.get(name);
  if (!record) throw notFound(`${kind} ${name} does not exist.`, `aiplatform.googleapis.com/${kind}`, name);
  return record;
}
