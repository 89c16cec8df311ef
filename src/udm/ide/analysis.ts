/**
 * What the editor features share about a position in an analysed document: the token before the
 * cursor, the section and comment around it, the dotted path being typed, the field a value is
 * compared with, and the placeholders and outcome variables the query defines.
 */
import type { OutcomeItem, Section } from '../ast';
import { fieldPathOf } from '../check';
import type { Analysis } from '../index';
import type { Token } from '../lexer';
import { resolvePath, valueKind } from '../schema';
import { isOneOf, NON_FIELD_WORDS } from '../vocabulary';

/** Index of the last token that starts before `offset` (eof excluded), or -1. */
export function tokenIndexBefore(tokens: Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length - 2; // skip eof
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].start < offset) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

export function inComment(a: Analysis, offset: number): boolean {
  for (const c of a.parse.comments) {
    if (
      offset > c.start &&
      (offset < c.end || (offset === c.end && c.value.startsWith('//')) || (offset === c.end && c.error))
    )
      return true;
    if (c.start >= offset) break;
  }
  return false;
}

export function sectionAt(a: Analysis, offset: number): Section | undefined {
  let found: Section | undefined;
  for (const s of a.parse.query.sections) if (s.keyword.start < offset) found = s;
  return found;
}

export const isWord = (t: Token | undefined, w: string): boolean =>
  !!t && t.kind === 'ident' && t.value.toLowerCase() === w;

export interface PathAtCursor {
  /** segments before the one being typed */
  prefix: string[];
  /** partially typed segment */
  partial: string;
  /** replace range start offset for the partial segment */
  replaceStart: number;
  /** index of the first token of the path */
  firstToken: number;
}

/** The dotted path that ends at the cursor, if the cursor is typing one. */
export function pathAtCursor(a: Analysis, offset: number): PathAtCursor | undefined {
  const { tokens } = a.parse;
  let i = tokenIndexBefore(tokens, offset);
  if (i < 0) return undefined;
  let t = tokens[i];
  let partial = '';
  let replaceStart = offset;
  if (t.kind === 'ident' && t.end >= offset) {
    partial = a.text.slice(t.start, offset);
    replaceStart = t.start;
    i--;
  } else if (t.kind === 'dot' && t.end === offset) {
    // `metadata.|`
  } else return undefined;
  const prefix: string[] = [];
  let first = i + 1;
  while (i >= 0) {
    t = tokens[i]!;
    const nextStart = i + 1 < tokens.length ? tokens[i + 1].start : offset;
    if (t.kind !== 'dot' || t.end !== (prefix.length === 0 && partial === '' ? offset : nextStart)) break;
    const id = tokens[i - 1];
    if (!id || id.kind !== 'ident' || id.end !== t.start) break;
    prefix.unshift(id.value);
    first = i - 1;
    i -= 2;
  }
  if (prefix.length === 0 && partial === '') return undefined;
  return { prefix, partial, replaceStart, firstToken: first };
}

export function placeholderNames(a: Analysis): string[] {
  return [...a.check.placeholders.keys()];
}

export function outcomeItems(a: Analysis): OutcomeItem[] {
  return a.parse.query.sections.flatMap((s) => (s.kind === 'outcome' ? s.outcomes : []));
}

export function outcomeNames(a: Analysis): string[] {
  return outcomeItems(a).map((o) => o.variable.name);
}

/** The identifiers of the dotted chain (`a.b.c`, no spaces) that ends with the identifier at token index `i`. */
export function dottedChainEndingAt(tokens: readonly Token[], i: number): Token[] {
  const segs: Token[] = [tokens[i]];
  let j = i - 1;
  while (
    j >= 1 &&
    tokens[j].kind === 'dot' &&
    tokens[j - 1].kind === 'ident' &&
    tokens[j - 1].end === tokens[j].start &&
    tokens[j].end === tokens[j + 1].start
  ) {
    segs.unshift(tokens[j - 1]);
    j -= 2;
  }
  return segs;
}

/** Facts about the field (or placeholder) that ends at token index `i`, if any. */
export function fieldBefore(a: Analysis, i: number): { kind: string; type: string; repeated: boolean } | undefined {
  const { tokens } = a.parse;
  const t = tokens[i];
  if (!t) return undefined;
  if (t.kind === 'variable') {
    const def = a.check.placeholders.get(t.value);
    if (def?.value.type === 'field') {
      const f = a.check.facts.get(def.value);
      if (f) return { kind: f.kind, type: f.type, repeated: f.repeated };
    }
    return { kind: 'unknown', type: 'unknown', repeated: false };
  }
  if (t.kind === 'rbracket') return { kind: 'string', type: 'string', repeated: false };
  if (t.kind !== 'ident') return undefined;
  const segs = dottedChainEndingAt(tokens, i).map((s) => s.value);
  if (segs.length === 1 && isOneOf(NON_FIELD_WORDS, t.value)) return undefined;
  const path = segs.length > 1 && segs[0] === 'udm' ? segs.slice(1) : segs;
  const r = resolvePath(path);
  if (r.errorIndex >= 0) return undefined;
  const last = r.fields[r.fields.length - 1];
  if (!last) return undefined;
  return {
    kind: r.freeForm ? 'unknown' : valueKind(last.type),
    type: r.freeForm ? 'unknown' : last.type,
    repeated: r.fields.some((f) => f.repeated),
  };
}

export function describePlaceholder(a: Analysis, name: string): string {
  const def = a.check.placeholders.get(name);
  if (def?.value.type === 'field') return `= ${fieldPathOf(def.value).join('.')}`;
  if (def?.value.type === 'call') return `= ${def.value.name}(…)`;
  const out = outcomeItems(a).find((o) => o.variable.name === name);
  if (out?.value?.type === 'call') return `outcome = ${out.value.name}(…)`;
  return 'placeholder';
}
