// Export Model: a model's default version or one version, as artifacts to Cloud Storage or as a
// container image, in one of the formats the model supports.
import * as vscode from 'vscode';
import { safeText } from '../../../core/display';
import type { Model } from '../../../core/models/types';
import { modelLabel, modelRef, versionRef } from '../presentation';
import { needClient, nodeOf, type ModelsContext } from '../context';
import { runModelOperation } from '../run-operation';
import { ModelNode, VersionNode, type ModelsNode } from '../tree';

type ExportFormat = NonNullable<Model['supportedExportFormats']>[number];
type ExportKind = 'ARTIFACT' | 'IMAGE';

/** Artifacts or image: asked only when the format offers both. */
async function pickExportKind(format: ExportFormat): Promise<ExportKind | undefined> {
  const contents = format.exportableContents ?? [];
  if (contents.includes('ARTIFACT') && contents.includes('IMAGE')) {
    const picked = await vscode.window.showQuickPick(
      [
        { label: 'Artifacts to Cloud Storage', content: 'ARTIFACT' as const },
        { label: 'Container image to a registry', content: 'IMAGE' as const },
      ],
      { title: 'What to export' },
    );
    return picked?.content;
  }
  return contents.includes('IMAGE') ? 'IMAGE' : 'ARTIFACT';
}

function destinationOptions(kind: ExportKind): vscode.InputBoxOptions {
  return kind === 'ARTIFACT'
    ? {
        title: 'Export destination',
        prompt: 'Cloud Storage folder for the artifacts',
        placeHolder: 'gs://my-bucket/exports/',
        validateInput: (v) =>
          /^gs:\/\/[a-z0-9][a-z0-9._-]{1,220}(\/.*)?$/.test(v.trim()) ? undefined : 'Enter a gs://bucket/folder/ URI.',
      }
    : {
        title: 'Export destination',
        prompt: 'Container image URI',
        placeHolder: 'us-central1-docker.pkg.dev/project/repo/image:tag',
        validateInput: (v) =>
          /^[a-z0-9.-]+(:\d+)?\/[^\s]+$/.test(v.trim())
            ? undefined
            : 'Enter an image URI such as gcr.io/project/image:tag.',
      };
}

export async function exportModel(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, ModelNode, VersionNode);
  const c = needClient(ctx);
  const name = n.resourceName;
  const model: Model = n instanceof VersionNode ? n.version : n.model;
  const exportSubject =
    n instanceof VersionNode
      ? versionRef(n.version)
      : `version ${safeText(model.versionId ?? '?')} (default) of model ${modelRef(n.resourceName, model.displayName)}`;
  const formats = model.supportedExportFormats ?? [];
  if (!formats.length) throw new Error(`${modelLabel(model)} is not exportable: it lists no supported export formats.`);
  const format = await vscode.window.showQuickPick(
    formats.map((f) => ({
      label: safeText(f.id ?? ''),
      description: safeText((f.exportableContents ?? []).map((x) => x.toLowerCase()).join(', ')),
      format: f,
    })),
    {
      title: `Export ${exportSubject}`,
      placeHolder: 'Export format',
    },
  );
  if (!format) return;
  const kind = await pickExportKind(format.format);
  if (!kind) return;
  const destination = await vscode.window.showInputBox(destinationOptions(kind));
  if (!destination) return;
  const outputConfig = {
    exportFormatId: format.format.id ?? '',
    ...(kind === 'ARTIFACT'
      ? { artifactDestination: { outputUriPrefix: destination.trim() } }
      : { imageDestination: { outputUri: destination.trim() } }),
  };
  const title = `Export ${exportSubject} as ${format.label}`;
  let outputInfo: string | undefined;
  const outcome = await runModelOperation(ctx, {
    title,
    resource: name,
    kind: 'export',
    start: async (signal) => {
      const op = await c.exportModel({ name, outputConfig }, { signal });
      const info = op.metadata?.outputInfo;
      outputInfo = info?.artifactOutputUri || info?.imageOutputUri || undefined;
      return op;
    },
  });
  ctx.operations.announce(
    title,
    outcome,
    `Exported ${exportSubject}${outputInfo ? ` to ${safeText(outputInfo)}` : ''}.`,
  );
}
