// Check Connection opens its report read-only: a document of the cloudbench-report: scheme shown as
// Markdown, never an untitled editor (which has a dirty dot, an Explorer badge and a save question).
import { strict as assert } from 'node:assert';
import { fakeExtensionContext, useFakeVscode } from '../../fakes/vscode';
import type * as ConnectionFeatureModule from '../../../../src/features/connection';
import type * as CommandsModule from '../../../../src/features/connection/commands';
import type { ConnectionContext } from '../../../../src/features/connection/commands';
import type { Services } from '../../../../src/features/services';
import { startFeature } from '../../../support/start-feature';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { connectionFeature } = require('../../../../src/features/connection') as typeof ConnectionFeatureModule;
const { checkConnectionCommand } = require('../../../../src/features/connection/commands') as typeof CommandsModule;

/** Settings whose every endpoint is refused at once: the check ends without a call. */
function refusedConnection(): unknown {
  const refuse = (): never => {
    throw new Error('cloudbench.endpoints.models is not a valid host:port');
  };
  return {
    settings: {
      locations: [],
      timeoutMs: 1000,
      retry: { maxRetries: 0 },
      secops: { region: 'us' },
      universeDomain: undefined,
    },
    project: 'p',
    sandbox: false,
    endpoint: () => undefined,
    modelsEndpointOptions: refuse,
    restEndpoint: refuse,
    cloudTokens: refuse,
    secopsTokens: refuse,
  };
}

describe('Check Connection report document', () => {
  it('opens the report as a read-only cloudbench-report: document in Markdown, not an untitled editor', async () => {
    const opened: unknown[] = [];
    const providers = new Map<string, { provideTextDocumentContent(uri: unknown): string }>();
    let shown: unknown;
    vscode.workspace.registerTextDocumentContentProvider = (scheme: string, p: any) => {
      providers.set(scheme, p);
      return { dispose() {} };
    };
    vscode.workspace.openTextDocument = async (arg: any) => {
      opened.push(arg);
      return { uri: arg, languageId: 'plaintext' };
    };
    vscode.window.showTextDocument = async (doc: any) => {
      shown = doc.uri;
      return {};
    };
    vscode.window.withProgress = async (_o: unknown, task: any) =>
      task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
    vscode.window.createStatusBarItem = () => ({ show() {}, dispose() {} });
    const context = fakeExtensionContext({}, '/ext');
    const services = {
      connection: () => refusedConnection(),
      onDidChangeConnection: () => ({ dispose() {} }),
    } as unknown as Services;
    const ctx: ConnectionContext = startFeature(connectionFeature, context, services);
    assert.ok(ctx.reports);

    await checkConnectionCommand(ctx);

    assert.equal(opened.length, 1);
    const uri = opened[0] as { scheme?: string; path?: string };
    assert.equal(uri.scheme, 'cloudbench-report', 'a virtual read-only document, not { content } (an untitled editor)');
    const text = providers.get('cloudbench-report')?.provideTextDocumentContent(uri) ?? '';
    assert.match(text, /^# Cloudbench connection check/);
    assert.match(text, /Vertex AI Model Registry: FAILED/);
    assert.equal(shown, uri, 'the report document is shown');
    assert.match(uri.path ?? '', /\.md$/, 'VS Code reads it as Markdown');
    for (const d of context.subscriptions) d.dispose();
  });
});
