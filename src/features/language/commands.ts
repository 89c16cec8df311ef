// The UDM language feature's commands: a new query, and restarting the language server.
import * as vscode from 'vscode';
import type { CommandTable } from '../../platform/command-table';
import { UDM_LANGUAGE_ID, type UdmLanguageClient } from './client';

export interface LanguageContext {
  readonly client: UdmLanguageClient;
}

export const STARTER_QUERY = `// UDM search: conditions on UDM fields; lines are ANDed.
metadata.event_type = "USER_LOGIN"
security_result.action = "BLOCK"
`;

/** Opens an untitled UDM query with a starter search, the cursor at its end. */
export async function newQuery(): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: UDM_LANGUAGE_ID, content: STARTER_QUERY });
  const editor = await vscode.window.showTextDocument(doc);
  const end = doc.lineAt(doc.lineCount - 1).range.end;
  editor.selection = new vscode.Selection(end, end);
}

/** Restarts the language server, also one that stopped after crashing too often. */
export async function restartServer(ctx: LanguageContext): Promise<void> {
  await ctx.client.restart();
  void vscode.window.setStatusBarMessage('UDM language server restarted', 3000);
}

export const LANGUAGE_COMMANDS: CommandTable<LanguageContext> = {
  'cloudbench.udm.newQuery': newQuery,
  'cloudbench.udm.restartServer': restartServer,
};
