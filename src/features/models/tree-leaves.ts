// The Models tree below a version: checkpoints, evaluations, slices and the evaluated annotations
// imported in this window. One class per node kind, each with the stable contextValue the menus in
// package.json match.
import * as vscode from 'vscode';
import type {
  Checkpoint,
  EvaluatedAnnotation,
  Model,
  ModelEvaluation,
  ModelEvaluationSlice,
} from '../../core/models/types';
import { type PagedList } from '../../core/paging';
import { headlineLines, headlineSummary, SCHEMA_TITLES, schemaOf } from '../../core/models/metrics';
import {
  annotationLabel,
  checkpointDescription,
  checkpointLabel,
  evaluationDescription,
  evaluationLabel,
  formatTime,
  lastSegment,
  sliceLabel,
  trafficText,
  versionName,
} from './presentation';
import { MessageNode, ModelsNode, PagedParent, pagedNodes, type TreeContext } from './tree-nodes';

export class CheckpointsNode extends PagedParent {
  readonly resourceName: string;
  protected what = 'checkpoints';
  protected override emptyText = 'No checkpoints';
  constructor(
    private readonly ctx: TreeContext,
    readonly version: Model,
  ) {
    super('Checkpoints', vscode.TreeItemCollapsibleState.Collapsed);
    this.resourceName = versionName(version);
    this.id = `checkpoints:${this.resourceName}`;
    this.contextValue = 'checkpoints';
    this.iconPath = new vscode.ThemeIcon('history');
  }

  protected createList(): PagedList<ModelsNode> {
    return pagedNodes(
      this.ctx,
      (client, page) => client.listModelVersionCheckpointsPage({ name: this.resourceName, ...page }),
      (c) => new CheckpointNode(this.resourceName, c, this.version.defaultCheckpointId),
    );
  }
}

export class CheckpointNode extends ModelsNode {
  readonly resourceName: string;
  constructor(
    readonly version: string,
    readonly checkpoint: Checkpoint,
    defaultCheckpointId?: string,
  ) {
    super(checkpointLabel(checkpoint), vscode.TreeItemCollapsibleState.None);
    this.resourceName = version;
    this.id = `checkpoint:${version}/${checkpoint.checkpointId ?? ''}`;
    this.contextValue = 'checkpoint';
    this.description = checkpointDescription(checkpoint, defaultCheckpointId);
    this.tooltip = `Checkpoint ${checkpoint.checkpointId ?? ''} of ${version}\nEpoch ${checkpoint.epoch ?? '0'}, step ${checkpoint.step ?? '0'}`;
    this.iconPath = new vscode.ThemeIcon('debug-breakpoint-log');
  }

  override details(): unknown {
    return this.checkpoint;
  }
}

export class EvaluationNode extends PagedParent {
  readonly resourceName: string;
  protected what = 'slices';
  protected override emptyText = 'No slices';
  constructor(
    private readonly ctx: TreeContext,
    readonly evaluation: ModelEvaluation,
  ) {
    super(evaluationLabel(evaluation), vscode.TreeItemCollapsibleState.Collapsed);
    this.resourceName = evaluation.name ?? '';
    this.id = `evaluation:${this.resourceName}`;
    this.contextValue = 'evaluation';
    const headline = headlineSummary(evaluation.metrics, evaluation.metricsSchemaUri);
    this.description = headline || evaluationDescription(evaluation);
    this.tooltip = [
      evaluationLabel(evaluation),
      ...headlineLines(evaluation.metrics, evaluation.metricsSchemaUri),
      this.resourceName,
      `Metrics schema: ${SCHEMA_TITLES[schemaOf(evaluation.metricsSchemaUri)]} (${evaluation.metricsSchemaUri ?? '—'})`,
      (evaluation.sliceDimensions ?? []).length ? `Slices by ${(evaluation.sliceDimensions ?? []).join(', ')}` : '',
      `Created: ${formatTime(evaluation.createTime)}`,
    ]
      .filter(Boolean)
      .join('\n');
    this.iconPath = new vscode.ThemeIcon('graph');
  }

  protected createList(): PagedList<ModelsNode> {
    return pagedNodes(
      this.ctx,
      (client, page) => client.listModelEvaluationSlicesPage({ parent: this.resourceName, ...page }),
      (sl) => new SliceNode(this.ctx, sl),
    );
  }

  override details(): unknown {
    return this.evaluation;
  }
}

export class SliceNode extends ModelsNode {
  readonly resourceName: string;
  constructor(
    private readonly ctx: TreeContext,
    readonly slice: ModelEvaluationSlice,
  ) {
    super(sliceLabel(slice), vscode.TreeItemCollapsibleState.Collapsed);
    this.resourceName = slice.name ?? '';
    this.id = `slice:${this.resourceName}`;
    this.contextValue = 'slice';
    this.description = headlineSummary(slice.metrics, slice.metricsSchemaUri) || lastSegment(slice.name);
    this.tooltip = [
      sliceLabel(slice),
      ...headlineLines(slice.metrics, slice.metricsSchemaUri),
      this.resourceName,
      `Created: ${formatTime(slice.createTime)}`,
    ].join('\n');
    this.iconPath = new vscode.ThemeIcon('pie-chart');
  }

  override getChildren(): Promise<ModelsNode[]> {
    const annotations = this.ctx.importedAnnotations(this.resourceName);
    const nodes: ModelsNode[] = annotations.map((a, i) => {
      const n = new AnnotationNode(this.resourceName, a, i);
      n.parent = this;
      return n;
    });
    nodes.push(
      new MessageNode(
        annotations.length
          ? 'Only annotations imported in this window are listed'
          : 'No evaluated annotations imported in this window',
        'info',
        'The Model Registry API imports evaluated annotations but has no call that lists them, so this tree shows the ones imported here.',
      ),
    );
    return Promise.resolve(nodes);
  }

  override details(): unknown {
    return this.slice;
  }
}

export class AnnotationNode extends ModelsNode {
  readonly resourceName: string;
  constructor(
    readonly slice: string,
    readonly annotation: EvaluatedAnnotation,
    index: number,
  ) {
    super(annotationLabel(annotation, index), vscode.TreeItemCollapsibleState.None);
    this.resourceName = slice;
    this.id = `annotation:${slice}#${index}`;
    this.contextValue = 'annotation';
    this.description = annotation.evaluatedDataItemViewId ?? '';
    this.iconPath = new vscode.ThemeIcon('note');
    this.tooltip = `Evaluated annotation ${index + 1} of slice ${slice}`;
  }

  override details(): unknown {
    return this.annotation;
  }
}

/** Where a version serves: one row per deployment, with its share of the endpoint's traffic. */
export class DeploymentNode extends ModelsNode {
  constructor(
    /** The version's resource name ("<model>@<version>"). */
    readonly resourceName: string,
    readonly endpoint: string,
    readonly deployedModelId: string,
    readonly endpointDisplayName: string | undefined,
    readonly share: number | undefined,
  ) {
    super(endpointDisplayName || `endpoint ${lastSegment(endpoint)}`, vscode.TreeItemCollapsibleState.None);
    this.id = `deployment:${resourceName}#${endpoint}#${deployedModelId}`;
    this.contextValue = 'deployment';
    this.description = `${trafficText(share)} · deployed model ${deployedModelId}`;
    this.iconPath = new vscode.ThemeIcon(share ? 'rocket' : 'circle-outline');
    this.tooltip = [
      `Deployed on ${endpointDisplayName ? `${endpointDisplayName} (${endpoint})` : endpoint}`,
      `Deployed model: ${deployedModelId}`,
      `Traffic: ${trafficText(share)}`,
    ].join('\n');
  }
}
