// "Save as Test Case for…": the events of the results panel in front kept as a test case of a rule
// the user picks; the expectation is what the rule gives over them (detections or none).
import * as vscode from 'vscode';
import { safeText } from '../../../core/display';
import { parseRuleFile } from '../../../udm/rule/parse';
import { saveTestCase } from '../../shared/rule-test-cases';
import type { SearchContext } from './context';

/** Event kinds a rule can be tested over: a search's events and an asset's events. */
const EVENT_KINDS = new Set(['udm', 'assetEvents']);
const EXCLUDE = '{**/node_modules/**,**/.git/**}';

async function pickRule(): Promise<{ uri: vscode.Uri; name: string; text: string } | undefined> {
  const files = await vscode.workspace.findFiles('**/*.yaral', EXCLUDE, 5000);
  if (!files.length) throw new Error('No YARA-L rule (.yaral) in this workspace to save the case for.');
  const picked = await vscode.window.showQuickPick(
    files
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .map((uri) => ({
        label: safeText(uri.path.replace(/^.*\//, '').replace(/\.yaral$/i, ''), 'plain', 120),
        description: safeText(vscode.workspace.asRelativePath(uri), 'plain', 200),
        uri,
      })),
    {
      title: 'Save as Test Case for…',
      placeHolder: 'The rule whose test file keeps these events',
      matchOnDescription: true,
    },
  );
  if (!picked) return undefined;
  const text = (await vscode.workspace.openTextDocument(picked.uri)).getText();
  const rule = parseRuleFile(text).rules[0];
  if (!rule?.name) throw new Error(`${picked.description ?? picked.label} holds no named rule ("rule name { … }").`);
  return { uri: picked.uri, name: rule.name.name, text: text.slice(rule.start, rule.end) };
}

export async function saveResultsAsTestCase(ctx: SearchContext): Promise<void> {
  const run = ctx.controller.activeRun();
  if (!run)
    throw new Error(
      'Open a results panel with the events to keep (run a query), then Save as Test Case for… from its title bar.',
    );
  if (!EVENT_KINDS.has(run.info.kind))
    throw new Error('Only events (a query’s results, an asset’s events) can be kept as a test case.');
  if (run.arriving) throw new Error('The answer is still arriving: save the case once it is complete.');
  const rule = await pickRule();
  if (!rule) return;
  await saveTestCase({
    rule: rule.uri,
    ruleName: rule.name,
    ruleText: rule.text,
    events: run.rows,
    lists: listsOf(ctx, rule.text),
    suggestedName: `from ${run.info.title}`.slice(0, 150),
  });
}

/** The reference lists the rule names, as Cloudbench last read them from SecOps. */
function listsOf(ctx: SearchContext, ruleText: string): Record<string, string[]> {
  const known = ctx.services.referenceLists.entries() ?? {};
  const out: Record<string, string[]> = {};
  for (const t of parseRuleFile(ruleText).tokens)
    if (t.kind === 'reflist' && t.value) {
      const entries = known[t.value];
      if (!entries)
        throw new Error(
          `The rule uses %${t.value}, which Cloudbench has not read yet: open the Reference Lists view, then save the case again.`,
        );
      out[t.value] = entries;
    }
  return out;
}
