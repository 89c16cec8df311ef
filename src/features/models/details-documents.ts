// Read-only JSON documents for the details and IAM policies of Model Registry resources. Each URI
// names the model and version it shows, so tabs the editor restores after a reload can be closed
// when their resource is deleted.
import * as vscode from 'vscode';
import { ModelNode, VersionNode, type ModelsNode } from './tree';

export const V1BETA1 = 'google.cloud.aiplatform.v1beta1';
export const DETAILS_SCHEME = 'cloudbench-models';

/** The model (and version, for what belongs to one version) a details document shows. */
export interface DetailsOwner {
  model: string;
  versionId?: string | undefined;
}

/**
 * The owner of a details document, written into its URI so that a tab the editor restores after a
 * window reload still says which model and version it shows. The path is the resource name (an
 * evaluation's name does not hold its version, hence the query).
 */
function detailsUri(path: string, owner: DetailsOwner): vscode.Uri {
  const query = new URLSearchParams({ model: owner.model });
  if (owner.versionId !== undefined) query.set('version', owner.versionId);
  return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${path}.json`, query: query.toString() });
}

const MODEL_PATH = /^\/(projects\/[^/]+\/locations\/[^/]+\/models\/[^/@]+?)(?:@([^/]+?))?(?:\/|\.json$)/;

/** The owner a details URI names: from its query, or for a URI without one, from its path. */
function detailsOwnerOf(uri: { scheme: string; path: string; query: string }): DetailsOwner | undefined {
  if (uri.scheme !== DETAILS_SCHEME) return undefined;
  const query = new URLSearchParams(uri.query);
  const model = query.get('model');
  if (model) return { model, versionId: query.get('version') ?? undefined };
  const m = MODEL_PATH.exec(uri.path);
  return m ? { model: m[1], versionId: m[2] } : undefined;
}

/** Read-only JSON documents for details and IAM policies, keyed by URI. */
export class DetailsDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, { text: string; owner: DetailsOwner }>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.docs.get(uri.toString())?.text ??
      '{\n  "note": "This resource was deleted or this window no longer holds its details; refresh the Models view."\n}\n'
    );
  }
  async open(path: string, json: unknown, owner: DetailsOwner): Promise<void> {
    const uri = detailsUri(path, owner);
    this.docs.set(uri.toString(), { text: JSON.stringify(json, null, 2) + '\n', owner });
    this.emitter.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  /**
   * Shows `json` in the open details documents of resource `path` (a model, or "<model>@<version>"),
   * e.g. after an edit; documents not open stay unread. Returns how many were updated.
   */
  refreshOpen(path: string, json: unknown): number {
    let count = 0;
    for (const [key, doc] of this.docs) {
      const uri = vscode.Uri.parse(key);
      if (uri.path !== `/${path}.json`) continue;
      doc.text = JSON.stringify(json, null, 2) + '\n';
      this.emitter.fire(uri);
      count++;
    }
    return count;
  }

  /**
   * Closes the details tabs of a deleted model (every version's) or of one deleted version, so no
   * tab goes on showing a resource that no longer exists: the tabs opened in this window and those
   * the editor restored from an earlier one alike, since each URI names its owner. Returns how many
   * tabs were closed.
   */
  async closeDeleted(model: string, versionId?: string): Promise<number> {
    const gone = (owner: DetailsOwner | undefined): boolean =>
      owner?.model === model && (versionId === undefined || owner.versionId === versionId);
    for (const [key, doc] of this.docs) if (gone(doc.owner)) this.docs.delete(key);
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && gone(detailsOwnerOf(t.input.uri)));
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
    return tabs.length;
  }
}

/** The model and version a node's details belong to (evaluations, slices and checkpoints: their version's). */
export function ownerOf(node: ModelsNode): DetailsOwner | undefined {
  for (let n: ModelsNode | undefined = node; n; n = n.parent) {
    if (n instanceof VersionNode) return { model: n.modelName, versionId: n.version.versionId };
    if (n instanceof ModelNode) return { model: n.resourceName };
  }
  return undefined;
}
