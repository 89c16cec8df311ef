// The Rule Coverage view's commands: refresh, and export the coverage as an ATT&CK Navigator layer.
import * as vscode from 'vscode';
import { navigatorLayer } from '../../udm/rule/coverage';
import type { CommandTable } from '../../platform/command-table';
import type { CoverageModel } from './model';

export interface CoverageContext {
  readonly model: CoverageModel;
}

export function refreshCoverage(ctx: CoverageContext): Thenable<void> {
  return vscode.window.withProgress({ location: { viewId: 'cloudbench.coverage' }, title: 'Reading rules' }, () =>
    ctx.model.refresh(),
  );
}

/** Writes the layer where the user says (default: the first workspace folder). */
export async function exportLayer(ctx: CoverageContext): Promise<void> {
  await refreshCoverage(ctx);
  const state = ctx.model.current;
  if (state.kind !== 'ready' || state.coverage.rules.length === 0) {
    void vscode.window.showInformationMessage(
      'There is no YARA-L rule (.yaral) in this workspace to export the coverage of.',
    );
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: 'Export ATT&CK Navigator Layer',
    saveLabel: 'Export',
    filters: { 'ATT&CK Navigator layer': ['json'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'attack-coverage-layer.json') } : {}),
  });
  if (!target) return;
  const layer = navigatorLayer(state.coverage);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(`${JSON.stringify(layer, null, 2)}\n`));
  const techniques = layer.techniques.length;
  const open = await vscode.window.showInformationMessage(
    `Wrote an ATT&CK Navigator layer with ${techniques} technique ${techniques === 1 ? 'entry' : 'entries'} to ${vscode.workspace.asRelativePath(target)}.`,
    'Open',
  );
  if (open === 'Open') await vscode.window.showTextDocument(target);
}

export const COVERAGE_COMMANDS: CommandTable<CoverageContext> = {
  'cloudbench.coverage.refresh': refreshCoverage,
  'cloudbench.coverage.exportLayer': exportLayer,
};
