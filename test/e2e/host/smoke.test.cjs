// Inside the extension host: activation succeeds and every command of the manifest is registered.
module.exports = ({ test, vscode, assert, EXTENSION_ID }) => {
  test('activates without feature failures', async ({ extension }) => {
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    const api = await extension.activate();
    assert.ok(api && typeof api.activationMs === 'number', 'activate() returns the Cloudbench API');
    assert.deepEqual(api.failures, [], 'no feature failed to start');
  });

  test('every command declared in package.json is registered', async ({ extension }) => {
    await extension.activate();
    const declared = extension.packageJSON.contributes.commands.map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((id) => !registered.has(id));
    assert.ok(missing.length === 0, `commands declared but not registered: ${missing.join(', ')}`);
  });

  test('the extension runs from the packaged build', async ({ extension, config }) => {
    assert.equal(extension.extensionPath, config.extensionDir);
    const pkg = extension.packageJSON;
    assert.equal(pkg.main, './dist/extension.js');
    const fs = require('node:fs');
    const path = require('node:path');
    assert.ok(
      fs.existsSync(path.join(extension.extensionPath, 'dist/extension.js')),
      'dist/extension.js is in the package',
    );
    assert.ok(!fs.existsSync(path.join(extension.extensionPath, 'src')), 'sources are not in the package');
  });
};
