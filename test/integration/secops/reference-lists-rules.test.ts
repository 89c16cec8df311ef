// The reference lists reach a YARA-L rule as they reach a query, whichever is opened first: against
// the real sandbox (the `vscode` module is the unit-test fake), the Reference Lists feature loads the
// lists when a rule is open at activation or opened later, with no query and no view in sight, so
// the language server learns them (an unknown `%name` is then flagged); F12 on `%name` in a rule
// gives the list's document. A document of another language loads nothing.
import assert from 'node:assert/strict';
import { fakeExtensionContext, useFakeVscode } from '../../unit/fakes/vscode';
import type { Sandbox } from '../../../src/emulator/sandbox';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type { KnownReferenceListsParams } from '../../../src/server/protocol';
import { freshSandbox } from '../sandbox-http/helpers';

useFakeVscode();
/* eslint-disable @typescript-eslint/consistent-type-imports -- loaded after the fake is installed */
const vscode: any = require('vscode');
const { referenceListsFeature } =
  require('../../../src/features/referenceLists/index') as typeof import('../../../src/features/referenceLists/index');
const { ReferenceListStore } =
  require('../../../src/features/shared/reference-list-store') as typeof import('../../../src/features/shared/reference-list-store');
/* eslint-enable @typescript-eslint/consistent-type-imports */

interface FakeDocument {
  languageId: string;
  uri: { scheme: string; toString(): string };
  getText(range?: unknown): string;
  getWordRangeAtPosition(position: unknown, pattern: RegExp): unknown;
}

/** A document whose only line is `line`; word ranges are looked up at the first match of the pattern. */
function documentOf(languageId: string, line: string): FakeDocument {
  let word = '';
  return {
    languageId,
    uri: { scheme: 'file', toString: () => `file:///work/x.${languageId}` },
    getText: (range?: unknown) => (range ? word : line),
    getWordRangeAtPosition: (_position, pattern) => {
      const m = new RegExp(pattern.source).exec(line);
      word = m?.[0] ?? '';
      return m ? { start: m.index, end: m.index + word.length } : undefined;
    },
  };
}

describe('reference lists reach rules: loaded for a rule opened first, F12 from %name in a rule', function () {
  this.timeout(120_000);
  let sb: Sandbox;
  let context: { subscriptions: Array<{ dispose(): unknown }> };
  let store: InstanceType<typeof ReferenceListStore>;
  let openListeners: Array<(d: FakeDocument) => void>;
  let definitionProviders: Array<{ selector: unknown; provider: { provideDefinition: (...a: unknown[]) => unknown } }>;

  function activate(open: FakeDocument[]): void {
    vscode.workspace.textDocuments = open;
    vscode.workspace.onDidOpenTextDocument = (listener: (d: FakeDocument) => void) => {
      openListeners.push(listener);
      return { dispose: () => undefined };
    };
    vscode.languages.registerDefinitionProvider = (selector: unknown, provider: any) => {
      definitionProviders.push({ selector, provider });
      return { dispose: () => undefined };
    };
    const settings = {
      secops: { region: undefined, credentialsFile: undefined },
      credentialsFile: undefined,
      timeoutMs: 60_000,
      retry: { maxRetries: 0, initialBackoffMs: 5, maxBackoffMs: 10, multiplier: 2, retryable: [] },
    };
    const services: any = {
      referenceLists: store,
      connection: () => ({ settings, endpoint: () => sb.http, secopsTokens: () => sandboxTokenSource() }),
      onDidChangeConnection: () => ({ dispose: () => undefined }),
    };
    referenceListsFeature.activate(context as any, services);
  }

  const known = (): Promise<KnownReferenceListsParams> =>
    new Promise((resolve) => {
      const d = store.onDidChangeKnown((p) => {
        d.dispose();
        resolve(p);
      });
    });

  before(async () => {
    sb = await freshSandbox('demo');
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => {
    context = fakeExtensionContext({}, '/work/cloudbench');
    store = new ReferenceListStore();
    openListeners = [];
    definitionProviders = [];
  });
  afterEach(() => {
    for (const s of context.subscriptions.splice(0)) s.dispose();
    store.dispose();
  });

  it('a rule already open when the extension starts (a fresh window opened on a rule) loads the lists', async () => {
    const arrived = known();
    activate([documentOf('yaral', '$e.network.dns.questions.name in %suspicious_domains')]);
    const p = await arrived;
    assert.equal(p.loadError, undefined);
    assert.ok(
      p.lists.some((l) => l.name === 'suspicious_domains' && l.contentType === 'CONTENT_TYPE_DEFAULT_STRING'),
      JSON.stringify(p.lists.map((l) => l.name)),
    );
    assert.ok(store.entries()?.suspicious_domains?.length, 'the entries reach the language support too');
  });

  it('a rule opened first, later, loads the lists; a plain text file does not', async () => {
    activate([]);
    let loaded = false;
    context.subscriptions.push(store.onDidChangeKnown(() => (loaded = true)));
    for (const l of openListeners) l(documentOf('plaintext', 'in %suspicious_domains'));
    assert.equal(loaded, false);
    assert.equal(store.known(), undefined);
    const arrived = known();
    for (const l of openListeners) l(documentOf('yaral', '$e.principal.ip in cidr %corp_networks'));
    const p = await arrived;
    assert.ok(p.lists.some((l) => l.name === 'corp_networks' && l.contentType === 'CIDR'));
  });

  it('F12 on %name in a rule gives the list’s document; an unknown name gives nothing', async () => {
    activate([]);
    const forRules = definitionProviders.filter(({ selector }) =>
      [selector].flat().some((s: any) => s === 'yaral' || s?.language === 'yaral'),
    );
    assert.equal(forRules.length, 1, 'one definition provider answers in rules');
    const { provider } = forRules[0];
    const links = (await provider.provideDefinition(
      documentOf('yaral', '    $e.network.dns.questions.name in %suspicious_domains'),
      { line: 0, character: 45 },
    )) as Array<{ targetUri: { scheme: string; path: string } }>;
    assert.equal(links.length, 1);
    assert.equal(links[0].targetUri.scheme, 'cloudbench-list');
    assert.equal(links[0].targetUri.path, '/suspicious_domains');
    const none = await provider.provideDefinition(documentOf('yaral', '    $e.principal.ip in %nope'), {
      line: 0,
      character: 25,
    });
    assert.equal(none, undefined);
  });
});
