// Looking at one resource: its details as proto3 JSON, its metrics page, a model's IAM policy.
import * as vscode from 'vscode';
import { fileTitle, modelLabel } from '../presentation';
import { needClient, nodeOf, toProto3Json, type ModelsContext } from '../context';
import { ownerOf, V1BETA1 } from '../details-documents';
import { metricsSourceFor } from '../metrics-source';
import {
  AnnotationNode,
  CheckpointNode,
  EvaluationNode,
  ModelNode,
  SliceNode,
  VersionNode,
  type ModelsNode,
} from '../tree';

/** The proto3 message type of a node's details. */
function detailsType(node: ModelsNode): string | undefined {
  if (node instanceof ModelNode || node instanceof VersionNode) return `${V1BETA1}.Model`;
  if (node instanceof EvaluationNode) return `${V1BETA1}.ModelEvaluation`;
  if (node instanceof SliceNode) return `${V1BETA1}.ModelEvaluationSlice`;
  if (node instanceof AnnotationNode) return `${V1BETA1}.EvaluatedAnnotation`;
  if (node instanceof CheckpointNode) return `${V1BETA1}.ModelVersionCheckpoint`;
  return undefined;
}

/** Opens a read-only document with every field of the node's resource. */
export async function showModelDetails(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, ModelNode, VersionNode, EvaluationNode, SliceNode, AnnotationNode, CheckpointNode);
  const type = detailsType(n)!;
  let value = n.details();
  // Tree items hold list results; a fresh Get shows every field of models and versions.
  if (n instanceof ModelNode || n instanceof VersionNode) {
    value = await needClient(ctx).getModel({ name: n instanceof VersionNode ? n.resourceName : `${n.resourceName}` });
  }
  const path =
    n instanceof AnnotationNode
      ? `${n.resourceName}/annotation-${n.id?.split('#')[1] ?? ''}`
      : n instanceof CheckpointNode
        ? `${n.resourceName}/checkpoint-${n.checkpoint.checkpointId ?? ''}`
        : n.resourceName;
  await ctx.details.open(path, toProto3Json(type, value), ownerOf(n) ?? { model: n.resourceName });
}

export function showModelMetrics(ctx: ModelsContext, node?: ModelsNode): void {
  const n = nodeOf(node, EvaluationNode, SliceNode);
  ctx.metrics.show(metricsSourceFor(needClient(ctx), n));
}

export async function showModelIamPolicy(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, ModelNode);
  const policy = await vscode.window.withProgress({ location: { viewId: 'cloudbench.models' } }, () =>
    needClient(ctx).getIamPolicy(n.resourceName, { requestedPolicyVersion: 3 }),
  );
  // The tab is titled by the resource ("churn-predictor · IAM policy"), not by a file name every policy shares.
  await ctx.details.open(
    `${n.resourceName}/${fileTitle(`${modelLabel(n.model)} · IAM policy`)}`,
    toProto3Json('google.iam.v1.Policy', policy),
    { model: n.resourceName },
  );
  if (!(policy.bindings ?? []).length)
    void vscode.window.showInformationMessage(
      `${modelLabel(n.model)} has no IAM policy of its own; access comes from the project.`,
    );
}
