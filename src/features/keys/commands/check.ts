// Check Request: whether a key's restrictions accept a simulated request, as a report document.
import * as vscode from 'vscode';
import { checkRequest, formatCheckReport } from '../../../core/apikeys/check';
import { safeText } from '../../../core/display';
import { resolveKey, type KeysContext } from '../context';
import { askSimulatedRequest } from '../inputs';
import { keyIdOf } from '../tree';

export async function checkKeyRequest(ctx: KeysContext, arg?: unknown): Promise<void> {
  const { key } = await resolveKey(ctx, arg);
  const request = await askSimulatedRequest(key.restrictions ?? {});
  if (!request) return;
  const result = checkRequest(key.restrictions, request);
  const label = key.displayName || keyIdOf(key.name);
  const uri = ctx.publishCheckReport(
    `/${keyIdOf(key.name)}-check.md`,
    formatCheckReport(label, key.name, request, result),
  );
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
  await vscode.window.showTextDocument(doc, { preview: true });
  const message = `${result.allowed ? 'Accepted' : 'Refused'}: ${safeText(result.decidedBy, 'plain', 400)}`;
  if (result.allowed) void vscode.window.showInformationMessage(message);
  else void vscode.window.showWarningMessage(message);
}
