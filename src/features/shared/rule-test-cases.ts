// Keeping what a hunt or a Test Rule run found as a rule test case: the user names the case and
// chooses whether names and addresses are replaced; the events are moved to the fixed base week,
// written as NDJSON under `events/` beside the test file, and the case (its expectation computed by
// the same offline engine `cloudbench test` runs) is added under `cases:` of `<rule>.test.yaml`,
// which opens at the new case. Nothing is written when the case would not pass as saved.
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import { exists } from '../../platform/files';
import { captureEvents, caseOf, withCase } from '../../udm/rule/test-capture';
import { ruleListNames, runCase } from '../../udm/rule/test-case';
import { parseRuleTestFile } from '../../udm/rule/test-file';

/** Events a saved case holds at most: a test file is read by people and by CI on every change. */
export const MAX_CASE_EVENTS = 10_000;

export interface CaseToSave {
  /** the rule file (`<stem>.yaral`) */
  readonly rule: vscode.Uri;
  readonly ruleName: string;
  /** the rule's own text (`rule name { … }`) as it is now */
  readonly ruleText: string;
  /** UDM events (bare or `{ udm }`) */
  readonly events: readonly unknown[];
  /** the reference lists the run read */
  readonly lists: Readonly<Record<string, readonly string[]>>;
  /**
   * whether the case expects detections (a detection saved) or none (a quiet range saved); without
   * it, the case expects what the rule gives over the events
   */
  readonly fires?: boolean;
  readonly suggestedName: string;
}

const stemOf = (uri: vscode.Uri): string => uri.path.replace(/^.*\//, '').replace(/\.yaral$/i, '');

/** The rule's test file: the one beside it, or the `.test.yaml` to create. */
async function testFileOf(rule: vscode.Uri): Promise<vscode.Uri> {
  const base = vscode.Uri.joinPath(rule, '..');
  for (const ext of ['.test.yaml', '.test.yml']) {
    const uri = vscode.Uri.joinPath(base, `${stemOf(rule)}${ext}`);
    if (await exists(uri)) return uri;
  }
  return vscode.Uri.joinPath(base, `${stemOf(rule)}.test.yaml`);
}

/** The test file's text as the editor holds it (unsaved edits included), or undefined when there is none. */
async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  if (!(await exists(uri))) return undefined;
  return new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri));
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'case'
  );
}

/** A free `events/<stem>-<slug>.ndjson` beside the test file. */
async function eventsFileFor(testFile: vscode.Uri, rule: vscode.Uri, name: string): Promise<string> {
  const folder = vscode.Uri.joinPath(testFile, '..');
  for (let i = 1; ; i++) {
    const rel = `events/${stemOf(rule)}-${slug(name)}${i === 1 ? '' : `-${i}`}.ndjson`;
    if (!(await exists(vscode.Uri.joinPath(folder, rel)))) return rel;
  }
}

async function askName(taken: ReadonlySet<string>, suggested: string): Promise<string | undefined> {
  let value = suggested;
  for (let i = 2; taken.has(value); i++) value = `${suggested} (${i})`;
  return vscode.window.showInputBox({
    title: 'Save as Test Case',
    prompt: 'The name of the case in the rule’s test file',
    value,
    validateInput: (v) =>
      v.trim() === ''
        ? 'Give the case a name.'
        : v.length > 200
          ? 'At most 200 characters.'
          : taken.has(v.trim())
            ? 'The test file already has a case of that name.'
            : [...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)
              ? 'No control characters.'
              : undefined,
  });
}

async function askRedaction(): Promise<boolean | undefined> {
  const pick = await vscode.window.showQuickPick(
    [
      {
        label: 'Replace names and addresses',
        detail:
          'Host names, user names, e-mail and IP addresses become host-1, user-1, user-1@example.com, 192.0.2.1 … the same value always the same placeholder; values the rule or its lists name are kept.',
        redact: true,
      },
      { label: 'Keep them as they are', detail: 'The events are stored as they were found.', redact: false },
    ],
    { title: 'Save as Test Case: the events go into the repository', ignoreFocusOut: true },
  );
  return pick?.redact;
}

/** Asks, writes the events file and the case, and opens the test file at it; undefined when cancelled. */
export async function saveTestCase(save: CaseToSave): Promise<vscode.Uri | undefined> {
  if (save.events.length === 0) throw new Error('There are no events to keep as a test case.');
  if (save.events.length > MAX_CASE_EVENTS)
    throw new Error(
      `${save.events.length.toLocaleString('en-US')} events are too many for one test case (at most ${MAX_CASE_EVENTS.toLocaleString('en-US')}): test a shorter time range, then save it.`,
    );
  const testFile = await testFileOf(save.rule);
  const shownFile = vscode.workspace.asRelativePath(testFile);
  const before = await currentText(testFile);
  const parsed = before === undefined || before.trim() === '' ? undefined : parseRuleTestFile(before);
  if (parsed && !parsed.file)
    throw new Error(
      `${shownFile} has problems (${parsed.problems[0]?.message ?? 'not a test file'}): fix them, then save the case.`,
    );
  const name = (await askName(new Set(parsed?.file?.cases.map((c) => c.name)), save.suggestedName))?.trim();
  if (!name) return undefined;
  const redact = await askRedaction();
  if (redact === undefined) return undefined;
  const used = ruleListNames(save.ruleText);
  const lists: Record<string, string[]> = {};
  for (const l of used) if (save.lists[l]) lists[l] = [...save.lists[l]];
  const captured = captureEvents({ ruleText: save.ruleText, events: save.events, lists, redact });
  const run = runCase({ ruleText: save.ruleText, events: captured.events, lists });
  if ('error' in run) throw new Error(`The case cannot be run: ${run.error}`);
  if (save.fires === true && run.detections.length === 0)
    throw new Error(
      `Over these events alone ${save.ruleName} gives no detection${redact ? ' once names and addresses are replaced' : ''}: the case would not show it firing. Nothing was saved.`,
    );
  if (save.fires === false && run.detections.length > 0)
    throw new Error(
      `Over these events alone ${save.ruleName} gives ${run.detections.length} detection(s): the case would not be a no-fire case. Nothing was saved.`,
    );
  const rel = await eventsFileFor(testFile, save.rule, name);
  const testCase = { ...caseOf(name, captured.events, run.detections, lists), events: rel };
  const after = withCase(before, `${stemOf(save.rule)}.yaral`, testCase);
  const check = parseRuleTestFile(after);
  if (!check.file?.cases.some((c) => c.name === name))
    throw new Error(
      `The case could not be added to ${shownFile} (${check.problems[0]?.message ?? 'its cases: list is not where expected'}). Nothing was saved.`,
    );
  const ndjson = `${captured.events.map((e) => JSON.stringify(e)).join('\n')}\n`;
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(testFile, '..', rel), new TextEncoder().encode(ndjson));
  await writeTestFile(testFile, after);
  const line = check.file.cases.find((c) => c.name === name)?.span.line ?? 1;
  await vscode.window.showTextDocument(testFile, { selection: new vscode.Range(line - 1, 0, line - 1, 0) });
  const replaced = captured.replacements.size;
  void vscode.window.showInformationMessage(
    `Saved "${safeText(name, 'plain', 80)}" in ${shownFile}: ${captured.events.length} events in ${rel}${redact ? `, ${replaced} names and addresses replaced` : ''}, expecting ${run.detections.length ? `${run.detections.length} detection(s)` : 'no detection'}.`,
  );
  return testFile;
}

/** Writes the test file through its open document (kept undoable) or to disk. */
async function writeTestFile(uri: vscode.Uri, text: string): Promise<void> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!open) {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(0, 0, open.lineCount, 0), text);
  if (!(await vscode.workspace.applyEdit(edit)))
    throw new Error(`${vscode.workspace.asRelativePath(uri)} could not be edited.`);
  await open.save();
}
