// The features start in any order: what one offers another is a service on Services, looked up
// when it is used, so a shuffled FEATURES table starts every feature, registers every command and
// keeps the paths between features working.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { fakeExtensionContext, useFakeVscode } from '../fakes/vscode';
import type * as ExtensionModule from '../../../src/extension';
import type * as TimeRangeModule from '../../../src/core/secops/timerange';
import type * as StatisticsPanelModule from '../../../src/features/statistics/panel';
import type * as SearchPanelModule from '../../../src/features/search/panel';
import type * as ProtocolModule from '../../../src/server/protocol';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const declared: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);

/** A statistical query with no filtering statement: the statistics feature refuses it before any search. */
const STATISTICAL_QUERY = 'match:\n  principal.hostname\noutcome:\n  $n = count(metadata.id)';

describe('features started in any order', () => {
  let record: ReturnType<typeof useFakeVscode>;
  let extension: typeof ExtensionModule;
  let vscode: Record<string, any>;

  beforeEach(() => {
    record = useFakeVscode();
    vscode = require('vscode') as Record<string, any>;
    extension = require('../../../src/extension') as typeof ExtensionModule;
  });

  it('start every feature, register every command, and reach each other through Services', async () => {
    const { PRESET_LABELS } = require('../../../src/core/secops/timerange') as typeof TimeRangeModule;
    const { STATISTICS_VIEW_TYPE } = require('../../../src/features/statistics/panel') as typeof StatisticsPanelModule;
    const { RESULTS_VIEW_TYPE } = require('../../../src/features/search/panel') as typeof SearchPanelModule;
    const { UDM_NOTEBOOK_TYPE } = require('../../../src/server/protocol') as typeof ProtocolModule;
    const names = extension.FEATURES.map((f) => f.name);
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        // Names, so a failure prints the order it failed in.
        fc.shuffledSubarray(names, { minLength: names.length, maxLength: names.length }),
        async (order) => {
          const features = order.map((name) => extension.FEATURES.find((f) => f.name === name)!);
          seen.add(features.map((f) => f.name).join(' > '));
          const context = fakeExtensionContext(pkg, root);
          try {
            const api = extension.startFeatures(context, features);
            assert.deepEqual(api.failures, [], `failures in the order ${features.map((f) => f.name).join(', ')}`);
            assert.deepEqual(
              declared.filter((id) => !record.commands.has(id)),
              [],
              'commands of package.json not registered',
            );

            // A notebook's time range starts from the search's: the notebooks feature reaches the
            // search service, and the picker marks the search's range as the current one.
            const notebook = {
              uri: vscode.Uri.file('/work/hunt.udmnb'),
              notebookType: UDM_NOTEBOOK_TYPE,
              metadata: {},
            };
            vscode.workspace.notebookDocuments = [notebook];
            const picks: Array<Array<{ label: string; description?: string }>> = [];
            vscode.window.showQuickPick = async (items: Array<{ label: string; description?: string }>) => {
              picks.push(items);
              return undefined;
            };
            record.messages.length = 0;
            await record.commands.get('cloudbench.notebook.setTimeRange')!(notebook.uri);
            assert.deepEqual(record.messages, [], 'Set Notebook Time Range said something');
            assert.equal(picks.length, 1, 'the time range picker did not open');
            assert.deepEqual(
              picks[0].filter((i) => i.description === '(current)').map((i) => i.label),
              [PRESET_LABELS['24h']],
            );

            // A statistical query run from the editor goes to the statistics feature (its view
            // opens and refuses a query without filtering statements), never to a plain search.
            const panels: string[] = [];
            vscode.window.createWebviewPanel = (viewType: string) => {
              panels.push(viewType);
              throw new Error(`no ${viewType} panel in this test`);
            };
            vscode.window.withProgress = (_options: unknown, task: (...args: unknown[]) => unknown) =>
              task(
                { report: () => undefined },
                { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) },
              );
            vscode.window.activeTextEditor = {
              document: { getText: () => STATISTICAL_QUERY, languageId: 'udm' },
              selection: { isEmpty: true },
            };
            await record.commands.get('cloudbench.search.run')!();
            assert.deepEqual(panels, [STATISTICS_VIEW_TYPE]);
            assert.ok(!panels.includes(RESULTS_VIEW_TYPE));
          } finally {
            for (const d of context.subscriptions.splice(0)) d.dispose();
            await extension.deactivate();
            delete vscode.window.activeTextEditor;
            delete vscode.workspace.notebookDocuments;
          }
        },
      ),
      { numRuns: 6 },
    );
    // The property ran over orders other than the table's own.
    assert.ok(seen.size > 1 && [...seen].some((order) => order !== names.join(' > ')));
  });
});
