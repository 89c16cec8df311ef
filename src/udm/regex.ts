/**
 * UDM search regular expressions use RE2 syntax. JavaScript's engine accepts a superset, so the
 * constructs RE2 rejects (lookaround, backreferences) are reported instead of silently working,
 * and the RE2-only spellings (`(?P<name>`, a leading `(?i)`) are translated.
 */
export interface RegexProblem {
  message: string;
  /** offset inside the pattern */
  index: number;
  length: number;
}

export interface TranslatedRegex {
  regex?: RegExp;
  problem?: RegexProblem;
}

const cache = new Map<string, TranslatedRegex>();

export function findRe2Problem(pattern: string): RegexProblem | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const e = pattern[i + 1];
      if (!inClass && e !== undefined && e >= '1' && e <= '9') {
        return { message: 'Backreferences are not supported (RE2 syntax)', index: i, length: 2 };
      }
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2, i + 4);
      if (rest.startsWith('=') || rest.startsWith('!') || rest === '<=' || rest === '<!') {
        return {
          message: 'Lookahead and lookbehind are not supported (RE2 syntax)',
          index: i,
          length: rest.startsWith('<') ? 4 : 3,
        };
      }
    }
  }
  return undefined;
}

export function translateRegex(pattern: string, nocase: boolean): TranslatedRegex {
  const key = `${nocase ? 'i' : '-'}${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let result: TranslatedRegex;
  const problem = findRe2Problem(pattern);
  if (problem) result = { problem };
  else {
    let source = pattern.replace(/\(\?P</g, '(?<');
    let flags = nocase ? 'i' : '';
    const inline = /^\(\?([imsU]+)\)/.exec(source);
    if (inline) {
      source = source.slice(inline[0].length);
      if (inline[1].includes('i') && !flags.includes('i')) flags += 'i';
      if (inline[1].includes('s')) flags += 's';
      if (inline[1].includes('m')) flags += 'm';
    }
    try {
      result = { regex: new RegExp(source, flags) };
    } catch (e) {
      const msg = e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
      result = { problem: { message: `Invalid regular expression: ${msg}`, index: 0, length: pattern.length } };
    }
  }
  if (cache.size > 5000) cache.clear();
  cache.set(key, result);
  return result;
}
