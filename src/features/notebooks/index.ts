// UDM notebooks: `.udmnb` files with Markdown and UDM cells that run through the same search
// client, rate limiter and budget as the rest of Search, keep bounded results in the file, and
// export as a Markdown report.
import * as vscode from 'vscode';
import { parseNotebook, serializeNotebook } from '../../core/notebook/format';
import type { Feature, FeatureStart } from '../../platform/command-table';
import type { Services } from '../services';
import { NOTEBOOK_COMMANDS, type NotebooksContext } from './commands';
import { NOTEBOOK_TYPE, fromNotebookData, toNotebookData } from './convert';
import { answerRenderer, createKernel, registerCellStatusBar } from './kernel';

export { CONTROLLER_ID, RENDERER_ID, effectiveTimeRange } from './kernel';

class UdmNotebookSerializer implements vscode.NotebookSerializer {
  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    // A file that is not a notebook is refused (VS Code shows the message and opens nothing), so
    // saving can never overwrite what was there with an empty notebook.
    return toNotebookData(parseNotebook(new TextDecoder().decode(content)));
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    return new TextEncoder().encode(serializeNotebook(fromNotebookData(data)));
  }
}

function activateNotebooks(context: vscode.ExtensionContext, services: Services): FeatureStart<NotebooksContext> {
  context.subscriptions.push(
    vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new UdmNotebookSerializer(), {
      transientOutputs: false,
    }),
  );
  // Cells run through the search feature's service, looked up when a cell runs: the features may
  // start in any order.
  createKernel(context, services);
  registerCellStatusBar(context, services);
  answerRenderer(context, services);
  return { ctx: { services } };
}

/** UDM notebooks: the file format, the kernel, the renderer's row actions and the notebook commands. */
export const notebooksFeature: Feature<NotebooksContext, Services> = {
  name: 'UDM notebooks',
  commands: NOTEBOOK_COMMANDS,
  activate: activateNotebooks,
};
