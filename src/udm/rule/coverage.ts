// ATT&CK coverage of a set of rules: tactics → techniques → rules (the Rule Coverage view and
// `cloudbench coverage`), the MITRE ATT&CK Navigator layer (format 4.5) of it, and which required
// techniques it misses. A rule that names tactics and techniques covers each technique under each of
// its tactics (without a technique → tactic table, that is all a rule's meta says); a technique of a
// rule that names no tactic applies to every tactic it belongs to, as a Navigator entry without one.
import { LineIndex } from '../text';
import { ENTERPRISE_TACTICS, TECHNIQUE_ID, readAttack, type RuleAttack, type Tactic } from './attack';
import { parseRuleFile } from './parse';

export interface CoveredRule {
  /** the rule's name (`rule name {`), or the file's when it has none */
  readonly name: string;
  /** the file as the caller shows it */
  readonly file: string;
  /** 0-based line of the rule's first ATT&CK meta item (or its meta:) */
  readonly line: number;
  readonly attack: RuleAttack;
  /** a `<rule>.test.yaml` lies beside the rule */
  readonly hasTests: boolean;
}

/** A malformed ATT&CK ID of a rule, in 1-based line and column. */
export interface AttackNote {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** The rules of a rule file's text (`file` as the caller names it) and their malformed ATT&CK IDs. */
export function coveredRules(
  text: string,
  file: string,
  hasTests: boolean,
): { rules: CoveredRule[]; problems: AttackNote[] } {
  const lines = new LineIndex(text);
  const rules: CoveredRule[] = [];
  const problems: AttackNote[] = [];
  for (const node of parseRuleFile(text).rules) {
    const attack = readAttack(node);
    for (const p of attack.problems) {
      const at = lines.position(p.start);
      problems.push({ line: at.line + 1, column: at.character + 1, message: p.message });
    }
    const stem = file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
    rules.push({ name: node.name?.name ?? stem, file, line: lines.position(attack.anchor).line, attack, hasTests });
  }
  return { rules, problems };
}

export interface TechniqueCoverage {
  readonly id: string;
  /** names rules write for it (mitre_attack_technique), each once */
  readonly names: string[];
  readonly rules: CoveredRule[];
}

export interface TacticCoverage {
  /** undefined: techniques of rules that name no tactic */
  readonly tactic: Tactic | undefined;
  readonly techniques: TechniqueCoverage[];
  /** rules that name this tactic and no technique */
  readonly withoutTechnique: CoveredRule[];
}

export interface Coverage {
  readonly rules: CoveredRule[];
  /** the matrix order, the tactic-less group last; only tactics some rule names */
  readonly tactics: TacticCoverage[];
  /** rules that name no tactic and no technique */
  readonly untagged: CoveredRule[];
  /** every technique ID some rule names */
  readonly techniqueIds: string[];
}

const byRule = (a: CoveredRule, b: CoveredRule): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function buildCoverage(rules: readonly CoveredRule[]): Coverage {
  const sorted = [...rules].sort(byRule);
  const groups = new Map<string, { techniques: Map<string, TechniqueCoverage>; withoutTechnique: CoveredRule[] }>();
  const group = (key: string): { techniques: Map<string, TechniqueCoverage>; withoutTechnique: CoveredRule[] } => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { techniques: new Map(), withoutTechnique: [] }));
    return g;
  };
  const untagged: CoveredRule[] = [];
  const ids = new Set<string>();
  for (const rule of sorted) {
    const { tactics, techniques } = rule.attack;
    if (!tactics.length && !techniques.length) {
      untagged.push(rule);
      continue;
    }
    for (const key of tactics.length ? tactics.map((t) => t.tactic.id) : ['']) {
      const g = group(key);
      if (!techniques.length) g.withoutTechnique.push(rule);
      for (const t of techniques) {
        ids.add(t.id);
        let entry = g.techniques.get(t.id);
        if (!entry) g.techniques.set(t.id, (entry = { id: t.id, names: [], rules: [] }));
        if (t.name && !entry.names.includes(t.name)) entry.names.push(t.name);
        entry.rules.push(rule);
      }
    }
  }
  const tactics: TacticCoverage[] = [];
  for (const tactic of [...ENTERPRISE_TACTICS, undefined]) {
    const g = groups.get(tactic?.id ?? '');
    if (g)
      tactics.push({ tactic, techniques: [...g.techniques.values()].sort(byId), withoutTechnique: g.withoutTechnique });
  }
  return { rules: sorted, tactics, untagged, techniqueIds: [...ids].sort() };
}

// ---- the Navigator layer ----------------------------------------------------------------------------

/** Versions written into the layer: the format this file follows, a Navigator that reads it, ATT&CK. */
export const LAYER_VERSIONS = { layer: '4.5', navigator: '5.1.0', attack: '17' } as const;

export interface LayerTechnique {
  techniqueID: string;
  tactic?: string;
  score: number;
  comment: string;
  metadata: Array<{ name: string; value: string }>;
}

export interface NavigatorLayer {
  name: string;
  description: string;
  versions: { layer: string; navigator: string; attack: string };
  domain: 'enterprise-attack';
  sorting: number;
  layout: { layout: 'side'; showID: boolean; showName: boolean };
  hideDisabled: boolean;
  techniques: LayerTechnique[];
  gradient: { colors: string[]; minValue: number; maxValue: number };
  legendItems: Array<{ label: string; color: string }>;
  metadata: Array<{ name: string; value: string }>;
}

const LOW = '#cfe8ff';
const HIGH = '#1f6fb8';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * The layer of `coverage`: one technique entry per tactic a rule names it under, scored with the
 * number of rules that cover it there; the rules and whether they have tests are its comment and
 * metadata.
 */
export function navigatorLayer(coverage: Coverage, name = 'Cloudbench rule coverage'): NavigatorLayer {
  const techniques: LayerTechnique[] = [];
  for (const group of coverage.tactics)
    for (const t of group.techniques) {
      const tested = t.rules.filter((r) => r.hasTests).length;
      techniques.push({
        techniqueID: t.id,
        ...(group.tactic ? { tactic: group.tactic.shortName } : {}),
        score: t.rules.length,
        comment: `${plural(t.rules.length, 'rule')}: ${t.rules.map((r) => r.name).join(', ')}`,
        metadata: [
          ...t.rules.map((r) => ({ name: 'rule', value: `${r.name} (${r.file})` })),
          { name: 'tested', value: `${tested} of ${plural(t.rules.length, 'rule')}` },
        ],
      });
    }
  const maxScore = Math.max(1, ...techniques.map((t) => t.score));
  const tagged = coverage.rules.length - coverage.untagged.length;
  return {
    name,
    description: `ATT&CK coverage of ${plural(coverage.rules.length, 'YARA-L rule')} (${tagged} with ATT&CK meta); score: rules covering the technique`,
    versions: { ...LAYER_VERSIONS },
    domain: 'enterprise-attack',
    sorting: 3,
    layout: { layout: 'side', showID: true, showName: true },
    hideDisabled: false,
    techniques,
    gradient: { colors: [LOW, HIGH], minValue: 0, maxValue: maxScore },
    legendItems: [
      { label: '1 rule', color: LOW },
      { label: maxScore > 1 ? `${maxScore} rules` : 'more rules', color: HIGH },
    ],
    metadata: [
      { name: 'rules', value: String(coverage.rules.length) },
      { name: 'rules with tests', value: String(coverage.rules.filter((r) => r.hasTests).length) },
      { name: 'generator', value: 'cloudbench coverage' },
    ],
  };
}

// ---- required techniques ----------------------------------------------------------------------------

export interface RequiredList {
  readonly ids: string[];
  /** lines that hold something other than technique IDs (1-based) */
  readonly problems: Array<{ line: number; text: string }>;
}

/**
 * A list of techniques that must be covered: IDs separated by line breaks, commas or spaces; `#`
 * starts a comment. Anything else on a line is a problem (a typo must not pass as "covered").
 */
export function parseRequiredTechniques(text: string): RequiredList {
  const ids: string[] = [];
  const problems: Array<{ line: number; text: string }> = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    for (const word of raw.replace(/#.*/, '').split(/[\s,]+/)) {
      if (!word) continue;
      if (!TECHNIQUE_ID.test(word)) problems.push({ line: i + 1, text: word });
      else if (!ids.includes(word.toUpperCase())) ids.push(word.toUpperCase());
    }
  });
  return { ids, problems };
}

/**
 * The required techniques no rule covers. A technique is covered by a rule naming it or one of its
 * sub-techniques; a sub-technique only by a rule naming that sub-technique.
 */
export function missingTechniques(coverage: Coverage, required: readonly string[]): string[] {
  const covered = coverage.techniqueIds;
  return required.filter((id) => !covered.some((c) => c === id || (!id.includes('.') && c.startsWith(`${id}.`))));
}
