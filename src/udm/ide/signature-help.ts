/** Signature help while typing the arguments of a function or aggregate call. */
import type { SignatureHelp } from 'vscode-languageserver-types';
import { findConditional } from '../conditional';
import { findAggregate, findFunction, signatureLabel, type AggregateDef, type FunctionDef } from '../functions';
import type { Analysis } from '../index';
import { isWord, tokenIndexBefore } from './analysis';

export function signatureHelp(a: Analysis, position: { line: number; character: number }): SignatureHelp | null {
  const offset = a.lines.offset(position);
  const { tokens } = a.parse;
  let i = tokenIndexBefore(tokens, offset);
  let depth = 0;
  let commas = 0;
  // a comparison or AND/OR between the cursor and the '(': only if(condition, ...) has one
  let sawCondition = false;
  // Walk back to the unmatched '(' that opens the call around the cursor (bounded).
  for (let steps = 0; i >= 0 && steps < 2000; i--, steps++) {
    const t = tokens[i];
    if (t.kind === 'rparen' && t.end <= offset) depth++;
    else if (t.kind === 'lparen') {
      if (depth === 0) break;
      depth--;
    } else if (t.kind === 'comma' && depth === 0) commas++;
    else if (depth === 0 && (t.kind === 'op' || isWord(t, 'and') || isWord(t, 'or'))) sawCondition = true;
  }
  if (i < 1) return null;
  const parts: string[] = [];
  let j = i - 1;
  if (tokens[j].kind !== 'ident' || tokens[j].end !== tokens[i].start) return null;
  parts.unshift(tokens[j].value);
  while (j >= 2 && tokens[j - 1].kind === 'dot' && tokens[j - 2].kind === 'ident') {
    parts.unshift(tokens[j - 2].value);
    j -= 2;
  }
  const name = parts.join('.');
  if (sawCondition && !findConditional(name)) return null;
  const fn: FunctionDef | AggregateDef | undefined = findFunction(name) ?? findAggregate(name) ?? findConditional(name);
  if (!fn) return null;
  const params = fn.params.map((p) => ({
    label: `${p.name}${p.optional ? '?' : ''}: ${p.type}`,
    documentation: p.doc,
  }));
  const variadic = 'variadic' in fn && fn.variadic;
  return {
    signatures: [{ label: signatureLabel(fn), documentation: fn.doc, parameters: params }],
    activeSignature: 0,
    activeParameter: variadic ? Math.min(commas, params.length - 1) : commas,
  };
}
