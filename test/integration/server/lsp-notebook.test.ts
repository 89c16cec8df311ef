// UDM notebooks reach the language server through LSP notebook document sync (as
// vscode-languageclient sends them): each UDM cell gets the diagnostics, completion, hover and
// formatting of a `.udm` file, placeholders and reference lists included, and follows cell edits.
import * as assert from 'node:assert/strict';
import { LspClient } from './lsp-client';
import { UDM_NOTEBOOK_TYPE } from '../../../src/server/protocol';

const NOTEBOOK = 'file:///work/hunts/hunt.udmnb';
const CELL_1 = 'vscode-notebook-cell:/work/hunts/hunt.udmnb#W0sZmlsZQ%3D%3D';
const CELL_2 = 'vscode-notebook-cell:/work/hunts/hunt.udmnb#W2sZmlsZQ%3D%3D';
const LISTS = [{ name: 'admins', contentType: 'CONTENT_TYPE_DEFAULT_STRING', size: 2, preview: ['root', 'admin'] }];

describe('UDM language server: notebook document sync', function () {
  this.timeout(60000);
  let client: LspClient;
  let capabilities: Record<string, unknown>;

  before(async () => {
    const started = await LspClient.start({}, { knownReferenceLists: LISTS }, true);
    client = started.client;
    capabilities = started.initializeResult.capabilities;
  });
  after(async () => {
    await client?.stop();
  });

  it('announces notebook sync for the UDM cells of UDM notebooks', () => {
    assert.deepEqual(capabilities.notebookDocumentSync, {
      notebookSelector: [{ notebook: { notebookType: UDM_NOTEBOOK_TYPE }, cells: [{ language: 'udm' }] }],
    });
  });

  it('checks, completes, hovers and formats the cells of an opened notebook, and follows edits', async () => {
    const first = client.nextDiagnostics(CELL_1);
    const second = client.nextDiagnostics(CELL_2);
    await client.connection.sendNotification('notebookDocument/didOpen', {
      notebookDocument: {
        uri: NOTEBOOK,
        notebookType: UDM_NOTEBOOK_TYPE,
        version: 1,
        cells: [
          { kind: 2, document: CELL_1 },
          { kind: 2, document: CELL_2 },
        ],
      },
      cellTextDocuments: [
        {
          uri: CELL_1,
          languageId: 'udm',
          version: 1,
          text: 'principal.hostnme = "x"\nprincipal.user.userid in %admin',
        },
        {
          uri: CELL_2,
          languageId: 'udm',
          version: 1,
          text: '$h=principal.hostname\nmatch:\n$h\noutcome:\n$c = count( metadata.id )\n',
        },
      ],
    });
    const d1 = await first;
    assert.deepEqual(d1.diagnostics.map((d) => d.code).sort(), ['unknown-field', 'unknown-list']);
    assert.match(d1.diagnostics.find((d) => d.code === 'unknown-list')!.message, /Did you mean %admins\?/);
    assert.deepEqual((await second).diagnostics, [], 'a statistics cell with placeholders is valid');

    const fields = await client.request<Array<{ label: string }>>('textDocument/completion', {
      textDocument: { uri: CELL_1 },
      position: { line: 0, character: 10 },
    });
    assert.ok(fields.some((i) => i.label === 'hostname'));
    const lists = await client.request<Array<{ label: string; detail?: string }>>('textDocument/completion', {
      textDocument: { uri: CELL_1 },
      position: { line: 1, character: 31 },
    });
    assert.deepEqual(
      lists.map((i) => [i.label, i.detail]),
      [['%admins', 'string list, 2 entries']],
    );
    const placeholders = await client.request<Array<{ label: string }>>('textDocument/completion', {
      textDocument: { uri: CELL_2 },
      position: { line: 2, character: 1 },
    });
    assert.ok(
      placeholders.some((i) => i.label === '$h'),
      JSON.stringify(placeholders.map((i) => i.label)),
    );

    const h = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri: CELL_2 },
      position: { line: 0, character: 16 },
    });
    assert.match(h.contents.value, /principal\.hostname/);
    const edits = await client.request<Array<{ newText: string }>>('textDocument/formatting', {
      textDocument: { uri: CELL_2 },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.equal(edits[0].newText, '$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $c = count(metadata.id)\n');

    // An edit of one cell's text arrives as a notebook change and is checked again.
    const fixed = client.nextDiagnostics(CELL_1);
    await client.connection.sendNotification('notebookDocument/didChange', {
      notebookDocument: { uri: NOTEBOOK, version: 2 },
      change: {
        cells: {
          textContent: [
            {
              document: { uri: CELL_1, version: 2 },
              changes: [{ text: 'principal.hostname = "x"\nprincipal.user.userid in %admins' }],
            },
          ],
        },
      },
    });
    const after = await fixed;
    assert.equal(after.version, 2);
    assert.deepEqual(after.diagnostics, []);

    // Closing the notebook clears what was shown for its cells.
    const cleared = client.nextDiagnostics(CELL_1);
    await client.connection.sendNotification('notebookDocument/didClose', {
      notebookDocument: { uri: NOTEBOOK },
      cellTextDocuments: [{ uri: CELL_1 }, { uri: CELL_2 }],
    });
    assert.deepEqual((await cleared).diagnostics, []);
    const gone = await client.request<unknown[]>('textDocument/completion', {
      textDocument: { uri: CELL_1 },
      position: { line: 0, character: 10 },
    });
    assert.deepEqual(gone, [], 'a closed cell is no longer known');
  });
});
