// What the models tree shows for each resource: labels, descriptions, tooltips and the
// contextValues the menus in package.json match. No vscode import, so it is unit-tested in Node.
import { safeText } from '../../core/display';
import type {
  Checkpoint,
  EvaluatedAnnotation,
  Location,
  Model,
  ModelEvaluation,
  ModelEvaluationSlice,
  Timestamp,
} from '../../core/models/types';
import { timestampToDate } from '../../core/models/types';

export function lastSegment(name: string | undefined): string {
  if (!name) return '';
  return name.slice(name.lastIndexOf('/') + 1);
}

/** "projects/p/locations/l/models/m@3" → { model: ".../models/m", version: "3" }. */
export function splitVersion(name: string): { model: string; version: string | undefined } {
  const at = name.lastIndexOf('@');
  return at < 0 ? { model: name, version: undefined } : { model: name.slice(0, at), version: name.slice(at + 1) };
}

export function modelIdOf(name: string | undefined): string {
  return splitVersion(lastSegment(name)).model;
}

export function formatTime(ts: Timestamp | undefined): string {
  const d = timestampToDate(ts);
  if (!d) return '';
  return d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}

export function isExportable(model: Model): boolean {
  return (model.supportedExportFormats ?? []).length > 0;
}

export function isDefaultVersion(model: Model): boolean {
  return (model.versionAliases ?? []).includes('default');
}

export function modelContextValue(model: Model): string {
  return isExportable(model) ? 'model.exportable' : 'model';
}

export function versionContextValue(model: Model): string {
  // ".deployed": Undeploy is offered (the menus match "^modelVersion" for the rest).
  const deployed = (model.deployedModels ?? []).length ? '.deployed' : '';
  return `${isExportable(model) ? 'modelVersion.exportable' : 'modelVersion'}${deployed}`;
}

/** "60% of traffic", "no traffic", or "traffic share unknown" when the endpoint could not be read. */
export function trafficText(share: number | undefined): string {
  if (share === undefined) return 'traffic share unknown';
  return share === 0 ? 'no traffic' : `${share}% of traffic`;
}

/**
 * A model named so it cannot be confused with its copies: the display name, the ID when it differs
 * (a copy keeps the display name), and the location: "churn-predictor (europe-west4)",
 * "churn-predictor (ID 8123, europe-west4)".
 */
export function modelRef(name: string | undefined, displayName?: string): string {
  const id = modelIdOf(name);
  const location = /\/locations\/([^/]+)\//.exec(name ?? '')?.[1];
  const shown = displayName || id;
  const extra = [shown !== id && id ? `ID ${id}` : '', location ?? ''].filter(Boolean).join(', ');
  // Shown in notifications, titles and quick picks: a display name is the model owner's text.
  return safeText(extra ? `${shown} (${extra})` : shown);
}

/** "version 3 of model churn-predictor (europe-west4)". */
export function versionRef(version: Model): string {
  return `version ${safeText(version.versionId ?? '?')} of model ${modelRef(version.name, version.displayName)}`;
}

export function modelLabel(model: Model): string {
  // Shown in notifications, titles and quick picks: a display name is the model owner's text.
  return safeText(model.displayName || modelIdOf(model.name));
}

/** Where one version of a model serves: the endpoint resource name and the deployed model's ID. */
export interface VersionDeployment {
  endpoint: string;
  versionId?: string;
  deployedModelId?: string;
}

/** "churn-online (endpoint 1504042704147557520)", or "endpoint 1504042704147557520" when its display name is unknown. */
export function endpointLabel(endpoint: string, endpointNames?: ReadonlyMap<string, string>): string {
  const display = endpointNames?.get(endpoint);
  const id = lastSegment(endpoint);
  return display ? `${display} (endpoint ${id})` : `endpoint ${id}`;
}

/** "deployed on churn-online" for one endpoint, "deployed on N endpoints" for several. */
export function deployedPhrase(endpoints: readonly string[], endpointNames?: ReadonlyMap<string, string>): string {
  const unique = [...new Set(endpoints)];
  if (unique.length > 1) return `deployed on ${unique.length} endpoints`;
  const one = unique[0];
  const display = one ? endpointNames?.get(one) : undefined;
  return display ? `deployed on ${display}` : 'deployed';
}

/**
 * `deployments`: every version's deployments in the model's location (the default version may be
 * undeployed while another version serves); without them, the default version's own.
 */
export function modelDescription(
  model: Model,
  deployments?: readonly VersionDeployment[],
  endpointNames?: ReadonlyMap<string, string>,
): string {
  const parts = [modelIdOf(model.name)];
  const serving = deploymentsOf(model, deployments);
  if (serving.length)
    parts.push(
      deployedPhrase(
        serving.map((d) => d.endpoint),
        endpointNames,
      ),
    );
  if (isExportable(model)) parts.push('exportable');
  return parts.join(' · ');
}

function deploymentsOf(model: Model, deployments?: readonly VersionDeployment[]): VersionDeployment[] {
  if (deployments?.length) return [...deployments];
  return (model.deployedModels ?? [])
    .filter((d) => !!d.endpoint)
    .map((d) => ({
      endpoint: d.endpoint!,
      ...(model.versionId ? { versionId: model.versionId } : {}),
      ...(d.deployedModelId ? { deployedModelId: d.deployedModelId } : {}),
    }));
}

export function modelTooltip(
  model: Model,
  deployments?: readonly VersionDeployment[],
  endpointNames?: ReadonlyMap<string, string>,
): string {
  const serving = deploymentsOf(model, deployments);
  const lines = [
    `${modelLabel(model)}`,
    `Name: ${splitVersion(model.name ?? '').model}`,
    model.description ? `Description: ${model.description}` : '',
    `Default version: ${model.versionId ?? '?'}`,
    model.createTime ? `Created: ${formatTime(model.createTime)}` : '',
    model.updateTime ? `Updated: ${formatTime(model.updateTime)}` : '',
    `Export formats: ${(model.supportedExportFormats ?? []).map((f) => f.id).join(', ') || 'none (not exportable)'}`,
    serving.length ? 'Deployed:' : 'Not deployed',
    ...serving.map(
      (d) =>
        `  • ${d.versionId ? `version ${d.versionId} on ` : ''}${endpointLabel(d.endpoint, endpointNames)}${d.deployedModelId ? `, deployed model ${d.deployedModelId}` : ''}`,
    ),
    Object.keys(model.labels ?? {}).length
      ? `Labels: ${Object.entries(model.labels ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}`
      : '',
  ];
  return lines.filter(Boolean).join('\n');
}

/** Hover text of a location: resource name, display name and labels as the service reports them. */
export function locationTooltip(location: Location, resourceName: string): string {
  const labels = Object.entries(location.labels ?? {});
  return [
    location.displayName ? `${location.displayName} (${location.locationId ?? lastSegment(resourceName)})` : '',
    resourceName,
    labels.length ? `Labels: ${labels.map(([k, v]) => `${k}=${v}`).join(', ')}` : 'Labels: none',
  ]
    .filter(Boolean)
    .join('\n');
}

/** "Version 3" with aliases as badges: "Version 3  [default] [golden]". */
export function versionLabel(version: Model): string {
  return `Version ${version.versionId ?? '?'}`;
}

export function aliasBadges(version: Model): string {
  return (version.versionAliases ?? []).map((a) => `@${a}`).join(' ');
}

/** The aliases once (the default version's star icon and "@default" say the same thing). */
export function versionDescription(version: Model, endpointNames?: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  const badges = aliasBadges(version);
  if (badges) parts.push(badges);
  const endpoints = deployedEndpoints(version);
  if (endpoints.length) parts.push(deployedPhrase(endpoints, endpointNames));
  const created = formatTime(version.versionCreateTime);
  if (created) parts.push(`created ${created}`);
  return parts.join(' · ');
}

/** The endpoints a version is deployed on (one entry per endpoint), from the Model's deployedModels. */
export function deployedEndpoints(version: Model): string[] {
  return [...new Set((version.deployedModels ?? []).map((d) => d.endpoint ?? '').filter(Boolean))];
}

/** "Deployed on: churn-online (projects/…/endpoints/123, deployed model 456)", one line per endpoint. */
function deploymentLines(version: Model, endpointNames?: ReadonlyMap<string, string>): string[] {
  const refs = version.deployedModels ?? [];
  if (!refs.length) return ['Not deployed'];
  return [
    `Deployed on ${deployedEndpoints(version).length === 1 ? 'endpoint' : 'endpoints'}:`,
    ...refs.map((d) => {
      const endpoint = d.endpoint ?? '';
      const display = endpointNames?.get(endpoint);
      const id = d.deployedModelId ? `, deployed model ${d.deployedModelId}` : '';
      return `  • ${display ? `${display} (${endpoint}${id})` : `${endpoint}${id}`}`;
    }),
  ];
}

/** `endpointNames`: endpoint resource name → display name, when the location's endpoints were listed. */
export function versionTooltip(version: Model, endpointNames?: ReadonlyMap<string, string>): string {
  return [
    `${modelLabel(version)}, version ${version.versionId ?? '?'}${isDefaultVersion(version) ? ' (default version)' : ''}`,
    `Name: ${splitVersion(version.name ?? '').model}@${version.versionId ?? ''}`,
    `Aliases: ${(version.versionAliases ?? []).join(', ') || 'none'}`,
    ...deploymentLines(version, endpointNames),
    version.versionDescription ? `Description: ${version.versionDescription}` : '',
    version.versionCreateTime ? `Created: ${formatTime(version.versionCreateTime)}` : '',
    version.versionUpdateTime ? `Updated: ${formatTime(version.versionUpdateTime)}` : '',
    `Export formats: ${(version.supportedExportFormats ?? []).map((f) => `${f.id} (${(f.exportableContents ?? []).join('+').toLowerCase()})`).join(', ') || 'none'}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The version-qualified name for calls on one version. */
export function versionName(version: Model): string {
  return `${splitVersion(version.name ?? '').model}@${version.versionId ?? ''}`;
}

export function evaluationLabel(evaluation: ModelEvaluation): string {
  return evaluation.displayName || `Evaluation ${lastSegment(evaluation.name)}`;
}

export function evaluationDescription(evaluation: ModelEvaluation): string {
  const parts = [lastSegment(evaluation.name)];
  if ((evaluation.sliceDimensions ?? []).length)
    parts.push(`slices by ${(evaluation.sliceDimensions ?? []).join(', ')}`);
  const created = formatTime(evaluation.createTime);
  if (created) parts.push(created);
  return parts.join(' · ');
}

export function sliceLabel(slice: ModelEvaluationSlice): string {
  const dim = slice.slice?.dimension;
  const value = slice.slice?.value;
  if (dim && value) return `${dim} = ${value}`;
  if (dim) return dim;
  return `Slice ${lastSegment(slice.name)}`;
}

export function annotationLabel(annotation: EvaluatedAnnotation, index: number): string {
  const type = (annotation.type ?? 'EVALUATED_ANNOTATION_TYPE_UNSPECIFIED')
    .replace(/^EVALUATED_ANNOTATION_TYPE_UNSPECIFIED$/, 'annotation')
    .toLowerCase()
    .replace(/_/g, ' ');
  return `#${index + 1} ${type}`;
}

export function checkpointLabel(checkpoint: Checkpoint): string {
  return `Checkpoint ${checkpoint.checkpointId ?? '?'}`;
}

export function checkpointDescription(checkpoint: Checkpoint, defaultCheckpointId?: string): string {
  const parts = [`epoch ${checkpoint.epoch ?? '0'}`, `step ${checkpoint.step ?? '0'}`];
  if (defaultCheckpointId && checkpoint.checkpointId === defaultCheckpointId) parts.push('★ default');
  return parts.join(' · ');
}

/** Model IDs users type for CopyModel: ≤63 chars, [a-z0-9_-], first char not a digit or hyphen. */
export function validateModelId(id: string): string | undefined {
  if (id === '') return undefined;
  if (id.length > 63) return 'At most 63 characters.';
  if (!/^[a-z0-9_-]+$/.test(id)) return 'Only lowercase letters, digits, "_" and "-".';
  if (/^[0-9-]/.test(id)) return 'The first character cannot be a digit or a hyphen.';
  return undefined;
}

/** Version aliases: [a-z][a-zA-Z0-9-]{0,126}[a-z0-9], and "default" belongs to exactly one version. */
export function validateAlias(alias: string): string | undefined {
  const a = alias.startsWith('-') ? alias.slice(1) : alias;
  if (a === '') return 'Enter an alias, e.g. golden.';
  if (!/^[a-z][a-zA-Z0-9-]{0,126}[a-z0-9]$/.test(a))
    return 'An alias starts with a lowercase letter, ends with a lowercase letter or digit, uses letters, digits and "-", and has 2-128 characters.';
  if (/^[0-9]+$/.test(a)) return 'An alias cannot be a number (numbers are version IDs).';
  return undefined;
}

/** A ListModels filter for what the user typed: raw filter syntax passes through, plain text matches the display name. */
export function filterExpression(input: string): string | undefined {
  const text = input.trim();
  if (text === '') return undefined;
  if (/[=:!]/.test(text)) return text;
  return `display_name="${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** What the user typed in Filter Models: part of a name, or (advanced) the API's own filter syntax. */
export type ModelFilter = { kind: 'api'; expression: string } | { kind: 'contains'; text: string };

export function parseModelFilter(input: string | undefined): ModelFilter | undefined {
  const text = (input ?? '').trim();
  if (text === '') return undefined;
  if (/[=:!<>]/.test(text) || /\b(AND|OR|NOT)\b/.test(text)) return { kind: 'api', expression: text };
  return { kind: 'contains', text };
}

/** Case-insensitive substring match on the display name or the model ID. */
export function modelMatches(model: Model, text: string): boolean {
  const needle = text.toLowerCase();
  return (
    (model.displayName ?? '').toLowerCase().includes(needle) || modelIdOf(model.name).toLowerCase().includes(needle)
  );
}

export function describeModelFilter(filter: ModelFilter): string {
  return filter.kind === 'contains' ? `name contains "${filter.text}"` : `filter: ${filter.expression}`;
}

/** What an alias change did, naming the version the alias left: "Moved @golden from version 1 to version 2." */
export function aliasMoveMessage(
  alias: string,
  versionId: string,
  removed: boolean,
  previousHolder: string | undefined,
  aliasesNow: string[],
): string {
  const now = `Version ${versionId} aliases: ${aliasesNow.join(', ') || 'none'}.`;
  if (removed)
    return previousHolder === versionId
      ? `Removed @${alias} from version ${versionId}. ${now}`
      : `Version ${versionId} did not hold @${alias}; nothing removed. ${now}`;
  if (previousHolder && previousHolder !== versionId)
    return `Moved @${alias} from version ${previousHolder} to version ${versionId}. ${now}`;
  return `Set @${alias} on version ${versionId} (no other version held it). ${now}`;
}

/** A tab title built from names: no path separators, so the whole text is the title. */
export function fileTitle(text: string): string {
  return text.replace(/[/\\]/g, '-').replace(/\s+/g, ' ').trim().slice(0, 120) || 'untitled';
}
