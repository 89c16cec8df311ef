// Rule tests in the editor: the Test Explorer lists every rule's `<rule>.test.yaml` cases and runs
// them (all, a file, one case) offline with `cloudbench test`'s runner; a CodeLens above each case
// runs it; tests rerun when a rule or its test file is saved (continuous run); and a test file gets
// Cloudbench's own diagnostics when no YAML extension validates it with the published schema.
import * as vscode from 'vscode';
import type { Feature, FeatureStart } from '../../platform/command-table';
import type { Services } from '../services';
import { RULE_TESTS_COMMANDS, type RuleTestsContext } from './commands';
import { RuleTestItems, TEST_FILE_GLOB } from './discovery';
import { TestFileDiagnostics } from './diagnostics';
import { TestCaseLensProvider } from './lens';
import { runRequest } from './run';

const DEBOUNCE_MS = 300;

// Continuous run (the arguments of runRequest): the request's tests once, then again whenever their
// rule or test file is saved.
export async function runContinuously(...args: Parameters<typeof runRequest>): Promise<void> {
  const [items, controller, request, token, debug] = args;
  await runRequest(...args);
  const included = request.include?.map((i) => i.id);
  await new Promise<void>((resolve) => {
    const saved = vscode.workspace.onDidSaveTextDocument(async (doc) => {
      const known = items.ruleItem(doc.uri);
      const entry = known && items.entries.get(known);
      if (token.isCancellationRequested || entry?.kind !== 'rule') return;
      // A saved test file may have new or renamed cases: list them again before running.
      const fresh = await items.refreshFile(entry.testFile);
      if (!fresh) return;
      const include = included ? items.within(fresh, included) : [fresh];
      if (include.length)
        await runRequest(
          items,
          controller,
          new vscode.TestRunRequest(include, undefined, request.profile),
          token,
          debug,
        );
    });
    const stop = token.onCancellationRequested(() => {
      stop.dispose();
      saved.dispose();
      resolve();
    });
  });
}

/** Test files and rules created, changed or deleted: their items read again (debounced). */
function watchFiles(items: RuleTestItems): vscode.Disposable[] {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changedFiles = new Set<string>();
  const changed = (uri: vscode.Uri): void => {
    changedFiles.add(uri.toString());
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const uris = [...changedFiles].map((u) => vscode.Uri.parse(u));
      changedFiles.clear();
      void Promise.all(uris.map((u) => items.refreshFile(u)));
    }, DEBOUNCE_MS);
  };
  // A rule's test file as the Test Explorer knows it, or the usual name beside a new rule.
  const testFileOfRule = (uri: vscode.Uri): vscode.Uri => {
    const known = items.ruleItem(uri);
    const entry = known && items.entries.get(known);
    return entry?.kind === 'rule' ? entry.testFile : uri.with({ path: uri.path.replace(/\.yaral$/i, '.test.yaml') });
  };
  const testFiles = vscode.workspace.createFileSystemWatcher(TEST_FILE_GLOB);
  const rules = vscode.workspace.createFileSystemWatcher('**/*.yaral');
  return [
    testFiles,
    rules,
    testFiles.onDidCreate(changed),
    testFiles.onDidChange(changed),
    testFiles.onDidDelete(changed),
    rules.onDidCreate((u) => changed(testFileOfRule(u))),
    rules.onDidChange((u) => changed(testFileOfRule(u))),
    rules.onDidDelete((u) => changed(testFileOfRule(u))),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void items.refreshAll()),
    { dispose: () => timer && clearTimeout(timer) },
  ];
}

function activateRuleTests(context: vscode.ExtensionContext): FeatureStart<RuleTestsContext> {
  const controller = vscode.tests.createTestController('cloudbench.ruleTests', 'YARA-L rule tests');
  const items = new RuleTestItems(controller);
  const run = (request: vscode.TestRunRequest, token: vscode.CancellationToken, debug = false): Promise<void> =>
    request.continuous
      ? runContinuously(items, controller, request, token, debug)
      : runRequest(items, controller, request, token, debug);

  const runProfile = controller.createRunProfile(
    'Run',
    vscode.TestRunProfileKind.Run,
    (request, token) => run(request, token),
    true,
    undefined,
    true,
  );
  const debugProfile = controller.createRunProfile(
    'Run and Show Detections',
    vscode.TestRunProfileKind.Debug,
    (request, token) => run(request, token, true),
    true,
    undefined,
    true,
  );
  controller.refreshHandler = () => items.refreshAll();
  controller.resolveHandler = async (item) => {
    if (!item) await items.refreshAll();
  };

  const diagnostics = new TestFileDiagnostics();
  context.subscriptions.push(
    controller,
    runProfile,
    debugProfile,
    diagnostics,
    ...watchFiles(items),
    vscode.languages.registerCodeLensProvider(
      [
        { pattern: '**/*.test.yaml', scheme: 'file' },
        { pattern: '**/*.test.yml', scheme: 'file' },
      ],
      new TestCaseLensProvider(),
    ),
  );
  // The cases are listed, and run once, as soon as the window opens: they are offline and bounded.
  const runCases = (include?: readonly vscode.TestItem[]): Promise<void> =>
    runRequest(
      items,
      controller,
      new vscode.TestRunRequest(include, undefined, runProfile),
      new vscode.CancellationTokenSource().token,
      false,
    );
  void items.refreshAll().then(() => runCases());
  return {
    ctx: {
      items,
      run: runCases,
      refreshFile: (uri) => items.refreshFile(uri),
    },
  };
}

export const ruleTestsFeature: Feature<RuleTestsContext, Services> = {
  name: 'Rule tests',
  commands: RULE_TESTS_COMMANDS,
  activate: (context) => activateRuleTests(context),
};
