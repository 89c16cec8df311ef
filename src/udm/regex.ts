/**
 * The one regular-expression engine of everything UDM: RE2 semantics through re2js, so matching is
 * linear in the input whatever the pattern (event values come from attackers' logs; queries come
 * from anyone). JavaScript's backtracking `RegExp` never runs a UDM pattern. Where JavaScript
 * accepts more than RE2 (`\Z`, possessive quantifiers, lookaround, backreferences), RE2 wins and
 * the problem says so.
 */
import { RE2JS, RE2JSSyntaxException, type Matcher } from 're2js';

export interface RegexProblem {
  message: string;
  /** offset inside the pattern */
  index: number;
  length: number;
}

/** A compiled UDM pattern. Every method runs in time linear in the input. */
export interface UdmRegex {
  test(text: string): boolean;
  /** re.capture: the first group when the pattern has one, else the whole match; '' when none. */
  capture(text: string): string;
  /** re.capture_all: one entry per match, as `capture` */
  captureAll(text: string): string[];
  /** re.replace: every match replaced; `\1`…`\9` in the replacement name groups, `\0` the match. */
  replaceAll(text: string, replacement: string): string;
}

export interface CompiledRegex {
  regex?: UdmRegex;
  problem?: RegexProblem;
}

/**
 * Compiled patterns by flags and text. Queries, reference lists and statistics conditions reuse a
 * handful of patterns; the bound keeps a stream of distinct hostile patterns from growing memory.
 */
const CACHE_SIZE = 1000;
const cache = new Map<string, CompiledRegex>();

/** What JavaScript users expect and RE2 refuses, recognised from RE2's error fragment. */
function re2Hint(description: string, fragment: string): string | undefined {
  if (/^\\[1-9]/.test(fragment)) return 'RE2 has no backreferences';
  if (fragment.startsWith('\\Z')) return 'RE2 has no \\Z: use \\z or $ for the end of the text';
  if (/^\(\?[=!]/.test(fragment)) return 'RE2 has no lookahead';
  if (/^\(\?<[=!]/.test(fragment)) return 'RE2 has no lookbehind';
  if (fragment.startsWith('(?>')) return 'RE2 has no atomic groups';
  if (description.includes('nested repetition') && /^[*+?}]\+/.test(fragment))
    return 'RE2 has no possessive quantifiers: drop the second +';
  return undefined;
}

/** Offset of the `(` that `missing closing )` is about: the last one left open. */
function unclosedParen(pattern: string): number {
  const open: number[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (c === '(') open.push(i);
    else if (c === ')') open.pop();
  }
  return open.length ? open[open.length - 1] : 0;
}

function problemOf(pattern: string, err: unknown): RegexProblem {
  if (!(err instanceof RE2JSSyntaxException)) {
    const msg = err instanceof Error ? err.message : String(err);
    return { message: `Not a valid RE2 regular expression: ${msg}`, index: 0, length: pattern.length };
  }
  const description = err.getDescription();
  const fragment = err.getPattern() ?? '';
  let index: number;
  let length: number;
  if (description === 'missing closing )') {
    index = unclosedParen(pattern);
    length = 1;
  } else if (description.startsWith('trailing backslash')) {
    index = Math.max(0, pattern.length - 1);
    length = 1;
  } else {
    const at = fragment === '' ? -1 : pattern.indexOf(fragment);
    index = at >= 0 ? at : 0;
    length = at >= 0 ? fragment.length : pattern.length;
    // RE2 quotes the rest of the pattern after a lookbehind; the construct is its first four characters.
    if (at >= 0 && /^\(\?<[=!]/.test(fragment)) length = 4;
  }
  const hint = re2Hint(description, fragment);
  const shown = fragment === '' || fragment === pattern ? '' : `: ${fragment}`;
  return {
    message: `Not a valid RE2 regular expression: ${description}${shown}${hint ? ` (${hint})` : ''}`,
    index,
    length,
  };
}

/** Expands `\0`…`\9` and `\\` of a re.replace replacement for the current match. */
function expand(replacement: string, m: Matcher, groups: number): string {
  if (!replacement.includes('\\')) return replacement;
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i];
    const n = replacement[i + 1];
    if (c === '\\' && n !== undefined && n >= '0' && n <= '9') {
      const g = n.charCodeAt(0) - 48;
      out += g <= groups ? (m.group(g) ?? '') : '';
      i++;
    } else if (c === '\\' && n === '\\') {
      out += '\\';
      i++;
    } else out += c;
  }
  return out;
}

class Re2Regex implements UdmRegex {
  private readonly groups: number;

  constructor(private readonly re: RE2JS) {
    this.groups = re.groupCount();
  }

  test(text: string): boolean {
    return this.re.test(text);
  }

  capture(text: string): string {
    const m = this.re.matcher(text);
    if (!m.find()) return '';
    return (this.groups >= 1 ? m.group(1) : m.group(0)) ?? '';
  }

  captureAll(text: string): string[] {
    const m = this.re.matcher(text);
    const out: string[] = [];
    while (m.find()) out.push((this.groups >= 1 ? m.group(1) : m.group(0)) ?? '');
    return out;
  }

  replaceAll(text: string, replacement: string): string {
    const m = this.re.matcher(text);
    let out = '';
    let last = 0;
    while (m.find()) {
      out += text.slice(last, m.start()) + expand(replacement, m, this.groups);
      last = m.end();
    }
    return out + text.slice(last);
  }
}

/** Compiles a UDM pattern with RE2 semantics (`nocase` = case-insensitive), from the bounded cache. */
export function compileRegex(pattern: string, nocase = false): CompiledRegex {
  const key = `${nocase ? 'i' : '-'}${pattern}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  let result: CompiledRegex;
  try {
    result = { regex: new Re2Regex(RE2JS.compile(pattern, nocase ? RE2JS.CASE_INSENSITIVE : 0)) };
  } catch (err) {
    result = { problem: problemOf(pattern, err) };
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, result);
  return result;
}

/** RE2's verdict on a pattern: undefined when it compiles. */
export function findRe2Problem(pattern: string): RegexProblem | undefined {
  return compileRegex(pattern).problem;
}

/**
 * Maps an offset inside a literal's decoded value to the document: `"…"` and `'…'` decode
 * escapes (so `"\\d"` is the pattern `\d`), backquoted strings and `/…/` (where only `\/` is
 * shortened) are nearly verbatim. `source` is the literal's text with its delimiters.
 */
export function sourceOffsetInLiteral(source: string, valueIndex: number): number {
  const quote = source[0];
  const raw = quote === '`';
  let v = 0;
  let i = 1;
  while (i < source.length - 1 && v < valueIndex) {
    if (source[i] === '\\' && !raw) {
      const e = source[i + 1];
      if (quote === '/') {
        v += e === '/' ? 1 : 2;
        i += 2;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) {
        v += 1;
        i += 6;
      } else {
        // known escapes decode to one character, unknown ones are kept with their backslash
        v += '\\"\'`/nrt'.includes(e ?? '') ? 1 : 2;
        i += 2;
      }
    } else {
      v++;
      i++;
    }
  }
  return Math.min(i, source.length);
}
