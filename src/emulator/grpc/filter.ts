// The list filter syntax of AIP-160, as far as the model registry documents it: comparisons with `=`,
// `!=` and `:` (has), `labels.key=value`, `labels.key:*`, `labels:key`, quoted keys and values,
// AND / OR / NOT, parentheses, and implicit AND between adjacent terms. Anything else is refused with
// INVALID_ARGUMENT naming the position, as the real service refuses filters it cannot evaluate.
import { invalidArgument } from './errors';

export type FieldValue = { kind: 'scalar'; value: string } | { kind: 'map'; map: Record<string, string> };

/** Resolves a dotted field path on an item; undefined means the field is not filterable. */
export type FieldResolver<T> = (item: T, path: string[]) => FieldValue | undefined;

type Token =
  | { t: 'word'; v: string; pos: number }
  | { t: 'string'; v: string; pos: number }
  | { t: 'op'; v: '=' | '!=' | ':' | '<' | '>' | '<=' | '>='; pos: number }
  | { t: '(' | ')' | '.'; pos: number }
  | { t: 'end'; pos: number };

function fail(filter: string, pos: number, problem: string): never {
  throw invalidArgument(`Invalid filter "${filter}" at position ${pos + 1}: ${problem}.`, [
    { field: 'filter', description: problem },
  ]);
}

function tokenize(filter: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < filter.length) {
    const c = filter[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === '.') {
      tokens.push({ t: c, pos: i });
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let v = '';
      while (j < filter.length && filter[j] !== c) {
        if (filter[j] === '\\' && j + 1 < filter.length) j++;
        v += filter[j];
        j++;
      }
      if (j >= filter.length) fail(filter, i, 'unterminated quoted string');
      tokens.push({ t: 'string', v, pos: i });
      i = j + 1;
      continue;
    }
    const two = filter.slice(i, i + 2);
    if (two === '!=' || two === '<=' || two === '>=') {
      tokens.push({ t: 'op', v: two, pos: i });
      i += 2;
      continue;
    }
    if (c === '=' || c === ':' || c === '<' || c === '>') {
      tokens.push({ t: 'op', v: c, pos: i });
      i++;
      continue;
    }
    const m = /^[A-Za-z0-9_*\-+@/]+/.exec(filter.slice(i));
    if (!m) fail(filter, i, `unexpected character "${c}"`);
    tokens.push({ t: 'word', v: m[0], pos: i });
    i += m[0].length;
  }
  tokens.push({ t: 'end', pos: filter.length });
  return tokens;
}

type Node<T> = (item: T) => boolean;

/** Compiles a filter into a predicate; an empty filter matches everything. */
export function compileFilter<T>(
  filter: string | null | undefined,
  resolve: FieldResolver<T>,
  known: (path: string[]) => boolean,
): Node<T> {
  const text = (filter ?? '').trim();
  if (text === '') return () => true;
  const tokens = tokenize(text);
  let k = 0;
  const peek = (): Token => tokens[k];
  const isWord = (tok: Token, word: string): boolean => tok.t === 'word' && tok.v === word;

  const conjunction = (): Node<T> => {
    const parts = [disjunction()];
    for (;;) {
      const tok = peek();
      if (isWord(tok, 'AND')) {
        k++;
        parts.push(disjunction());
        continue;
      }
      // Adjacent terms are an implicit AND (AIP-160).
      if (tok.t === 'word' || tok.t === 'string' || tok.t === '(') {
        if (isWord(tok, 'OR')) fail(text, tok.pos, 'OR without a left-hand term');
        parts.push(disjunction());
        continue;
      }
      break;
    }
    return (item) => parts.every((p) => p(item));
  };

  const disjunction = (): Node<T> => {
    const parts = [unary()];
    while (isWord(peek(), 'OR')) {
      k++;
      parts.push(unary());
    }
    return (item) => parts.some((p) => p(item));
  };

  const unary = (): Node<T> => {
    const tok = peek();
    if (isWord(tok, 'NOT')) {
      k++;
      const inner = unary();
      return (item) => !inner(item);
    }
    if (tok.t === 'word' && tok.v === '-') {
      k++;
      const inner = unary();
      return (item) => !inner(item);
    }
    if (tok.t === '(') {
      k++;
      const inner = conjunction();
      if (peek().t !== ')') fail(text, peek().pos, 'missing ")"');
      k++;
      return inner;
    }
    return restriction();
  };

  const restriction = (): Node<T> => {
    const start = peek();
    const path: string[] = [];
    for (;;) {
      const tok = peek();
      if (tok.t === 'word' || tok.t === 'string') {
        if (tok.t === 'word' && ['AND', 'OR', 'NOT'].includes(tok.v)) fail(text, tok.pos, `unexpected ${tok.v}`);
        path.push(tok.v);
        k++;
      } else {
        fail(
          text,
          tok.pos,
          tok.t === 'end' ? 'the filter ends where a field name was expected' : 'a field name was expected',
        );
      }
      if (peek().t === '.') {
        k++;
        continue;
      }
      break;
    }
    if (!known(path)) fail(text, start.pos, `"${path.join('.')}" is not a field that can be filtered on`);
    const opTok = peek();
    if (opTok.t !== 'op')
      fail(text, opTok.pos, `a comparison operator (=, !=, :) was expected after "${path.join('.')}"`);
    k++;
    if (opTok.v !== '=' && opTok.v !== '!=' && opTok.v !== ':')
      fail(text, opTok.pos, `operator ${opTok.v} is not supported here`);
    const argTok = peek();
    if (argTok.t !== 'word' && argTok.t !== 'string') fail(text, argTok.pos, 'a value was expected');
    k++;
    return comparison(text, resolve, path, start.pos, opTok, argTok);
  };

  const predicate = conjunction();
  if (peek().t !== 'end') fail(text, peek().pos, 'unexpected text after the end of the expression');
  return predicate;
}

/** The predicate of one restriction `path op arg`; a path that resolves to no field fails when matched. */
function comparison<T>(
  text: string,
  resolve: FieldResolver<T>,
  path: string[],
  at: number,
  opTok: Extract<Token, { t: 'op' }>,
  argTok: Extract<Token, { t: 'word' | 'string' }>,
): Node<T> {
  const arg = argTok.v;
  const isAny = argTok.t === 'word' && arg === '*';
  const op = opTok.v;
  return (item) => {
    const field = resolve(item, path);
    if (field === undefined) fail(text, at, `"${path.join('.')}" is not a field that can be filtered on`);
    if (field.kind === 'map') {
      // labels:key — key existence.
      if (op !== ':')
        fail(text, opTok.pos, `"${path.join('.')}" is a map: use ${path.join('.')}.KEY=VALUE or ${path.join('.')}:KEY`);
      return Object.prototype.hasOwnProperty.call(field.map, arg);
    }
    if (op === ':') return isAny ? field.value !== '' : field.value === arg;
    if (isAny) fail(text, argTok.pos, '"*" is only allowed with ":"');
    return op === '=' ? field.value === arg : field.value !== arg;
  };
}

/** A resolver for `labels.KEY` and `labels` over a label map; undefined for other paths. */
export function labelField(labels: Record<string, string>, path: string[]): FieldValue | undefined {
  if (path[0] !== 'labels') return undefined;
  if (path.length === 1) return { kind: 'map', map: labels };
  if (path.length === 2) return { kind: 'scalar', value: labels[path[1]] ?? '' };
  return undefined;
}
