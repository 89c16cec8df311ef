// MITRE ATT&CK tactics and techniques a rule names in its meta: section. Google's public rules
// (chronicle/detection-rules) write them in three ways, all read here:
//   - `tactic = "TA0006"` and `technique = "T1003.001"` (IDs);
//   - `mitre_attack_tactic = "Defense Evasion, Persistence"` (names, comma-separated),
//     `mitre_attack_technique = "Valid Accounts: Cloud Accounts"` (a name, sometimes an ID) and
//     `mitre_attack_url = "https://attack.mitre.org/techniques/T1078/004/"` (where the ID is);
//   - `mitre = "credential_access, t1003"` (Sigma-converted rules: tactic names in any spelling
//     and technique IDs in one list, beside software, group and CAR IDs that are not read);
//   - `reference = "https://attack.mitre.org/techniques/T1053/005/"` (a technique's page as the
//     rule's reference; other references are not read).
// Tactic names come from the fixed table of the 14 enterprise tactics below; techniques are known by
// ID only (no name table: a technique is shown as its ID, with the name the rule writes if any).
import type { StringNode } from '../ast';
import { suggest } from '../schema';
import { metaString, type RuleNode } from './ast';

export interface Tactic {
  /** TA0006 */
  readonly id: string;
  /** Credential Access */
  readonly name: string;
  /** credential-access: the Navigator's and STIX's name for it */
  readonly shortName: string;
}

/** The enterprise tactics, in the order of the ATT&CK matrix. */
export const ENTERPRISE_TACTICS: readonly Tactic[] = [
  { id: 'TA0043', name: 'Reconnaissance', shortName: 'reconnaissance' },
  { id: 'TA0042', name: 'Resource Development', shortName: 'resource-development' },
  { id: 'TA0001', name: 'Initial Access', shortName: 'initial-access' },
  { id: 'TA0002', name: 'Execution', shortName: 'execution' },
  { id: 'TA0003', name: 'Persistence', shortName: 'persistence' },
  { id: 'TA0004', name: 'Privilege Escalation', shortName: 'privilege-escalation' },
  { id: 'TA0005', name: 'Defense Evasion', shortName: 'defense-evasion' },
  { id: 'TA0006', name: 'Credential Access', shortName: 'credential-access' },
  { id: 'TA0007', name: 'Discovery', shortName: 'discovery' },
  { id: 'TA0008', name: 'Lateral Movement', shortName: 'lateral-movement' },
  { id: 'TA0009', name: 'Collection', shortName: 'collection' },
  { id: 'TA0011', name: 'Command and Control', shortName: 'command-and-control' },
  { id: 'TA0010', name: 'Exfiltration', shortName: 'exfiltration' },
  { id: 'TA0040', name: 'Impact', shortName: 'impact' },
];

/** A tactic ID: TA and four digits. */
export const TACTIC_ID = /^TA\d{4}$/i;
/** A technique ID: T and four digits, or a sub-technique with a dot and three more. */
export const TECHNIQUE_ID = /^T\d{4}(\.\d{3})?$/i;

/** "Command & Control", "command_and_control", "defense-evasion" → one spelling to compare. */
function normalName(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

const BY_ID = new Map(ENTERPRISE_TACTICS.map((t) => [t.id, t]));
const BY_NAME = new Map(ENTERPRISE_TACTICS.map((t) => [normalName(t.name), t]));

/** The enterprise tactic an ID or a name (in any of the spellings rules use) stands for. */
export function findTactic(text: string): Tactic | undefined {
  const trimmed = text.trim();
  return TACTIC_ID.test(trimmed) ? BY_ID.get(trimmed.toUpperCase()) : BY_NAME.get(normalName(trimmed));
}

/** Where a value stands in the rule file (offsets). */
export interface Written {
  /** the text as the rule writes it */
  readonly written: string;
  readonly start: number;
  readonly end: number;
  /** the meta key it was read from */
  readonly key: string;
}

export interface TacticMention extends Written {
  readonly tactic: Tactic;
}

export interface TechniqueMention extends Written {
  /** the ID in its canonical spelling: T1003.001 */
  readonly id: string;
  /** the technique's name when the rule writes one beside a single ID (mitre_attack_technique) */
  readonly name?: string;
}

export interface AttackProblem {
  readonly message: string;
  readonly start: number;
  readonly end: number;
  readonly code: 'attack-tactic' | 'attack-technique';
}

export interface RuleAttack {
  /** each tactic once, in the order written */
  readonly tactics: TacticMention[];
  /** each technique once, in the order written */
  readonly techniques: TechniqueMention[];
  /** technique names written without an ID anywhere in the rule (no name table to look them up) */
  readonly unidentified: Written[];
  readonly problems: AttackProblem[];
  /** where the first ATT&CK meta item starts, else the meta: keyword, else the rule (to open it there) */
  readonly anchor: number;
}

interface Piece {
  text: string;
  start: number;
  end: number;
}

/** The comma-separated items of a meta string, each with its span (the whole string's when escaped). */
function pieces(value: StringNode): Piece[] {
  // Spans inside the string are exact only when the value is written without escapes.
  const exact = value.end - value.start - 2 === value.value.length;
  const out: Piece[] = [];
  let at = 0;
  for (const raw of value.value.split(',')) {
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text)
      out.push(
        exact
          ? { text, start: value.start + 1 + at + lead, end: value.start + 1 + at + lead + text.length }
          : { text, start: value.start, end: value.end },
      );
    at += raw.length + 1;
  }
  return out;
}

/** The technique ID in an attack.mitre.org URL: /techniques/T1078/004/ → T1078.004. */
export function techniqueOfUrl(url: string): string | undefined {
  const m = /attack\.mitre\.org\/(?:versions\/[^/]+\/)?techniques\/(T\d{4})(?:\/(\d{3}))?(?:[/?#]|$)/i.exec(url);
  return m ? `${m[1].toUpperCase()}${m[2] ? `.${m[2]}` : ''}` : undefined;
}

const TACTIC_KEYS = new Set(['tactic', 'mitre_attack_tactic']);
const TECHNIQUE_KEYS = new Set(['technique', 'mitre_attack_technique']);
const URL_KEYS = new Set(['mitre_attack_url', 'reference', 'references']);
const ATTACK_KEYS = new Set([...TACTIC_KEYS, ...TECHNIQUE_KEYS, ...URL_KEYS, 'mitre']);

const TACTIC_LIST = ENTERPRISE_TACTICS.map((t) => t.name).join(', ');

class Reader {
  readonly tactics = new Map<string, TacticMention>();
  readonly techniques = new Map<string, TechniqueMention>();
  readonly names: Written[] = [];
  readonly problems: AttackProblem[] = [];

  tactic(p: Piece, key: string, tactic: Tactic): void {
    if (!this.tactics.has(tactic.id)) this.tactics.set(tactic.id, { tactic, written: p.text, ...span(p), key });
  }

  technique(p: Piece, key: string): void {
    const id = p.text.toUpperCase();
    if (!this.techniques.has(id)) this.techniques.set(id, { id, written: p.text, ...span(p), key });
  }

  problem(p: Piece, code: AttackProblem['code'], message: string): void {
    this.problems.push({ message, start: p.start, end: Math.max(p.end, p.start + 1), code });
  }

  /** `tactic` / `mitre_attack_tactic`: IDs or names, each must be an enterprise tactic. */
  readTactics(value: StringNode, key: string): void {
    for (const p of pieces(value)) {
      const tactic = findTactic(p.text);
      if (tactic) this.tactic(p, key, tactic);
      else if (TACTIC_ID.test(p.text))
        this.problem(p, 'attack-tactic', `${p.text} is not one of the 14 enterprise ATT&CK tactics (${TACTIC_LIST})`);
      else if (/^TA\d/i.test(p.text) || /^TA$/i.test(p.text))
        this.problem(
          p,
          'attack-tactic',
          `Malformed tactic ID '${p.text}': a tactic ID is TA and four digits, such as TA0006`,
        );
      else {
        const near = suggest(
          p.text,
          ENTERPRISE_TACTICS.map((t) => t.name),
          1,
        );
        this.problem(
          p,
          'attack-tactic',
          `Unknown tactic '${p.text}'${near.length ? `. Did you mean '${near[0]}'?` : ''} The enterprise tactics are ${TACTIC_LIST}, or their IDs (TA0001 …)`,
        );
      }
    }
  }

  /** `technique` / `mitre_attack_technique`: IDs, or names (kept to pair with mitre_attack_url). */
  readTechniques(value: StringNode, key: string): void {
    for (const p of pieces(value)) {
      if (TECHNIQUE_ID.test(p.text)) this.technique(p, key);
      else if (/^T\d/i.test(p.text)) this.malformedTechnique(p);
      else this.names.push({ written: p.text, ...span(p), key });
    }
  }

  malformedTechnique(p: Piece): void {
    this.problem(
      p,
      'attack-technique',
      `Malformed technique ID '${p.text}': a technique ID is T and four digits (T1059), a sub-technique adds a dot and three digits (T1059.001)`,
    );
  }

  readUrl(value: StringNode, key: string): void {
    for (const p of pieces(value)) {
      const id = techniqueOfUrl(p.text);
      if (id) this.technique({ ...p, text: id }, key);
    }
  }

  /** `mitre`: a free list; only tactics and technique IDs are read, a malformed ID is reported. */
  readMitreList(value: StringNode, key: string): void {
    for (const p of pieces(value)) {
      // Sigma's tag form: attack.t1059, attack.credential_access.
      const text = p.text.replace(/^att(?:a)?c?k\./i, '');
      const q = { ...p, text };
      const tactic = findTactic(text);
      if (tactic) this.tactic(q, key, tactic);
      else if (TECHNIQUE_ID.test(text)) this.technique(q, key);
      else if (/^T\d+(\.\d*)?$/i.test(text)) this.malformedTechnique(q);
      else if (/^TA\d+(\.\d*)?$/i.test(text))
        this.problem(
          q,
          'attack-tactic',
          TACTIC_ID.test(text)
            ? `${text} is not one of the 14 enterprise ATT&CK tactics (${TACTIC_LIST})`
            : `Malformed tactic ID '${text}': a tactic ID is TA and four digits, such as TA0006`,
        );
    }
  }
}

function span(p: Piece): { start: number; end: number } {
  return { start: p.start, end: p.end };
}

/** The ATT&CK tactics and techniques of a rule's meta:, and the malformed ones. */
export function readAttack(rule: RuleNode): RuleAttack {
  const reader = new Reader();
  let anchor: number | undefined;
  for (const item of rule.meta?.items ?? []) {
    const key = item.key.name.toLowerCase();
    if (!ATTACK_KEYS.has(key)) continue;
    const value = metaString(item);
    // A reference is an ATT&CK item only when it is a technique's page.
    if (key.startsWith('reference') && !(value && techniqueOfUrl(value.value))) continue;
    anchor ??= item.start;
    if (!value) continue;
    if (TACTIC_KEYS.has(key)) reader.readTactics(value, key);
    else if (TECHNIQUE_KEYS.has(key)) reader.readTechniques(value, key);
    else if (URL_KEYS.has(key)) reader.readUrl(value, key);
    else reader.readMitreList(value, key);
  }
  const techniques = [...reader.techniques.values()];
  // One name beside one ID (mitre_attack_technique with mitre_attack_url) is that technique's name.
  const named =
    techniques.length === 1 && reader.names.length === 1
      ? [{ ...techniques[0], name: reader.names[0].written }]
      : techniques;
  return {
    tactics: [...reader.tactics.values()],
    techniques: named,
    unidentified: techniques.length === 0 ? reader.names : [],
    problems: reader.problems,
    anchor: anchor ?? rule.meta?.keyword.start ?? rule.start,
  };
}
