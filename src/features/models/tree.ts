// The Models tree: project → location → models (paged, filterable) → versions → evaluations →
// slices → evaluated annotations, and checkpoints under a version. One class per node kind, each
// with the stable contextValue the menus in package.json match.
import * as vscode from 'vscode';
import type { ModelRegistryClient } from '../../core/models/client';
import type { Location, Model } from '../../core/models/types';
import { PagedList } from '../../core/paging';
import { describeError, GoogleApiError } from '../../core/google/errors';
import { ReconnectSchedule } from '../../core/reconnect';
import { getLogger } from '../../platform/log';
import { endpointDisplayNames, locationDeployments, type LocationDeployments } from './deployments';
import {
  isDefaultVersion,
  locationTooltip,
  modelContextValue,
  modelDescription,
  modelLabel,
  modelTooltip,
  describeModelFilter,
  modelMatches,
  parseModelFilter,
  splitVersion,
  versionContextValue,
  versionDescription,
  versionLabel,
  versionName,
  versionTooltip,
} from './presentation';
import {
  ErrorNode,
  LoadMoreNode,
  ModelsNode,
  PagedParent,
  pagedNodes,
  pageSizeOf,
  type TreeContext,
} from './tree-nodes';
import { CheckpointsNode, DeploymentNode, EvaluationNode } from './tree-leaves';

export { DetailLineNode, ErrorNode, LoadMoreNode, MessageNode, ModelsNode, PAGE_SIZE, PagedParent } from './tree-nodes';
export type { TreeContext } from './tree-nodes';
export {
  AnnotationNode,
  CheckpointNode,
  CheckpointsNode,
  DeploymentNode,
  EvaluationNode,
  SliceNode,
} from './tree-leaves';

const log = getLogger('models');

/** Models fetched per call while looking for names that contain the filter text. */
const SCAN_PAGE_SIZE = 100;
/** A reveal loads at most this many pages of a location looking for a model. */
const FIND_MAX_PAGES = 20;

/** The resource, or undefined when the service says it is gone (NOT_FOUND). */
async function readUnlessGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof GoogleApiError && err.status === 'NOT_FOUND') return undefined;
    throw err;
  }
}

export class ProjectNode extends ModelsNode {
  readonly resourceName: string;
  constructor(
    private readonly ctx: TreeContext,
    readonly project: string,
  ) {
    super(project, vscode.TreeItemCollapsibleState.Expanded);
    this.resourceName = `projects/${project}`;
    this.id = `project:${project}`;
    this.contextValue = 'project';
    this.iconPath = new vscode.ThemeIcon('project');
    this.tooltip = `Google Cloud project ${project}`;
  }

  private locations: LocationNode[] | undefined;

  override async getChildren(): Promise<ModelsNode[]> {
    // Location nodes are kept so the models they already loaded survive a redraw of the project.
    if (this.locations) return this.locations;
    let client: ModelRegistryClient | undefined;
    try {
      client = this.ctx.client();
    } catch (err) {
      // An unusable endpoint setting: say so in the tree instead of calling anywhere else.
      return [new ErrorNode('the Model Registry endpoint', err)];
    }
    if (!client) return [];
    let locations: Location[] = this.ctx.configuredLocations().map((locationId) => ({ locationId }));
    if (locations.length === 0) {
      try {
        locations = [];
        for await (const l of client.listLocations(this.project)) if (l.locationId) locations.push(l);
      } catch (err) {
        return [new ErrorNode('locations (set cloudbench.locations to skip this call)', err)];
      }
    }
    this.locations = locations.map((l) => {
      // A configured location is only an ID; its display name and labels are read on hover.
      const listed = l.name ? l : undefined;
      const node = new LocationNode(this.ctx, this.project, l.locationId ?? '', listed);
      node.parent = this;
      return node;
    });
    return this.locations;
  }

  reset(): void {
    this.locations = undefined;
  }

  /** The locations shown so far, without loading anything. */
  loadedLocations(): LocationNode[] {
    return this.locations ?? [];
  }
}

export class LocationNode extends PagedParent {
  readonly resourceName: string;
  protected what = 'models';
  /** What the service says of the location (display name, labels); fetched on hover when not listed. */
  info: Location | undefined;
  constructor(
    private readonly ctx: TreeContext,
    readonly project: string,
    readonly location: string,
    info?: Location,
  ) {
    super(location, vscode.TreeItemCollapsibleState.Collapsed);
    this.resourceName = `projects/${project}/locations/${location}`;
    this.id = `location:${project}/${location}`;
    this.contextValue = 'location';
    this.iconPath = new vscode.ThemeIcon('globe');
    this.info = info;
    this.tooltip = info ? locationTooltip(info, this.resourceName) : this.resourceName;
    const filter = parseModelFilter(ctx.filter());
    if (filter) this.description = describeModelFilter(filter);
    this.emptyText = !filter
      ? 'No models in this location'
      : filter.kind === 'contains'
        ? `No model names contain "${filter.text}"`
        : 'No models match the filter';
  }

  protected createList(): PagedList<ModelsNode> {
    const filter = parseModelFilter(this.ctx.filter());
    if (filter?.kind === 'contains') return this.containsList(filter.text);
    const apiFilter = filter?.expression;
    // A model list shows only each default version's deployments; one endpoint listing per
    // location tells which models serve from any version.
    let deployed: Promise<LocationDeployments> | undefined;
    return new PagedList<ModelsNode>(async (pageToken) => {
      const client = this.ctx.client();
      if (!client) return { items: [] };
      deployed ??= locationDeployments(client, this.resourceName);
      const [page, serving] = await Promise.all([
        client.listModelsPage({
          parent: this.resourceName,
          pageSize: pageSizeOf(this.ctx),
          ...(pageToken ? { pageToken } : {}),
          ...(apiFilter ? { filter: apiFilter } : {}),
        }),
        deployed,
      ]);
      return {
        items: page.items.map((m) => new ModelNode(this.ctx, m, serving)),
        nextPageToken: page.nextPageToken,
      };
    }, pageSizeOf(this.ctx));
  }

  /**
   * Models whose name contains `text`, case-insensitively. The API filters display names by
   * equality only, so pages are fetched and matched here, as many as it takes to fill a page of
   * matches or reach the end of the location.
   */
  private containsList(text: string): PagedList<ModelsNode> {
    let deployed: Promise<LocationDeployments> | undefined;
    return new PagedList<ModelsNode>(async (pageToken) => {
      const client = this.ctx.client();
      if (!client) return { items: [] };
      deployed ??= locationDeployments(client, this.resourceName);
      const wanted = pageSizeOf(this.ctx);
      const found: Model[] = [];
      let token = pageToken;
      do {
        const page = await client.listModelsPage({
          parent: this.resourceName,
          pageSize: Math.max(wanted, SCAN_PAGE_SIZE),
          ...(token ? { pageToken: token } : {}),
        });
        // One model at a time: the ones that do not match are garbage at once, not a page kept whole.
        for (const m of page.itemsOneByOne?.() ?? page.items) {
          this.scanned++;
          if (modelMatches(m, text)) found.push(m);
        }
        token = page.nextPageToken || undefined;
      } while (token && found.length < wanted);
      const serving = await deployed;
      return {
        items: found.map((m) => new ModelNode(this.ctx, m, serving)),
        nextPageToken: token,
      };
    }, pageSizeOf(this.ctx));
  }

  /** Models looked at so far by a name filter (for the view's message). */
  scanned = 0;

  /** Fills the tooltip with the location's display name and labels (configured locations are not listed). */
  async resolveInfo(): Promise<void> {
    if (this.info) return;
    const client = this.ctx.client();
    if (!client) return;
    try {
      this.info = await client.getLocation(this.resourceName);
      this.tooltip = locationTooltip(this.info, this.resourceName);
    } catch (err) {
      this.tooltip = `${this.resourceName}\nDisplay name and labels could not be read: ${describeError(err)}`;
    }
  }
}

export class ModelNode extends PagedParent {
  readonly resourceName: string;
  protected what = 'versions';
  /** The model's default version as last read (ListModels, or GetModel when the row was refreshed). */
  model: Model;
  constructor(
    private readonly ctx: TreeContext,
    model: Model,
    readonly deployments?: LocationDeployments,
  ) {
    super(modelLabel(model), vscode.TreeItemCollapsibleState.Collapsed);
    this.resourceName = splitVersion(model.name ?? '').model;
    this.id = `model:${this.resourceName}`;
    this.model = model;
    this.show(model);
  }

  /** Shows `model` in the row: label, description, hover, menus and icon. */
  show(model: Model): void {
    this.model = model;
    this.label = modelLabel(model);
    const deployments = this.deployments;
    const anyVersionDeployed = deployments?.models.has(this.resourceName) ?? false;
    this.contextValue = modelContextValue(model);
    const serving = deployments?.byModel.get(this.resourceName);
    this.description = modelDescription(model, serving, deployments?.endpointNames);
    this.tooltip = modelTooltip(model, serving, deployments?.endpointNames);
    this.iconPath = new vscode.ThemeIcon(
      anyVersionDeployed || (model.deployedModels ?? []).length ? 'rocket' : 'symbol-class',
    );
  }

  /**
   * Reads the model again (GetModel: its default version, aliases, labels) and forgets its loaded
   * versions. False when the model is gone.
   */
  async reload(): Promise<boolean> {
    const client = this.ctx.client();
    if (!client) return true;
    const model = await readUnlessGone(() => client.getModel({ name: this.resourceName }));
    this.reset();
    if (!model) return false;
    this.show(model);
    return true;
  }

  /**
   * The hover names every endpoint by its display name: those the location's endpoint listing did
   * not give (it may be refused while GetEndpoint is allowed) are read one by one.
   */
  async resolveEndpointNames(): Promise<void> {
    const serving = this.deployments?.byModel.get(this.resourceName);
    const endpoints = [
      ...(serving ?? []).map((d) => d.endpoint),
      ...(this.model.deployedModels ?? []).map((d) => d.endpoint ?? ''),
    ];
    const names = await endpointDisplayNames(this.ctx.client(), endpoints, this.deployments?.endpointNames);
    if (names) this.tooltip = modelTooltip(this.model, serving, names);
  }

  protected createList(): PagedList<ModelsNode> {
    return pagedNodes(
      this.ctx,
      (client, page) => client.listModelVersionsPage({ name: this.resourceName, orderBy: 'create_time desc', ...page }),
      (v) => new VersionNode(this.ctx, v, this.deployments?.endpointNames, this.deployments?.traffic),
    );
  }

  override details(): unknown {
    return this.model;
  }
}

export class VersionNode extends PagedParent {
  readonly resourceName: string;
  protected what = 'evaluations';
  protected override emptyText = 'No evaluations';
  version: Model;
  constructor(
    private readonly ctx: TreeContext,
    version: Model,
    private readonly endpointNames?: ReadonlyMap<string, string>,
    /** Endpoint → traffic split, shared with the location's listing (Undeploy updates it). */
    private readonly traffic?: ReadonlyMap<string, Record<string, number>>,
  ) {
    super(versionLabel(version), vscode.TreeItemCollapsibleState.Collapsed);
    this.resourceName = versionName(version);
    this.id = `version:${this.resourceName}`;
    this.version = version;
    this.show(version);
  }

  /** Shows `version` in the row: label, aliases, hover, menus and icon. */
  show(version: Model): void {
    this.version = version;
    this.label = versionLabel(version);
    this.contextValue = versionContextValue(version);
    this.description = versionDescription(version, this.endpointNames);
    this.tooltip = versionTooltip(version, this.endpointNames);
    this.iconPath = new vscode.ThemeIcon(
      isDefaultVersion(version) ? 'star-full' : (version.deployedModels ?? []).length ? 'rocket' : 'versions',
    );
  }

  /** Reads the version again and forgets its loaded evaluations. False when the version is gone. */
  async reload(): Promise<boolean> {
    const client = this.ctx.client();
    if (!client) return true;
    const version = await readUnlessGone(() => client.getModel({ name: this.resourceName }));
    this.reset();
    if (!version) return false;
    this.show(version);
    return true;
  }

  get modelName(): string {
    return splitVersion(this.resourceName).model;
  }

  /** Like ModelNode's: endpoints the listing did not name are read with GetEndpoint for the hover. */
  async resolveEndpointNames(): Promise<void> {
    const endpoints = (this.version.deployedModels ?? []).map((d) => d.endpoint ?? '');
    const names = await endpointDisplayNames(this.ctx.client(), endpoints, this.endpointNames);
    if (names) this.tooltip = versionTooltip(this.version, names);
  }

  protected override leading(): ModelsNode[] {
    const deployments = (this.version.deployedModels ?? [])
      .filter((d) => d.endpoint && d.deployedModelId)
      .map(
        (d) =>
          new DeploymentNode(
            this.resourceName,
            d.endpoint!,
            d.deployedModelId!,
            this.endpointNames?.get(d.endpoint!),
            this.traffic?.get(d.endpoint!)?.[d.deployedModelId!] ?? (this.traffic?.has(d.endpoint!) ? 0 : undefined),
          ),
      );
    return [...deployments, new CheckpointsNode(this.ctx, this.version)];
  }

  protected createList(): PagedList<ModelsNode> {
    return pagedNodes(
      this.ctx,
      (client, page) => client.listModelEvaluationsPage({ parent: this.resourceName, ...page }),
      (e) => new EvaluationNode(this.ctx, e),
    );
  }

  override details(): unknown {
    return this.version;
  }
}

export class ModelsTreeProvider implements vscode.TreeDataProvider<ModelsNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ModelsNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private roots: ModelsNode[] | undefined;

  /** A load that failed for want of a connection is tried again by itself, with a growing wait. */
  private readonly reconnect: ReconnectSchedule;
  /** What the view says above its rows: "Connecting…" while a first load is pending. */
  message: string | undefined;
  private readonly messageChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeMessage = this.messageChanged.event;
  private firstLoads = 0;

  constructor(
    private readonly ctx: Omit<TreeContext, 'changed'>,
    reconnect?: ReconnectSchedule,
  ) {
    this.reconnect = reconnect ?? new ReconnectSchedule();
  }

  /** Reads a view that failed for want of a connection again now (the window regained focus). */
  checkNow(): void {
    this.reconnect.checkNow();
  }

  private setMessage(message: string | undefined): void {
    if (this.message === message) return;
    this.message = message;
    this.messageChanged.fire();
  }

  /**
   * A project's locations or a location's first page of models, saying "Connecting…" meanwhile;
   * a failed connection schedules a fresh read, so the view fills by itself when it works again.
   */
  private async firstLoad(element: ProjectNode | LocationNode): Promise<ModelsNode[]> {
    this.firstLoads++;
    this.setMessage('Connecting…');
    try {
      const children = await element.getChildren();
      const lost = children.find((c): c is ErrorNode => c instanceof ErrorNode && c.connectionLost);
      if (!lost) this.reconnect.succeeded();
      else if (this.reconnect.failed(() => this.refresh()))
        lost.tooltip = `${lost.fullText}\nCloudbench checks again by itself and shows the models when the connection works.`;
      return children;
    } finally {
      if (--this.firstLoads === 0) this.setMessage(undefined);
    }
  }

  private get treeContext(): TreeContext {
    return { ...this.ctx, changed: (n) => this.emitter.fire(n) };
  }

  refresh(node?: ModelsNode): void {
    if (!node) this.roots = undefined;
    else if (node instanceof PagedParent || node instanceof ProjectNode) node.reset();
    this.emitter.fire(node);
  }

  /** The row of a model if its location has loaded it (nothing is loaded to find it). */
  loadedModel(modelName: string): ModelNode | undefined {
    for (const root of this.roots ?? []) {
      if (!(root instanceof ProjectNode)) continue;
      for (const location of root.loadedLocations())
        for (const n of location.loadedChildren()) if (n instanceof ModelNode && n.resourceName === modelName) return n;
    }
    return undefined;
  }

  /**
   * Reads a model's row again after a change made here (an alias moved, a version deleted): its
   * default version, description and labels, and then its versions. A model found gone leaves.
   */
  async refreshModel(modelName: string): Promise<void> {
    const node = this.loadedModel(modelName);
    if (!node) return;
    try {
      await this.refreshRow(node);
    } catch (err) {
      // The change itself was made; a row that cannot be read now shows its error when opened.
      log.warn(`could not read ${modelName} again: ${describeError(err)}`);
      this.refresh(node);
    }
  }

  /** Notes an endpoint's traffic split as read now (after an undeploy) in every loaded location. */
  noteTraffic(endpoint: string, split: Record<string, number>): void {
    for (const root of this.roots ?? []) {
      if (!(root instanceof ProjectNode)) continue;
      for (const location of root.loadedLocations())
        for (const n of location.loadedChildren())
          if (n instanceof ModelNode) n.deployments?.traffic.set(endpoint, split);
    }
  }

  /** Takes a deleted model's row out of the tree, if it is shown. */
  removeModel(modelName: string): void {
    const node = this.loadedModel(modelName);
    if (node) this.removeRow(node);
  }

  /** Reads a model or version row again; a row whose resource is gone is taken out of the tree. */
  async refreshRow(node: ModelNode | VersionNode): Promise<'shown' | 'gone'> {
    if (await node.reload()) {
      this.emitter.fire(node);
      return 'shown';
    }
    this.removeRow(node);
    return 'gone';
  }

  /** Takes a row out (its resource is gone), keeping what its parent loaded. */
  removeRow(node: ModelsNode): void {
    const parent = node.parent;
    if (!(parent instanceof PagedParent)) return this.refresh();
    parent.drop(node);
    this.emitter.fire(parent);
  }

  /** The node of a model, loading its location's pages as needed (for reveal after a copy). */
  async findModel(modelName: string): Promise<ModelNode | undefined> {
    const m = modelName.match(/^projects\/([^/]+)\/locations\/([^/]+)\/models\/[^/@]+/);
    if (!m) return undefined;
    for (const root of await this.getChildren()) {
      if (!(root instanceof ProjectNode)) continue;
      const location = (await root.getChildren()).find(
        (n): n is LocationNode => n instanceof LocationNode && n.location === m[2],
      );
      if (!location) return undefined;
      // The copy may sort beyond the pages loaded so far: load more until it shows (a few pages).
      for (let page = 0; page < FIND_MAX_PAGES; page++) {
        const children = await location.getChildren();
        const found = children.find((n): n is ModelNode => n instanceof ModelNode && n.resourceName === m[0]);
        if (found) return found;
        if (!children.some((n) => n instanceof LoadMoreNode)) return undefined;
        await location.loadMore();
        this.emitter.fire(location);
      }
      return undefined;
    }
    return undefined;
  }

  /** Redraws a node with what it already loaded (after "Load more"). */
  redraw(node: ModelsNode): void {
    this.emitter.fire(node);
  }

  getTreeItem(element: ModelsNode): vscode.TreeItem {
    return element;
  }

  /** Hovering a location the service did not list (a configured one) reads its display name and labels. */
  async resolveTreeItem(item: vscode.TreeItem, element: ModelsNode): Promise<vscode.TreeItem> {
    if (element instanceof LocationNode) await element.resolveInfo();
    if (element instanceof ModelNode) await element.resolveEndpointNames();
    if (element instanceof VersionNode) await element.resolveEndpointNames();
    return item;
  }

  getParent(element: ModelsNode): ModelsNode | undefined {
    return element.parent;
  }

  async getChildren(element?: ModelsNode): Promise<ModelsNode[]> {
    if (element instanceof ProjectNode && element.loadedLocations().length === 0) return this.firstLoad(element);
    if (element instanceof LocationNode && element.loadedChildren().length === 0) return this.firstLoad(element);
    if (element) return element.getChildren();
    const project = this.ctx.project();
    if (!project || !this.ctx.client()) return [];
    this.roots ??= [new ProjectNode(this.treeContext, project)];
    return this.roots;
  }

  dispose(): void {
    this.reconnect.dispose();
    this.messageChanged.dispose();
    this.emitter.dispose();
  }
}
