// The rules of the workspace and their ATT&CK coverage, read from disk when the view first asks and
// again (debounced) when a .yaral file or a rule's test file is created, changed or deleted.
import * as vscode from 'vscode';
import { buildCoverage, coveredRules, type Coverage, type CoveredRule } from '../../udm/rule/coverage';

/** Largest rule file read, as `cloudbench` reads them. */
const MAX_RULE_BYTES = 10 * 1024 * 1024;
/** Rule files looked at, at most. */
const MAX_RULE_FILES = 5000;
const EXCLUDE = '{**/node_modules/**,**/.git/**}';
const DEBOUNCE_MS = 300;

export type CoverageState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly coverage: Coverage; readonly uris: ReadonlyMap<CoveredRule, vscode.Uri> };

/** The test file of a rule: `<rule>.test.yaml` beside `<rule>.yaral`. */
export function testFileUri(rule: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(rule, '..', `${rule.path.replace(/^.*\//, '').replace(/\.[^.]*$/, '')}.test.yaml`);
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}

/** A rule file's text, or undefined for a link, a file too large or not UTF-8 (skipped). */
async function readRule(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.SymbolicLink || stat.size > MAX_RULE_BYTES) return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
}

export class CoverageModel implements vscode.Disposable {
  private state: CoverageState = { kind: 'idle' };
  private readonly emitter = new vscode.EventEmitter<CoverageState>();
  readonly onDidChange = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [this.emitter];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;

  constructor() {
    for (const pattern of ['**/*.yaral', '**/*.test.yaml']) {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      this.disposables.push(
        watcher,
        watcher.onDidCreate(() => this.changed()),
        watcher.onDidChange(() => this.changed()),
        watcher.onDidDelete(() => this.changed()),
      );
    }
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed()));
  }

  get current(): CoverageState {
    return this.state;
  }

  /** Loads once; later changes reload through the watchers. */
  ensureLoaded(): Promise<void> {
    return this.state.kind === 'idle' ? this.refresh() : Promise.resolve();
  }

  /** Reads every rule again. */
  async refresh(): Promise<void> {
    const generation = ++this.generation;
    if (this.state.kind !== 'ready') this.set({ kind: 'loading' });
    const files = await vscode.workspace.findFiles('**/*.yaral', EXCLUDE, MAX_RULE_FILES);
    files.sort((a, b) => (a.toString() < b.toString() ? -1 : 1));
    const rules: CoveredRule[] = [];
    const uris = new Map<CoveredRule, vscode.Uri>();
    for (const uri of files) {
      const text = await readRule(uri);
      if (text === undefined) continue;
      const found = coveredRules(text, vscode.workspace.asRelativePath(uri), await exists(testFileUri(uri)));
      for (const rule of found.rules) {
        rules.push(rule);
        uris.set(rule, uri);
      }
    }
    // A newer refresh started meanwhile: its answer wins.
    if (generation !== this.generation) return;
    this.set({ kind: 'ready', coverage: buildCoverage(rules), uris });
  }

  private changed(): void {
    if (this.state.kind === 'idle') return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, DEBOUNCE_MS);
  }

  private set(state: CoverageState): void {
    this.state = state;
    this.emitter.fire(state);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
