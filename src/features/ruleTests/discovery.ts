// The rule tests of the workspace as Test Explorer items: one item per rule that has a
// `<rule>.test.yaml` beside it (placed on the rule's `rule name {` line, so the gutter shows a run
// icon above the rule), one child per case (placed on the case's `- name:` line of the test file).
// Files are read as `cloudbench test` reads them: no links, size limits, strict UTF-8.
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import { parseRuleFile } from '../../udm/rule/parse';
import { parseRuleTestFile, type RuleTestCase, type TestFileSpan } from '../../udm/rule/test-file';

/** Test files looked at, at most. */
const MAX_TEST_FILES = 5000;
/** Largest rule or test file read, as the command line reads them. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const EXCLUDE = '{**/node_modules/**,**/.git/**}';
export const TEST_FILE_GLOB = '**/*.test.{yaml,yml}';

/** What the Test Explorer holds about a rule's item. */
export interface RuleEntry {
  readonly kind: 'rule';
  readonly rule: vscode.Uri;
  readonly testFile: vscode.Uri;
  /** the workspace folder the rule lies in: nothing it names is read outside it */
  readonly folder: vscode.Uri;
}

export interface CaseEntry {
  readonly kind: 'case';
  readonly name: string;
  readonly rule: RuleEntry;
}

export type Entry = RuleEntry | CaseEntry;

/** `<stem>.yaral` for `<stem>.test.yaml` (or `.test.yml`). */
export function ruleOfTestFile(testFile: vscode.Uri): vscode.Uri | undefined {
  const m = /^(.*)\.test\.ya?ml$/i.exec(testFile.path);
  return m ? testFile.with({ path: `${m[1]}.yaral` }) : undefined;
}

/** A file's text, or undefined for a link, a file too large, not UTF-8 or missing. */
export async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.SymbolicLink || !(stat.type & vscode.FileType.File) || stat.size > MAX_FILE_BYTES)
      return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
}

export function rangeOf(span: TestFileSpan): vscode.Range {
  return new vscode.Range(span.line - 1, span.column - 1, span.line - 1, span.column - 1);
}

/** The 0-based line of the first rule's `rule` word, and its name. */
function firstRule(text: string): { line: number; name?: string } | undefined {
  const rule = parseRuleFile(text).rules[0];
  if (!rule) return undefined;
  let line = 0;
  for (let i = 0; i < rule.keyword.start; i++) if (text.charCodeAt(i) === 10) line++;
  return { line, ...(rule.name ? { name: rule.name.name } : {}) };
}

export class RuleTestItems {
  readonly entries = new WeakMap<vscode.TestItem, Entry>();

  constructor(private readonly controller: vscode.TestController) {}

  /** Every test file of the workspace's local folders, read again. */
  async refreshAll(): Promise<void> {
    const found = await vscode.workspace.findFiles(TEST_FILE_GLOB, EXCLUDE, MAX_TEST_FILES);
    const items: vscode.TestItem[] = [];
    for (const testFile of found.sort((a, b) => (a.toString() < b.toString() ? -1 : 1))) {
      const item = await this.itemOf(testFile);
      if (item) items.push(item);
    }
    this.controller.items.replace(items);
  }

  /** One test file read again (created, changed or saved); its item goes when its rule is gone. */
  async refreshFile(testFile: vscode.Uri): Promise<vscode.TestItem | undefined> {
    const rule = ruleOfTestFile(testFile);
    if (!rule) return undefined;
    const item = await this.itemOf(testFile);
    if (item) this.controller.items.add(item);
    else this.controller.items.delete(rule.toString());
    return item;
  }

  /** The rule's item for a test file, or undefined when it is not a rule's test file. */
  private async itemOf(testFile: vscode.Uri): Promise<vscode.TestItem | undefined> {
    const rule = ruleOfTestFile(testFile);
    const folder = vscode.workspace.getWorkspaceFolder(testFile);
    if (!rule || !folder || testFile.scheme !== 'file') return undefined;
    try {
      await vscode.workspace.fs.stat(testFile);
    } catch {
      return undefined;
    }
    const ruleText = await readText(rule);
    if (ruleText === undefined) return undefined;
    const head = firstRule(ruleText);
    const label = head?.name ?? rule.path.replace(/^.*\//, '');
    const item = this.controller.createTestItem(rule.toString(), safeText(label, 'plain', 200), rule);
    item.range = new vscode.Range(head?.line ?? 0, 0, head?.line ?? 0, 0);
    item.description = vscode.workspace.asRelativePath(testFile, false);
    const entry: RuleEntry = { kind: 'rule', rule, testFile, folder: folder.uri };
    this.entries.set(item, entry);
    const text = await readText(testFile);
    if (text === undefined) {
      item.error = `${item.description} cannot be read (a link, larger than 10 MB or not UTF-8).`;
      return item;
    }
    const parsed = parseRuleTestFile(text);
    if (!parsed.file) {
      const first = parsed.problems[0];
      item.error = new vscode.MarkdownString().appendText(
        `${item.description}:${first?.line ?? 1}: ${first?.message ?? 'not a test file'}${parsed.problems.length > 1 ? ` (and ${parsed.problems.length - 1} more; open the file to see them all)` : ''}`,
      );
      return item;
    }
    item.children.replace(parsed.file.cases.map((c) => this.caseItem(entry, testFile, c)));
    return item;
  }

  private caseItem(rule: RuleEntry, testFile: vscode.Uri, c: RuleTestCase): vscode.TestItem {
    const item = this.controller.createTestItem(caseId(testFile, c.name), safeText(c.name, 'plain', 200), testFile);
    item.range = rangeOf(c.span);
    this.entries.set(item, { kind: 'case', name: c.name, rule });
    return item;
  }

  /** The items of `rule` (itself or its cases) whose ids are among `ids`. */
  within(rule: vscode.TestItem, ids: readonly string[]): vscode.TestItem[] {
    if (ids.includes(rule.id)) return [rule];
    const out: vscode.TestItem[] = [];
    rule.children.forEach((c) => {
      if (ids.includes(c.id)) out.push(c);
    });
    return out;
  }

  /** The rule item of a rule or test file, when the Test Explorer lists it. */
  ruleItem(uri: vscode.Uri): vscode.TestItem | undefined {
    const rule = uri.path.toLowerCase().endsWith('.yaral') ? uri : ruleOfTestFile(uri);
    return rule ? this.controller.items.get(rule.toString()) : undefined;
  }
}

export function caseId(testFile: vscode.Uri, name: string): string {
  return `${testFile.toString()}#${name}`;
}
