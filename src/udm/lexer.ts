import { isOneOf, VALUE_LEADING_WORDS } from './vocabulary';

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
  | 'duration' // a number glued to a time unit: `1h`, `5m`, `30d` (match: windows, metrics arguments)
  | 'comment'
  | 'lbrace' // { and } frame a YARA-L rule (rule files only)
  | 'rbrace'
  | 'count' // #e: the number of events or values of a variable (rule files only; value: the name)
  | 'bang' // ! before $e: the event is absent (rule files only)
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

/**
 * Time units a duration is written with (case-insensitive): `by 1h`, `by 5m`, `over every 2 days`.
 * A number glued to one of these is one `duration` token; glued to other letters (`10abc`) it is
 * an invalid number.
 */
export const TIME_UNITS: Readonly<Record<string, 'minute' | 'hour' | 'day' | 'week' | 'month'>> = {
  m: 'minute',
  min: 'minute',
  minute: 'minute',
  minutes: 'minute',
  h: 'hour',
  hour: 'hour',
  hours: 'hour',
  d: 'day',
  day: 'day',
  days: 'day',
  w: 'week',
  week: 'week',
  weeks: 'week',
  mo: 'month',
  month: 'month',
  months: 'month',
};

/** Every token is built here with all fields present, so they share one hidden class. */
function mk(kind: TokenKind, start: number, end: number, value: string): Token {
  return { kind, start, end, value, error: undefined, newlineBefore: false };
}

export interface LexResult {
  tokens: Token[];
  comments: Token[];
}

/**
 * Short values (identifiers up to 40 characters, numbers and strings up to 12), by a hash of
 * their characters: a document repeats the same few names (`metadata`, `principal`,
 * `security_result`...), and each token then shares one string instead of copying its own; the
 * schema lookups that follow find its hash already computed.
 */
const WORDS: string[] = new Array<string>(1024).fill('');
const SHORT_WORD = 12;
const MAX_SHARED_NAME = 40;

function word(text: string, start: number, end: number, max = SHORT_WORD): string {
  const len = end - start;
  if (len > max || len === 0) return text.slice(start, end);
  let h = len;
  for (let k = start; k < end; k++) h = (Math.imul(h, 31) + text.charCodeAt(k)) | 0;
  const slot = (h ^ (h >>> 11)) & 1023;
  const w = WORDS[slot];
  if (w.length === len) {
    let k = 0;
    while (k < len && w.charCodeAt(k) === text.charCodeAt(start + k)) k++;
    if (k === len) return w;
  }
  // From 13 characters on, V8 slices share the document's characters; the table keeps a copy
  // of its own (flattening a concatenation copies), so it never keeps a document alive.
  const s = len > SHORT_WORD ? ` ${text.slice(start, end)}`.slice(1) : text.slice(start, end);
  WORDS[slot] = s;
  return s;
}

/**
 * Splits text into tokens. Never throws: malformed input becomes tokens carrying an `error`.
 * A `/` starts a regex literal unless it directly follows a value (there is no division in
 * search filters, so that case is reported by the parser as an unexpected token).
 */
export function lex(text: string, options?: { rule?: boolean }): LexResult {
  const rule = options?.rule === true;
  const tokens: Token[] = [];
  const comments: Token[] = [];
  const n = text.length;
  let i = 0;
  let newline = false;
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
    if (c === 47 /* / */) {
      const next = text.charCodeAt(i + 1);
      if (next === 47) {
        let j = i + 2;
        while (j < n && text.charCodeAt(j) !== C_LF) j++;
        comments.push(mk('comment', i, j, text.slice(i, j)));
        i = j;
        continue;
      }
      if (next === 42) {
        const close = text.indexOf('*/', i + 2);
        const end = close < 0 ? n : close + 2;
        const tok = mk('comment', i, end, text.slice(i, end));
        if (close < 0) tok.error = 'Unterminated block comment: add */';
        comments.push(tok);
        if (tok.value.includes('\n')) newline = true;
        i = end;
        continue;
      }
    }
    const t =
      (rule && scanRuleToken(text, i, c)) || scanToken(text, i, c, newline ? undefined : tokens[tokens.length - 1]);
    // Always set, so every token has the same shape (keeps property access monomorphic).
    t.newlineBefore = newline;
    newline = false;
    tokens.push(t);
    i = t.end;
  }
  const eof = mk('eof', n, n, '');
  eof.newlineBefore = newline;
  tokens.push(eof);
  return { tokens, comments };
}

/** The tokens only YARA-L rule files have: braces, `#e` counts and `!` before `$e`. */
function scanRuleToken(text: string, i: number, c: number): Token | undefined {
  if (c === 123) return mk('lbrace', i, i + 1, '{');
  if (c === 125) return mk('rbrace', i, i + 1, '}');
  if (c === 33 /* ! */ && text.charCodeAt(i + 1) !== 61) return mk('bang', i, i + 1, '!');
  if (c === 35 /* # */) {
    let j = i + 1;
    while (j < text.length && isIdentPart(text.charCodeAt(j))) j++;
    const t = mk('count', i, j, text.slice(i + 1, j));
    if (j === i + 1) t.error = "Expected an event or placeholder name after '#', as in #e > 5";
    return t;
  }
  return undefined;
}

/** The kind of each character that is a token by itself, by character code. */
const SINGLE_CHAR_TOKENS = new Array<TokenKind | undefined>(128).fill(undefined);
for (const [ch, kind] of [
  ['(', 'lparen'],
  [')', 'rparen'],
  ['[', 'lbracket'],
  [']', 'rbracket'],
  [',', 'comma'],
  ['.', 'dot'],
  [':', 'colon'],
  ['-', 'minus'],
  ['+', 'arith'],
  ['*', 'arith'],
] as const)
  SINGLE_CHAR_TOKENS[ch.charCodeAt(0)] = kind;

/**
 * The token starting at `start` (not whitespace, not a comment). `prev` is the token before it
 * on the same line, if any: it decides whether `/` and `%` divide or start a regex / list name.
 * A function of its own (rather than the body of lex's loop) so that it is optimized early, as
 * an ordinary call, in the first document already.
 */
function scanToken(text: string, start: number, c: number, prev: Token | undefined): Token {
  const n = text.length;
  let i = start;
  if ((c === 98 || c === 66) && text.charCodeAt(i + 1) === 39) {
    // b'...': a bytes literal (hex or text), used as a function argument
    const t = lexStringToken(text, i + 1, 39);
    t.kind = 'bytes';
    t.start = start;
    t.value = text.slice(start + 2, t.error ? t.end : t.end - 1);
    if (t.error) t.error = "Unterminated bytes literal: add the closing '";
    return t;
  }
  if (isIdentStart(c)) {
    i++;
    while (i < n && isIdentPart(text.charCodeAt(i))) i++;
    return mk('ident', start, i, word(text, start, i, MAX_SHARED_NAME));
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
      const digitsEnd = i;
      while (i < n && isIdentPart(text.charCodeAt(i))) i++;
      if (Object.hasOwn(TIME_UNITS, text.slice(digitsEnd, i).toLowerCase()))
        return mk('duration', start, i, text.slice(start, i));
      const bad = mk('invalid', start, i, text.slice(start, i));
      bad.error = `Invalid number '${bad.value}'`;
      return bad;
    }
    return mk('number', start, i, word(text, start, i));
  }
  switch (c) {
    case 34 /* " */:
    case 96 /* ` */:
      return lexStringToken(text, i, c);
    case 39 /* ' */: {
      const t = lexStringToken(text, i, 39);
      t.error = t.error ?? 'Strings are written in double quotes';
      return t;
    }
    case 47 /* / */: {
      // After a value on the same line, `/` divides; elsewhere it starts a regular expression.
      const next = text.charCodeAt(i + 1);
      if (
        afterValue(prev) &&
        // after a name, `/x/` is still a regex: division wants a space, a number, `(` or `$` after it
        (prev!.kind !== 'ident' || next === C_SPACE || next === C_TAB || next === 40 || next === 36 || isDigit(next))
      ) {
        return mk('arith', start, i + 1, '/');
      }
      return lexRegex(text, i);
    }
    case 36 /* $ */:
    case 37 /* % */: {
      if (c === 37 && !isIdentPart(text.charCodeAt(i + 1)) && afterValue(prev)) {
        // `a % b`: the remainder operator (a reference list name follows `%` directly)
        return mk('arith', start, i + 1, '%');
      }
      let j = i + 1;
      while (j < n && isIdentPart(text.charCodeAt(j))) j++;
      const kind: TokenKind = c === 36 ? 'variable' : 'reflist';
      const t = mk(kind, start, j, text.slice(i + 1, j));
      if (j === i + 1)
        t.error = c === 36 ? "Expected a placeholder name after '$'" : "Expected a reference list name after '%'";
      return t;
    }
    case 61 /* = */: {
      // `==` is a common slip; accept it as one token so the parser can say so precisely.
      if (text.charCodeAt(i + 1) === 61) {
        const t = mk('op', start, i + 2, '=');
        t.error = "Use '=' to compare, not '=='";
        return t;
      }
      return mk('op', start, i + 1, '=');
    }
    case 33 /* ! */: {
      if (text.charCodeAt(i + 1) === 61) return mk('op', start, i + 2, '!=');
      const t = mk('invalid', start, i + 1, '!');
      t.error = "Unexpected '!': use NOT or '!='";
      return t;
    }
    case 60 /* < */:
      return text.charCodeAt(i + 1) === 61 ? mk('op', start, i + 2, '<=') : mk('op', start, i + 1, '<');
    case 62 /* > */:
      return text.charCodeAt(i + 1) === 61 ? mk('op', start, i + 2, '>=') : mk('op', start, i + 1, '>');
    default: {
      const single = SINGLE_CHAR_TOKENS[c];
      if (single) return mk(single, start, i + 1, text[i]);
      // Consume a whole run of unexpected characters (surrogate pairs included) as one token.
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d <= 32 || isIdentPart(d) || '"`\'/$%=!<>()[],.:-+*'.includes(text[j])) break;
        j++;
      }
      const t = mk('invalid', start, j, text.slice(start, j));
      t.error = `Unexpected character '${t.value}'`;
      return t;
    }
  }
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
    case 'ident':
      // `in cidr %` / `in regex %`: a reference list is being written, not a remainder
      return !isOneOf(VALUE_LEADING_WORDS, prev.value);
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
      return mk('string', start, i + 1, chunk === start + 1 ? word(text, chunk, i) : value + text.slice(chunk, i));
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
