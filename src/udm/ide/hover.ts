/** Hover: fields (type, proto message), functions (signature, example), keywords, enums, lists. */
import { type Hover, MarkupKind, type Range } from 'vscode-languageserver-types';
import { findConditional } from '../conditional';
import { findAggregate, findFunction, type AggregateDef, type FunctionDef } from '../functions';
import type { Analysis } from '../index';
import type { Token } from '../lexer';
import { knownFromEntries, type KnownReferenceList, type KnownReferenceLists } from '../reference-lists';
import { enumName, enumValues, resolvePath, rootFields } from '../schema';
import { describePlaceholder, dottedChainEndingAt, fieldBefore, tokenIndexBefore } from './analysis';
import { enumValueDescription } from '../field-docs';
import { fieldDoc, functionDoc, KEYWORD_DOCS, listDoc, paramDocs } from './docs';
import { isOneOf, LOGICAL_OPERATORS } from '../vocabulary';

export function hover(
  a: Analysis,
  position: { line: number; character: number },
  referenceLists: Record<string, string[]> | KnownReferenceLists = {},
): Hover | null {
  const offset = a.lines.offset(position);
  const { tokens } = a.parse;
  const i = tokenIndexBefore(tokens, offset + 1);
  if (i < 0) return null;
  const t = tokens[i];
  if (offset < t.start || offset > t.end) return null;
  const range = a.lines.range(t.start, t.end);
  switch (t.kind) {
    case 'ident':
      return identHover(a, i, range);
    case 'string': {
      const op = tokens[i - 1];
      if (op?.kind !== 'op') return null;
      const f = fieldBefore(a, i - 2);
      const en = f && enumName(f.type);
      return en ? enumHover(en, t.value, range) : null;
    }
    case 'variable':
      return markdown(`**$${t.value}** ${describePlaceholder(a, t.value)}`, range);
    case 'reflist':
      return markdown(listHover(t.value, referenceLists), range);
    case 'regex':
      return markdown(
        'Regular expression (RE2 syntax), matched anywhere in the value. Add `nocase` to ignore case.',
        range,
      );
    default:
      return null;
  }
}

function markdown(value: string, range: Range): Hover {
  return { contents: { kind: MarkupKind.Markdown, value }, range };
}

/** An identifier: a function or aggregate called, a keyword, an enum value or a field path. */
function identHover(a: Analysis, i: number, range: Range): Hover | null {
  const { tokens } = a.parse;
  const t = tokens[i];
  // The dotted chain around this identifier.
  const segs = dottedChainEndingAt(tokens, i);
  const lower = t.value.toLowerCase();
  let k = i + 1;
  const after: Token[] = [];
  while (
    k + 1 < tokens.length &&
    tokens[k].kind === 'dot' &&
    tokens[k + 1].kind === 'ident' &&
    tokens[k].start === tokens[k - 1].end
  ) {
    after.push(tokens[k + 1]);
    k += 2;
  }
  const fullName = [...segs, ...after].map((s) => s.value).join('.');
  if (tokens[k]?.kind === 'lparen' && tokens[k].start === tokens[k - 1].end) {
    const fn: FunctionDef | AggregateDef | undefined =
      findFunction(fullName) ?? findAggregate(fullName) ?? findConditional(fullName);
    return fn ? markdown(`${functionDoc(fn)}${paramDocs(fn)}`, a.lines.range(segs[0].start, tokens[k - 1].end)) : null;
  }
  if (segs.length === 1 && after.length === 0) {
    const doc = KEYWORD_DOCS[t.value.toUpperCase()] ?? KEYWORD_DOCS[lower];
    if (doc && (isOneOf(LOGICAL_OPERATORS, lower) || tokens[i + 1]?.kind === 'colon' || !rootFields().has(lower))) {
      return markdown(`**${tokens[i + 1]?.kind === 'colon' ? `${lower}:` : t.value}** — ${doc}`, range);
    }
    const prevTok = tokens[i - 1];
    if (prevTok?.kind === 'op') {
      const f = fieldBefore(a, i - 2);
      const en = f && enumName(f.type);
      if (en) return enumHover(en, t.value, range);
    }
  }
  const path = segs.map((s) => s.value);
  const cleaned = path.length > 1 && path[0] === 'udm' ? path.slice(1) : path;
  const r = resolvePath(cleaned);
  if (r.errorIndex >= 0 && r.errorIndex < cleaned.length) return null;
  const f = r.fields[r.fields.length - 1];
  if (!f) return r.freeForm ? markdown(`\`${cleaned.join('.')}\` — free-form key of a Struct`, range) : null;
  return markdown(`**${cleaned.join('.')}**\n\n${fieldDoc(f)}`, a.lines.range(segs[0].start, t.end));
}

function listHover(name: string, referenceLists: Record<string, string[]> | NonNullable<KnownReferenceLists>): string {
  let known: KnownReferenceList | undefined;
  const isMap = isListMap(referenceLists);
  if (isListMap(referenceLists)) known = referenceLists.get(name);
  else if (Object.prototype.hasOwnProperty.call(referenceLists, name)) {
    const entries: string[] = referenceLists[name];
    known = knownFromEntries({ [name]: entries }).get(name);
  }
  if (known) return listDoc(known);
  return isMap ? `**%${name}**: no reference list of this name is known` : `**%${name}**: reference list`;
}

function enumHover(en: string, value: string, range: Range): Hover {
  const hit = enumValues(en).find(([n]) => n === value);
  const meaning = hit && enumValueDescription(en, hit[0]);
  return markdown(
    hit ? `\`${en}.${hit[0]}\` = ${hit[1]}${meaning ? `\n\n${meaning}` : ''}` : `Not a value of \`${en}\``,
    range,
  );
}

function isListMap(x: unknown): x is ReadonlyMap<string, KnownReferenceList> {
  return x instanceof Map;
}
