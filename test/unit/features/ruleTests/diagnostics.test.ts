// A rule test file's problems while it is edited: every problem when no YAML extension checks the
// file against the schema, only what the schema cannot see when one does; other files untouched.
import assert from 'node:assert/strict';
import type * as DiagnosticsModule from '../../../../src/features/ruleTests/diagnostics';
import { useFakeVscode } from '../../fakes/vscode';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { TestFileDiagnostics } = require('../../../../src/features/ruleTests/diagnostics') as typeof DiagnosticsModule;

const doc = (path: string, text: string) => ({
  uri: vscode.Uri.file(path),
  isClosed: false,
  getText: () => text,
});

describe('rule test file diagnostics', () => {
  let published: Map<string, Array<{ message: string; source?: string }>>;
  let yamlInstalled: boolean;
  beforeEach(() => {
    published = new Map();
    yamlInstalled = false;
    vscode.languages.createDiagnosticCollection = () => ({
      set: (uri: { path: string }, ds: Array<{ message: string }>) => published.set(uri.path, ds),
      delete: (uri: { path: string }) => published.delete(uri.path),
      dispose: () => undefined,
    });
    vscode.extensions.getExtension = (id: string) => (yamlInstalled && id === 'redhat.vscode-yaml' ? {} : undefined);
    vscode.workspace.textDocuments = [];
    vscode.Range = class {
      constructor(...args: number[]) {
        Object.assign(this, { args });
      }
    };
  });

  const schemaBroken = 'cases:\n  - name: a\n    events: []\n    expect: { fire: true }\n';
  const namesTwice =
    'cases:\n  - name: a\n    events: []\n    expect: { fires: false }\n  - name: a\n    events: []\n    expect: { fires: true }\n';

  it('reports every problem of a test file when no YAML extension checks it', () => {
    const d = new TestFileDiagnostics();
    d.update(doc('/ws/rules/r.test.yaml', schemaBroken) as any);
    d.update(doc('/ws/rules/s.test.yml', namesTwice) as any);
    d.update(doc('/ws/notes.yaml', schemaBroken) as any);
    assert.match(published.get('/ws/rules/r.test.yaml')![0].message, /cases\[0\]\.expect: give one of fires/);
    assert.equal(published.get('/ws/rules/r.test.yaml')![0].source, 'cloudbench test');
    assert.match(published.get('/ws/rules/s.test.yml')![0].message, /"a" is already the name of cases\[0\]/);
    assert.ok(!published.has('/ws/notes.yaml'), 'a YAML file that tests no rule is left alone');
    d.dispose();
  });

  it('with the YAML extension installed, adds only what the schema cannot see', () => {
    yamlInstalled = true;
    const d = new TestFileDiagnostics();
    d.update(doc('/ws/rules/r.test.yaml', schemaBroken) as any);
    d.update(doc('/ws/rules/s.test.yaml', namesTwice) as any);
    assert.deepEqual(published.get('/ws/rules/r.test.yaml'), []);
    assert.equal(published.get('/ws/rules/s.test.yaml')!.length, 1);
    d.dispose();
  });
});
