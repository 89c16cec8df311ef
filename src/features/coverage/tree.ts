// The Rule Coverage view: ATT&CK tactics → techniques → the rules that name them (a click opens the
// rule at its meta: line), with which rules have tests. Rules without ATT&CK meta are listed last.
// The empty and no-folder states are the view's welcome content (cloudbench.coverage.state).
import * as vscode from 'vscode';
import { ModelTreeProvider } from '../../platform/model-tree';
import { safeText } from '../../core/display';
import type { Tactic } from '../../udm/rule/attack';
import type { CoveredRule, TacticCoverage, TechniqueCoverage } from '../../udm/rule/coverage';
import type { CoverageModel } from './model';

export const VIEW_ID = 'cloudbench.coverage';
export const STATE_CONTEXT_KEY = 'cloudbench.coverage.state';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The attack.mitre.org page of a technique ID (T1071.004 → /techniques/T1071/004/). */
export function techniqueUrl(id: string): string {
  return `https://attack.mitre.org/techniques/${id.replace('.', '/')}/`;
}

export class TacticItem extends vscode.TreeItem {
  constructor(readonly group: TacticCoverage) {
    super(group.tactic?.name ?? 'No tactic named', vscode.TreeItemCollapsibleState.Expanded);
    const t: Tactic | undefined = group.tactic;
    const techniques = plural(group.techniques.length, 'technique');
    this.id = `coverage:tactic:${t?.id ?? 'none'}`;
    this.contextValue = 'coverageTactic';
    this.iconPath = new vscode.ThemeIcon(t ? 'shield' : 'question');
    this.description = t ? `${t.id} · ${techniques}` : techniques;
    this.tooltip = t
      ? `${t.name} (${t.id}, ${t.shortName}): ${techniques}`
      : 'Techniques of rules that name no tactic: they count under every tactic the technique belongs to';
    this.accessibilityInformation = { label: `${t ? `${t.name}, ${t.id}` : 'No tactic named'}, ${techniques}` };
  }
}

export class TechniqueItem extends vscode.TreeItem {
  constructor(
    readonly group: TacticCoverage,
    readonly technique: TechniqueCoverage | undefined,
    readonly rules: readonly CoveredRule[],
  ) {
    super(technique?.id ?? '(no technique)', vscode.TreeItemCollapsibleState.Collapsed);
    const tested = rules.filter((r) => r.hasTests).length;
    const count = `${plural(rules.length, 'rule')}, ${tested} tested`;
    const names = technique?.names.map((n) => safeText(n)).join('; ');
    this.id = `coverage:technique:${group.tactic?.id ?? 'none'}:${technique?.id ?? 'none'}`;
    this.contextValue = 'coverageTechnique';
    this.iconPath = new vscode.ThemeIcon(technique ? 'target' : 'circle-slash');
    this.description = names ? `${names} · ${count}` : count;
    if (technique) {
      const tip = new vscode.MarkdownString();
      tip.appendMarkdown(`**${technique.id}**`);
      if (names) tip.appendMarkdown(` ${safeText(names, 'markdown')}`);
      tip.appendMarkdown(`\n\n${count}\n\n[${technique.id} on attack.mitre.org](${techniqueUrl(technique.id)})`);
      this.tooltip = tip;
    } else this.tooltip = `Rules that name ${group.tactic?.name ?? 'a tactic'} but no technique: ${count}`;
    this.accessibilityInformation = {
      label: `${technique?.id ?? 'no technique'}${names ? `, ${names}` : ''}, ${count}`,
    };
  }
}

export class UntaggedItem extends vscode.TreeItem {
  constructor(readonly rules: readonly CoveredRule[]) {
    super('Rules without ATT&CK meta', vscode.TreeItemCollapsibleState.Collapsed);
    this.id = 'coverage:untagged';
    this.contextValue = 'coverageUntagged';
    this.iconPath = new vscode.ThemeIcon('circle-outline');
    this.description = plural(rules.length, 'rule');
    this.tooltip = 'Rules whose meta: names no tactic or technique (tactic = "TA…", technique = "T…")';
  }
}

export class RuleItem extends vscode.TreeItem {
  constructor(
    readonly rule: CoveredRule,
    readonly uri: vscode.Uri,
    parentId: string,
  ) {
    super(rule.name, vscode.TreeItemCollapsibleState.None);
    const file = safeText(rule.file);
    this.id = `${parentId}:rule:${rule.file}:${rule.name}`;
    this.contextValue = rule.hasTests ? 'coverageRule.tested' : 'coverageRule';
    this.resourceUri = uri;
    this.iconPath = new vscode.ThemeIcon(rule.hasTests ? 'beaker' : 'file-code');
    this.description = `${rule.hasTests ? 'tested' : 'no tests'} · ${file}`;
    this.tooltip = `${rule.name} (${file}, line ${rule.line + 1}): ${rule.hasTests ? 'has a test file beside it' : 'no test file (.test.yaml) beside it'}`;
    this.accessibilityInformation = { label: `${rule.name}, ${rule.hasTests ? 'has tests' : 'no tests'}, ${file}` };
    const at = new vscode.Range(rule.line, 0, rule.line, 0);
    this.command = { command: 'vscode.open', title: 'Open Rule', arguments: [uri, { selection: at }] };
  }
}

export type CoverageNode = TacticItem | TechniqueItem | UntaggedItem | RuleItem;

export class CoverageTreeProvider extends ModelTreeProvider<CoverageNode> {
  constructor(private readonly model: CoverageModel) {
    super(model);
  }

  async getChildren(node?: CoverageNode): Promise<CoverageNode[]> {
    await this.model.ensureLoaded();
    const state = this.model.current;
    if (state.kind !== 'ready') return [];
    const uriOf = (r: CoveredRule): vscode.Uri => state.uris.get(r) ?? vscode.Uri.file(r.file);
    const rulesOf = (rules: readonly CoveredRule[], parentId: string): RuleItem[] =>
      rules.map((r) => new RuleItem(r, uriOf(r), parentId));
    if (!node) {
      const roots: CoverageNode[] = state.coverage.tactics.map((g) => new TacticItem(g));
      if (state.coverage.untagged.length) roots.push(new UntaggedItem(state.coverage.untagged));
      return roots;
    }
    if (node instanceof TacticItem) {
      const items = node.group.techniques.map((t) => new TechniqueItem(node.group, t, t.rules));
      if (node.group.withoutTechnique.length)
        items.push(new TechniqueItem(node.group, undefined, node.group.withoutTechnique));
      return items;
    }
    if (node instanceof TechniqueItem) return rulesOf(node.rules, node.id ?? '');
    if (node instanceof UntaggedItem) return rulesOf(node.rules, node.id ?? '');
    return [];
  }
}
