// re: regular expressions in RE2 syntax, run by the RE2 engine of ../regex.ts (linear time).
import { compileRegex, findRe2Problem, sourceOffsetInLiteral, type UdmRegex } from '../regex';
import { type ArgCheck, defineFamily, fn } from './types';
import { toStr } from './values';

function regexOf(pattern: unknown): UdmRegex | undefined {
  return compileRegex(toStr(pattern)).regex;
}

/** A pattern written as a string literal must be valid RE2; the error points inside the pattern. */
const checkPatternArg: ArgCheck = (args, report, source) => {
  const pat = args[1];
  if (pat?.type !== 'string') return;
  const p = findRe2Problem(pat.value);
  if (!p) return;
  const literal = source?.slice(pat.start, pat.end);
  if (!literal) return report(p.message, pat, 're2');
  const start = pat.start + sourceOffsetInLiteral(literal, p.index);
  const end = pat.start + sourceOffsetInLiteral(literal, p.index + p.length);
  report(p.message, { start, end: Math.max(end, start + 1) }, 're2');
};

/** Capturing groups of an RE2 pattern: `(`, `(?P<name>` and `(?<name>`, outside classes and escapes. */
export function captureGroups(pattern: string): number {
  let n = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (c !== '(') continue;
    if (pattern[i + 1] !== '?') n++;
    else if (pattern[i + 2] === 'P' && pattern[i + 3] === '<') n++;
    else if (pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') n++;
  }
  return n;
}

/** re.capture returns one group: a pattern with two or more is a compile error. */
const checkCaptureArg: ArgCheck = (args, report, source) => {
  checkPatternArg(args, report, source);
  const pat = args[1];
  // A /…/ literal (Google's rules pass one) counts its groups as a quoted pattern does.
  if (pat?.type !== 'string' && pat?.type !== 'regex') return;
  const groups = captureGroups(pat.type === 'string' ? pat.value : pat.pattern);
  if (groups > 1)
    report(
      `re.capture returns one capture group, and this pattern has ${groups}: make the others non-capturing with (?:...), or use re.capture_all`,
      pat,
      'capture-groups',
    );
};

export const RE = defineFamily('re', [
  fn(
    're.capture(stringText: STRING, regex: STRING): STRING',
    '"google.com" = re.capture($e.network.email.from , "@(.*)")',
    ([text, pattern]) => regexOf(pattern)?.capture(toStr(text)) ?? '',
    { notes: 'At most one capture group; two or more is a compiler error.', checkArgs: checkCaptureArg },
  ),
  fn(
    're.capture_all(stringText: STRING, regex: STRING): ARRAY_STRINGS',
    '$path_component_5 = arrays.index_to_str(re.capture_all(principal.process.command_line, `[s=\'"]([^\'"=s]*.conf)`), 4)',
    ([text, pattern]) => regexOf(pattern)?.captureAll(toStr(text)) ?? [],
    {
      notes: 'The documented search sample also needs arrays.index_to_str and backquoted strings.',
      checkArgs: checkPatternArg,
    },
  ),
  fn(
    're.regex(field: STRING, regex: STRING): BOOL',
    're.regex($e.principal.hostname, "google")',
    ([text, pattern]) => regexOf(pattern)?.test(toStr(text)) ?? false,
    { notes: 'Equivalent to $e.field = /regex/. Accepts a trailing nocase.', checkArgs: checkPatternArg },
  ),
  fn(
    're.replace(stringText: STRING, replaceRegex: STRING, replacementText: STRING): STRING',
    '"email@google.org" = re.replace($e.network.email.from, "com", "org")',
    ([text, pattern, repl]) => regexOf(pattern)?.replaceAll(toStr(text), toStr(repl)) ?? toStr(text),
    { checkArgs: checkPatternArg },
  ),
]);
