/** Tokens of the UDM search language. Offsets are UTF-16 code unit offsets into the text. */
export type TokenKind =
  | 'ident' // letters, digits, `_`; keywords are classified by the parser (they are contextual)
  | 'number'
  | 'string' // "..." or `...`
  | 'regex' // /.../
  | 'variable' // $name
  | 'reflist' // %name
  | 'op' // = != > >= < <=
  | 'lparen'
  | 'rparen'
  | 'lbracket'
  | 'rbracket'
  | 'comma'
  | 'dot'
  | 'colon'
  | 'minus'
  | 'arith' // + * / % between values (`-` is 'minus')
  | 'bytes' // b'...' (value: the text between the quotes)
  | 'comment'
  | 'invalid'
  | 'eof';

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** Raw text for most tokens; decoded content for strings and regexes (without delimiters). */
  value: string;
  /** Set when the token is malformed (unterminated string, bad escape...). */
  error?: string;
  /** true when a newline separates this token from the previous significant one */
  newlineBefore?: boolean;
}

const C_TAB = 9;
const C_LF = 10;
const C_CR = 13;
const C_SPACE = 32;

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Every token is built here with all fields present, so they share one hidden class. */
function mk(kind: TokenKind, start: number, end: number, value: string): Token {
  return { kind, start, end, value, error: undefined, newlineBefore: false };
}

export interface LexResult {
  tokens: Token[];
  comments: Token[];
}

/**
 * Splits text into tokens. Never throws: malformed input becomes tokens carrying an `error`.
 * A `/` starts a regex literal unless it directly follows a value (there is no division in
 * search filters, so that case is reported by the parser as an unexpected token).
 */
export function lex(text: string): LexResult {
  const tokens: Token[] = [];
  const comments: Token[] = [];
  const n = text.length;
  let i = 0;
  let newline = false;
  const push = (t: Token): void => {
    // Always set, so every token has the same shape (keeps property access monomorphic).
    t.newlineBefore = newline;
    newline = false;
    tokens.push(t);
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === C_SPACE || c === C_TAB || c === C_CR || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff) {
      i++;
      continue;
    }
    if (c === C_LF) {
      newline = true;
      i++;
      continue;
    }
    const start = i;
    if ((c === 98 || c === 66) && text.charCodeAt(i + 1) === 39) {
      // b'...': a bytes literal (hex or text), used as a function argument
      const t = lexStringToken(text, i + 1, 39);
      t.kind = 'bytes';
      t.start = start;
      t.value = text.slice(start + 2, t.error ? t.end : t.end - 1);
      if (t.error) t.error = "Unterminated bytes literal: add the closing '";
      push(t);
      i = t.end;
      continue;
    }
    if (isIdentStart(c)) {
      i++;
      while (i < n && isIdentPart(text.charCodeAt(i))) i++;
      push(mk('ident', start, i, text.slice(start, i)));
      continue;
    }
    if (isDigit(c)) {
      i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      if (i + 1 < n && text.charCodeAt(i) === 46 && isDigit(text.charCodeAt(i + 1))) {
        i++;
        while (i < n && isDigit(text.charCodeAt(i))) i++;
      }
      // Digits glued to letters (e.g. 10abc) form one bad token rather than two surprising ones.
      if (i < n && isIdentStart(text.charCodeAt(i))) {
        while (i < n && isIdentPart(text.charCodeAt(i))) i++;
        push({
          kind: 'invalid',
          start,
          end: i,
          value: text.slice(start, i),
          error: `Invalid number '${text.slice(start, i)}'`,
        });
        continue;
      }
      push(mk('number', start, i, text.slice(start, i)));
      continue;
    }
    switch (c) {
      case 34 /* " */:
      case 96 /* ` */: {
        const t = lexStringToken(text, i, c);
        push(t);
        i = t.end;
        continue;
      }
      case 39 /* ' */: {
        const t = lexStringToken(text, i, 39);
        t.error = t.error ?? 'Strings are written in double quotes';
        push(t);
        i = t.end;
        continue;
      }
      case 47 /* / */: {
        const next = text.charCodeAt(i + 1);
        if (next === 47) {
          let j = i + 2;
          while (j < n && text.charCodeAt(j) !== C_LF) j++;
          comments.push(mk('comment', start, j, text.slice(start, j)));
          i = j;
          continue;
        }
        if (next === 42) {
          const close = text.indexOf('*/', i + 2);
          const end = close < 0 ? n : close + 2;
          const tok: Token = { kind: 'comment', start, end, value: text.slice(start, end) };
          if (close < 0) tok.error = 'Unterminated block comment: add */';
          comments.push(tok);
          if (text.slice(start, end).includes('\n')) newline = true;
          i = end;
          continue;
        }
        // After a value on the same line, `/` divides; elsewhere it starts a regular expression.
        const prevTok = tokens[tokens.length - 1];
        if (
          !newline &&
          afterValue(prevTok) &&
          // after a name, `/x/` is still a regex: division wants a space, a number, `(` or `$` after it
          (prevTok.kind !== 'ident' ||
            next === C_SPACE ||
            next === C_TAB ||
            next === 40 ||
            next === 36 ||
            isDigit(next))
        ) {
          push(mk('arith', start, i + 1, '/'));
          i++;
          continue;
        }
        const t = lexRegex(text, i);
        push(t);
        i = t.end;
        continue;
      }
      case 36 /* $ */:
      case 37 /* % */: {
        if (c === 37 && !isIdentPart(text.charCodeAt(i + 1)) && !newline && afterValue(tokens[tokens.length - 1])) {
          // `a % b`: the remainder operator (a reference list name follows `%` directly)
          push(mk('arith', start, i + 1, '%'));
          i++;
          continue;
        }
        let j = i + 1;
        while (j < n && isIdentPart(text.charCodeAt(j))) j++;
        const kind: TokenKind = c === 36 ? 'variable' : 'reflist';
        const t = mk(kind, start, j, text.slice(i + 1, j));
        if (j === i + 1)
          t.error = c === 36 ? "Expected a placeholder name after '$'" : "Expected a reference list name after '%'";
        push(t);
        i = j;
        continue;
      }
      case 61 /* = */:
        // `==` is a common slip; accept it as one token so the parser can say so precisely.
        if (text.charCodeAt(i + 1) === 61) {
          push({ kind: 'op', start, end: i + 2, value: '=', error: "Use '=' to compare, not '=='" });
          i += 2;
        } else {
          push(mk('op', start, i + 1, '='));
          i++;
        }
        continue;
      case 33 /* ! */:
        if (text.charCodeAt(i + 1) === 61) {
          push(mk('op', start, i + 2, '!='));
          i += 2;
        } else {
          push({ kind: 'invalid', start, end: i + 1, value: '!', error: "Unexpected '!': use NOT or '!='" });
          i++;
        }
        continue;
      case 60 /* < */:
      case 62 /* > */: {
        const op = text.charCodeAt(i + 1) === 61 ? text.slice(i, i + 2) : text[i];
        push(mk('op', start, i + op.length, op));
        i += op.length;
        continue;
      }
      case 40:
        push(mk('lparen', start, i + 1, '('));
        i++;
        continue;
      case 41:
        push(mk('rparen', start, i + 1, ')'));
        i++;
        continue;
      case 91:
        push(mk('lbracket', start, i + 1, '['));
        i++;
        continue;
      case 93:
        push(mk('rbracket', start, i + 1, ']'));
        i++;
        continue;
      case 44:
        push(mk('comma', start, i + 1, ','));
        i++;
        continue;
      case 46:
        push(mk('dot', start, i + 1, '.'));
        i++;
        continue;
      case 58:
        push(mk('colon', start, i + 1, ':'));
        i++;
        continue;
      case 45:
        push(mk('minus', start, i + 1, '-'));
        i++;
        continue;
      case 43 /* + */:
      case 42 /* * */:
        push(mk('arith', start, i + 1, text[i]));
        i++;
        continue;
      default: {
        // Consume a whole run of unexpected characters (surrogate pairs included) as one token.
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d <= 32 || isIdentPart(d) || '"`\'/$%=!<>()[],.:-+*'.includes(text[j])) break;
          j++;
        }
        push({
          kind: 'invalid',
          start,
          end: j,
          value: text.slice(start, j),
          error: `Unexpected character '${text.slice(start, j)}'`,
        });
        i = j;
      }
    }
  }
  const eof = mk('eof', n, n, '');
  eof.newlineBefore = newline;
  tokens.push(eof);
  return { tokens, comments };
}

/** True when a token ends a value, so a following `/` divides. */
function afterValue(prev: Token | undefined): boolean {
  if (!prev) return false;
  switch (prev.kind) {
    case 'number':
    case 'rparen':
    case 'rbracket':
    case 'variable':
      return true;
    case 'ident': {
      const w = prev.value.toLowerCase();
      // `in cidr %` / `in regex %`: a reference list is being written, not a remainder
      return w !== 'and' && w !== 'or' && w !== 'not' && w !== 'in' && w !== 'regex' && w !== 'cidr';
    }
    default:
      return false;
  }
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '`': '`',
  '/': '/',
};

function lexStringToken(text: string, start: number, quote: number): Token {
  const n = text.length;
  let i = start + 1;
  let value = '';
  let chunk = i;
  const raw = quote === 96;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      value += text.slice(chunk, i);
      return mk('string', start, i + 1, value);
    }
    if (c === C_LF && !raw) break;
    if (c === 92 /* \ */ && !raw) {
      value += text.slice(chunk, i);
      const e = text[i + 1];
      if (e !== undefined && ESCAPES[e] !== undefined) {
        value += ESCAPES[e];
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 4;
      } else if (e !== undefined && e !== '\n') {
        // Keep unknown escapes verbatim: `"\d"` in a re.regex() pattern means what the author meant.
        value += `\\${e}`;
      }
      i += 2;
      chunk = i;
      continue;
    }
    i++;
  }
  value += text.slice(chunk, i);
  const t = mk('string', start, i, value);
  t.error = 'Unterminated string: add the closing quote';
  return t;
}

function lexRegex(text: string, start: number): Token {
  const n = text.length;
  let i = start + 1;
  let inClass = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === C_LF) break;
    if (c === 92) {
      i += 2;
      continue;
    }
    if (c === 91) inClass = true;
    else if (c === 93) inClass = false;
    else if (c === 47 && !inClass) {
      return mk('regex', start, i + 1, text.slice(start + 1, i).replace(/\\\//g, '/'));
    }
    i++;
  }
  const end = Math.min(i, n);
  const t = mk('regex', start, end, text.slice(start + 1, end));
  t.error = "Unterminated regular expression: add the closing '/'";
  return t;
}
