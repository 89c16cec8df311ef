// The UDM language in the editor: the language server (started with the first UDM document) and
// the commands around it. The reference lists it checks come from the store on Services.
import * as vscode from 'vscode';
import type { Feature, FeatureStart } from '../../platform/command-table';
import type { Services } from '../services';
import { SERVED_LANGUAGES, UDM_LANGUAGE_ID, UdmLanguageClient } from './client';
import { LANGUAGE_COMMANDS, type LanguageContext } from './commands';

export { UDM_LANGUAGE_ID };
export { STARTER_QUERY } from './commands';

function activateLanguage(context: vscode.ExtensionContext, services: Services): FeatureStart<LanguageContext> {
  const client = new UdmLanguageClient(context, services.referenceLists);
  context.subscriptions.push(client);
  const startIfNeeded = (doc: vscode.TextDocument): void => {
    if (!SERVED_LANGUAGES.has(doc.languageId) || client.started) return;
    client.start().catch(() => {
      // Already reported by initializationFailedHandler or logged by the client.
    });
  };
  // Start with the first UDM query or YARA-L rule document (the extension may have activated for a tree view instead).
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(startIfNeeded));
  for (const doc of vscode.workspace.textDocuments) startIfNeeded(doc);
  return { ctx: { client } };
}

/** The UDM language server and its commands. */
export const languageFeature: Feature<LanguageContext, Services> = {
  name: 'UDM language',
  commands: LANGUAGE_COMMANDS,
  activate: activateLanguage,
};
