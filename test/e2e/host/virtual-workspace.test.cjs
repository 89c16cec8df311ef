// Inside the extension host: a .udm file from a virtual file system (the vscode-vfs scheme that
// repositories opened without cloning use) gets the same diagnostics and completion, which is what
// the manifest's virtualWorkspaces "limited" support promises.
module.exports = ({ test, vscode, assert, waitFor }) => {
  test('checks and completes a .udm file of a virtual file system', async () => {
    const files = new Map([['/repo/queries/remote.udm', 'metadata.evnt_type = "USER_LOGIN"\nmetadata.\n']]);
    const changed = new vscode.EventEmitter();
    const stat = (uri) => {
      if (!files.has(uri.path)) throw vscode.FileSystemError.FileNotFound(uri);
      return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: files.get(uri.path).length };
    };
    const provider = vscode.workspace.registerFileSystemProvider(
      'vscode-vfs',
      {
        onDidChangeFile: changed.event,
        watch: () => new vscode.Disposable(() => {}),
        stat,
        readDirectory: () => [],
        createDirectory: () => {},
        readFile: (uri) => Buffer.from(files.get(uri.path) ?? '', 'utf8'),
        writeFile: (uri, content) => void files.set(uri.path, Buffer.from(content).toString('utf8')),
        delete: () => {},
        rename: () => {},
      },
      { isReadonly: false },
    );
    try {
      const uri = vscode.Uri.parse('vscode-vfs://github/example/repo/queries/remote.udm').with({
        path: '/repo/queries/remote.udm',
      });
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      assert.equal(doc.languageId, 'udm');
      const diagnostics = await waitFor(
        () => {
          const d = vscode.languages.getDiagnostics(uri);
          return d.length > 0 ? d : undefined;
        },
        { what: 'diagnostics for the virtual file' },
      );
      assert.ok(
        diagnostics.some((d) => /evnt_type/.test(d.message)),
        diagnostics.map((d) => d.message).join(' | '),
      );
      const list = await waitFor(
        async () => {
          const r = await vscode.commands.executeCommand(
            'vscode.executeCompletionItemProvider',
            uri,
            new vscode.Position(1, 9),
            '.',
          );
          return r && r.items.length > 0 ? r : undefined;
        },
        { what: 'completion in the virtual file' },
      );
      const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      assert.ok(labels.includes('event_type'), labels.slice(0, 10).join(', '));
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      provider.dispose();
      changed.dispose();
    }
  });
};
