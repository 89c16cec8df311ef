// Importing evaluations, slices and evaluated annotations from JSON files the user picks.
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import { safeText } from '../../../core/display';
import type { ModelRegistryClient } from '../../../core/models/client';
import type { EvaluatedAnnotation, ModelEvaluation, ModelEvaluationSlice } from '../../../core/models/types';
import { lastSegment } from '../presentation';
import { lazyImports, needClient, nodeOf, type ModelsContext } from '../context';
import type { JsonSyntaxProblem } from '../import-files';
import { V1BETA1 } from '../details-documents';
import { EvaluationNode, ModelNode, SliceNode, VersionNode, type ModelsNode } from '../tree';

/** Reads and parses a JSON file the user picked, with errors that name the file and the problem. */
async function pickJsonFile(title: string): Promise<{ path: string; json: unknown } | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectMany: false,
    filters: { JSON: ['json'] },
    openLabel: 'Import',
  });
  const uri = picked?.[0];
  if (!uri) return undefined;
  let text: string;
  try {
    text =
      uri.scheme === 'file'
        ? await readFile(uri.fsPath, 'utf8')
        : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (err) {
    throw new Error(`Cannot read ${uri.fsPath}: ${(err as Error).message}`, { cause: err });
  }
  const parsed = lazyImports().parseJsonText(text);
  if ('json' in parsed) return { path: uri.fsPath, json: parsed.json };
  throw invalidJson(uri, parsed.problem);
}

/** "churn.json is not valid JSON: line 7, column 12: Expected ',' …", with Open File at that place. */
function invalidJson(uri: vscode.Uri, problem: JsonSyntaxProblem): Error {
  const at = new vscode.Position(problem.line - 1, problem.column - 1);
  return Object.assign(
    new Error(
      `${lastSegment(uri.fsPath)} is not valid JSON: line ${problem.line}, column ${problem.column}: ${problem.reason}`,
    ),
    { fixes: [{ label: 'Open File', command: 'vscode.open', args: [uri, { selection: new vscode.Range(at, at) }] }] },
  );
}

/** Picks a JSON file holding an array of `type` (bare, or under `field`) and parses its entries. */
async function pickImportEntries<T>(title: string, type: string, field: string): Promise<T[] | undefined> {
  const file = await pickJsonFile(title);
  if (!file) return undefined;
  const { entriesFromFile, parseImport } = lazyImports();
  return parseImport<T>(`${V1BETA1}.${type}`, entriesFromFile(file.json, field, file.path), file.path);
}

export async function importEvaluation(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, ModelNode, VersionNode);
  const c = needClient(ctx);
  const file = await pickJsonFile('Import a model evaluation (ModelEvaluation JSON)');
  if (!file) return;
  const { parseImport } = lazyImports();
  const [evaluation] = parseImport<ModelEvaluation>(`${V1BETA1}.ModelEvaluation`, { single: file.json }, file.path);
  const created = await c.importModelEvaluation({ parent: n.resourceName, modelEvaluation: evaluation });
  ctx.provider.refresh(n instanceof VersionNode ? n : undefined);
  void vscode.window.showInformationMessage(
    `Imported evaluation ${safeText(created.displayName || lastSegment(created.name))} into ${safeText(lastSegment(n.resourceName))}.`,
  );
}

/** What a batch import reads from its file: `type` entries (`what`), bare or under `field`; `noun` counts them. */
interface BatchEntries {
  readonly what: string;
  readonly noun: string;
  readonly type: string;
  readonly field: string;
}

const BATCHES = {
  slices: { what: 'evaluation slices', noun: 'slice', type: 'ModelEvaluationSlice', field: 'modelEvaluationSlices' },
  annotations: {
    what: 'evaluated annotations',
    noun: 'evaluated annotation',
    type: 'EvaluatedAnnotation',
    field: 'evaluatedAnnotations',
  },
} satisfies Record<string, BatchEntries>;

/**
 * Picks a file of entries, sends them to `node` with `send` (which returns how many went in),
 * redraws the node and says how many were imported.
 */
async function importBatch<T>(
  ctx: ModelsContext,
  node: EvaluationNode | SliceNode,
  entries: BatchEntries,
  send: (client: ModelRegistryClient, items: T[]) => Promise<number>,
): Promise<void> {
  const client = needClient(ctx);
  const items = await pickImportEntries<T>(
    `Import ${entries.what} (a JSON array of ${entries.type})`,
    entries.type,
    entries.field,
  );
  if (!items) return;
  const count = await send(client, items);
  ctx.provider.refresh(node);
  void vscode.window.showInformationMessage(
    `Imported ${count} ${entries.noun}(s) into ${safeText(node.label as string)}.`,
  );
}

export async function importSlices(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, EvaluationNode);
  await importBatch<ModelEvaluationSlice>(ctx, n, BATCHES.slices, async (c, slices) => {
    const res = await c.batchImportModelEvaluationSlices({ parent: n.resourceName, modelEvaluationSlices: slices });
    return (res.importedModelEvaluationSlices ?? []).length;
  });
}

export async function importEvaluatedAnnotations(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, SliceNode);
  await importBatch<EvaluatedAnnotation>(ctx, n, BATCHES.annotations, async (c, items) => {
    const res = await c.batchImportEvaluatedAnnotations({ parent: n.resourceName, evaluatedAnnotations: items });
    ctx.annotations.set(n.resourceName, [...(ctx.annotations.get(n.resourceName) ?? []), ...items]);
    return res.importedEvaluatedAnnotationsCount ?? items.length;
  });
}
