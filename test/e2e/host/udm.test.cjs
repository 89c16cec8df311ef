// Inside the extension host: the UDM language server answers through the real vscode API for a file
// of the workspace (completion, diagnostics, hover, formatting).
const path = require('node:path');
const fs = require('node:fs');

module.exports = ({ test, vscode, assert, waitFor }) => {
  const writeQuery = (workspace, name, text) => {
    const file = path.join(workspace, 'queries', name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return vscode.Uri.file(file);
  };

  test('completes the fields of metadata', async ({ workspace }) => {
    const uri = writeQuery(workspace, 'complete.udm', 'metadata.\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.languageId, 'udm');
    const list = await waitFor(
      async () => {
        const result = await vscode.commands.executeCommand(
          'vscode.executeCompletionItemProvider',
          uri,
          new vscode.Position(0, 9),
          '.',
        );
        return result && result.items.length > 0 ? result : undefined;
      },
      { what: 'completion items after "metadata."' },
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const field of ['event_type', 'product_name', 'vendor_name', 'log_type']) {
      assert.ok(labels.includes(field), `completion offers ${field} (got ${labels.slice(0, 10).join(', ')}…)`);
    }
    assert.ok(!labels.includes('hostname'), 'fields of other messages are not offered after metadata.');
  });

  test('reports a misspelt field and stays quiet on a correct query', async ({ workspace }) => {
    const bad = writeQuery(workspace, 'misspelt.udm', 'metadata.evnt_type = "USER_LOGIN"\n');
    const good = writeQuery(
      workspace,
      'good.udm',
      'metadata.event_type = "USER_LOGIN"\nprincipal.hostname = "ws-dev-04"\n',
    );
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(bad));
    const diagnostics = await waitFor(
      () => {
        const d = vscode.languages.getDiagnostics(bad);
        return d.length > 0 ? d : undefined;
      },
      { what: 'diagnostics for metadata.evnt_type' },
    );
    const unknown = diagnostics.find((d) => /evnt_type/.test(d.message));
    assert.ok(unknown, `a diagnostic names evnt_type (got ${diagnostics.map((d) => d.message).join(' | ')})`);
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(unknown.range.start.line, 0);
    assert.equal(unknown.range.start.character, 'metadata.'.length, 'the range starts at the misspelt segment');

    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(good));
    // The server publishes for the document once it analysed it; an empty list is its answer.
    await waitFor(
      async () => {
        const hover = await vscode.commands.executeCommand(
          'vscode.executeHoverProvider',
          good,
          new vscode.Position(0, 12),
        );
        return hover && hover.length > 0;
      },
      { what: 'the server to analyse good.udm' },
    );
    assert.deepEqual(
      vscode.languages.getDiagnostics(good).filter((d) => d.severity === vscode.DiagnosticSeverity.Error),
      [],
    );
  });

  test('hover explains a field', async ({ workspace }) => {
    const uri = writeQuery(workspace, 'hover.udm', 'principal.hostname = "ws-dev-04"\n');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const hovers = await waitFor(
      async () => {
        const h = await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, new vscode.Position(0, 13));
        return h && h.length > 0 ? h : undefined;
      },
      { what: 'a hover on principal.hostname' },
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /hostname/);
  });

  test('formats a query', async ({ workspace }) => {
    const uri = writeQuery(
      workspace,
      'format.udm',
      'metadata.event_type="USER_LOGIN"   and   principal.hostname="ws-dev-04"\n',
    );
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const edits = await waitFor(
      async () => {
        const e = await vscode.commands.executeCommand('vscode.executeFormatDocumentProvider', uri, {
          tabSize: 2,
          insertSpaces: true,
        });
        return e && e.length > 0 ? e : undefined;
      },
      { what: 'formatting edits' },
    );
    const edit = new vscode.WorkspaceEdit();
    edit.set(uri, edits);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const formatted = doc.getText();
    assert.match(formatted, /metadata\.event_type = "USER_LOGIN"/);
    assert.match(formatted, /\bAND\b/, 'the operator is upper-cased');
    assert.ok(!/ {2,}and/i.test(formatted), 'runs of spaces are collapsed');
  });
};
