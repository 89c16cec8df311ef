// Structural facts of a YARA-L rule file, read with regular expressions over the text with its
// comments and string contents blanked out. Used to keep the rule corpus honest (valid rules hold
// none of the defects, each invalid rule holds the one its first line names); it is not the
// product's parser and knows only what the corpus needs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MESSAGES, ROOT_MESSAGE } from '../../src/udm/generated/schema';

export const CORPUS_DIR = join(__dirname, '..', 'fixtures', 'yaral');
export const INVALID_DIR = join(CORPUS_DIR, 'invalid');
export const DEMO_RULES_DIR = join(__dirname, '..', 'e2e', 'fixtures', 'workspace', 'rules');

export const SECTION_ORDER = ['meta', 'events', 'match', 'outcome', 'condition', 'options'] as const;

export type DefectKind =
  | 'unknown-field'
  | 'unknown-variable'
  | 'meta-not-string'
  | 'rule-name'
  | 'unused-placeholder'
  | 'unfiltered-event'
  | 'missing-window'
  | 'section-order'
  | 'one-rule-per-file'
  | 'outcome-order'
  | 'call-newline'
  | 'type-mismatch'
  | 'arity';

/** The function families of Google's functions page (reference/udm-functions.md). */
const FUNCTION_FAMILIES = 'arrays|bytes|cast|group|hash|math|metrics|net|optimization|re|strings|timestamp|window';

/** `$name = value` items of outcome:, in order; a value may run over several lines. */
function outcomeItems(outcomeBody: string): Array<{ name: string; value: string }> {
  const items: Array<{ name: string; value: string }> = [];
  for (const line of outcomeBody.split('\n')) {
    const m = /^\s*\$(\w+)\s*=(.*)$/.exec(line);
    if (m) items.push({ name: m[1], value: m[2] });
    else if (items.length) items[items.length - 1].value += `\n${line}`;
  }
  return items;
}

/** Names read as values (`$x`, not `$e.field`) in a piece of rule text. */
function valueNames(text: string): string[] {
  return [...text.matchAll(/\$(\w+)(?![\w.[])/g)].map((m) => m[1]);
}

/** The top-level arguments of the call whose '(' is at `open` in blanked text (undefined when unclosed). */
function callArguments(b: string, open: number): string[] | undefined {
  let depth = 0;
  let from = open + 1;
  const args: string[] = [];
  for (let i = open; i < b.length; i++) {
    const c = b[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') {
      depth--;
      if (depth === 0) {
        const last = b.slice(from, i);
        if (last.trim() !== '' || args.length) args.push(last);
        return args;
      }
    } else if (c === ',' && depth === 1) {
      args.push(b.slice(from, i));
      from = i + 1;
    }
  }
  return undefined;
}

export function yaralFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaral'))
    .sort()
    .map((f) => join(dir, f));
}

/** Comments become spaces and string/raw-string contents become spaces; offsets and lines stay. */
export function blank(text: string): string {
  let out = '';
  let i = 0;
  const keepNewlines = (s: string): string => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += keepNewlines(text.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += keepNewlines(text.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += c === '"' && text[j] === '\\' ? 2 : 1;
      out += c + ' '.repeat(Math.max(0, Math.min(j, text.length) - i - 1)) + (j < text.length ? c : '');
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

export interface RuleFacts {
  names: string[];
  sections: Array<{ name: string; body: string }>;
  eventVariables: Set<string>;
  placeholders: Map<string, number>;
  outcomeVariables: Set<string>;
}

export function facts(text: string): RuleFacts {
  const b = blank(text);
  const names = [...b.matchAll(/^\s*rule\s+([^\s{]+)/gm)].map((m) => m[1]);
  const headers = [...b.matchAll(/^\s*(meta|events|match|outcome|condition|options)\s*:/gim)];
  const sections = headers.map((m, i) => ({
    name: m[1].toLowerCase(),
    body: b.slice(m.index + m[0].length, i + 1 < headers.length ? headers[i + 1].index : b.length),
  }));
  const events = sections
    .filter((s) => s.name === 'events')
    .map((s) => s.body)
    .join('\n');
  const eventVariables = new Set([...events.matchAll(/\$(\w+)\./g)].map((m) => m[1]));
  const placeholders = new Map<string, number>();
  for (const m of b.matchAll(/\$(\w+)(?![\w.[])/g)) placeholders.set(m[1], (placeholders.get(m[1]) ?? 0) + 1);
  const outcome = sections
    .filter((s) => s.name === 'outcome')
    .map((s) => s.body)
    .join('\n');
  const outcomeVariables = new Set([...outcome.matchAll(/^\s*\$(\w+)\s*=/gm)].map((m) => m[1]));
  for (const v of eventVariables) placeholders.delete(v);
  return { names, sections, eventVariables, placeholders, outcomeVariables };
}

/** Why a UDM path after `$var.` does not resolve, or undefined when it does. */
export function fieldProblem(path: string): string | undefined {
  const parts = path.replace(/\[[^\]]*\]/g, '').split('.');
  let message = ROOT_MESSAGE;
  if (parts[0] === 'graph') {
    message = 'Entity';
    parts.shift();
  }
  for (let i = 0; i < parts.length; i++) {
    const field = MESSAGES[message]?.find((f) => f[0] === parts[i]);
    if (!field) return `${parts.slice(0, i + 1).join('.')} is not a field of ${message}`;
    const type = field[2];
    const rest = parts.slice(i + 1);
    if (type.startsWith('m:')) message = type.slice(2);
    else if (type === 'struct' || type.startsWith('map:')) return undefined;
    else if (type === 'timestamp' || type === 'duration')
      return rest.length === 0 || (rest.length === 1 && ['seconds', 'nanos'].includes(rest[0]))
        ? undefined
        : `${path}: a ${type} has only seconds and nanos`;
    else return rest.length === 0 ? undefined : `${path}: ${parts[i]} is a ${type}`;
  }
  return undefined;
}

function body(f: RuleFacts, name: string): string {
  return f.sections
    .filter((s) => s.name === name)
    .map((s) => s.body)
    .join('\n');
}

/** The defects of `kind` found in a rule file's text, as messages. */
export function defects(text: string, kind: DefectKind): string[] {
  const f = facts(text);
  const b = blank(text);
  const out: string[] = [];
  switch (kind) {
    case 'one-rule-per-file':
      if (f.names.length !== 1) out.push(`${f.names.length} rules`);
      break;
    case 'rule-name':
      for (const n of f.names) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) out.push(`rule name ${n}`);
      break;
    case 'section-order': {
      const order = f.sections.map((s) => SECTION_ORDER.indexOf(s.name as (typeof SECTION_ORDER)[number]));
      if (order.some((o, i) => i > 0 && o <= order[i - 1]))
        out.push(`order ${f.sections.map((s) => s.name).join(', ')}`);
      for (const required of ['meta', 'events', 'condition'])
        if (!f.sections.some((s) => s.name === required)) out.push(`no ${required}:`);
      break;
    }
    case 'meta-not-string':
      for (const m of body(f, 'meta').matchAll(/^\s*(\w+)\s*=\s*(\S.*?)\s*$/gm))
        if (!/^"\s*"$/.test(m[2])) out.push(`meta ${m[1]} = ${m[2]}`);
      break;
    case 'unknown-field':
      for (const m of b.matchAll(/\$(\w+)((?:\.[A-Za-z_]\w*|\[[^\]]*\])+)/g)) {
        const problem = fieldProblem(m[2].slice(1));
        if (problem) out.push(problem);
      }
      break;
    case 'unknown-variable': {
      for (const m of body(f, 'condition').matchAll(/[$#](\w+)/g))
        if (!f.eventVariables.has(m[1]) && !f.placeholders.has(m[1]) && !f.outcomeVariables.has(m[1]))
          out.push(`${m[0]} in condition`);
      // In outcome: a value reads event variables, placeholders bound in events: and outcome variables.
      const bound = new Set(valueNames(body(f, 'events')));
      for (const item of outcomeItems(body(f, 'outcome')))
        for (const name of valueNames(item.value))
          if (!f.eventVariables.has(name) && !bound.has(name) && !f.outcomeVariables.has(name))
            out.push(`$${name} in outcome`);
      break;
    }
    case 'outcome-order': {
      // reference/yaral-rules.md: an outcome variable can be used in a later outcome assignment.
      const items = outcomeItems(body(f, 'outcome'));
      items.forEach((item, i) => {
        for (const name of valueNames(item.value))
          if (items.findIndex((o) => o.name === name) >= i)
            out.push(`$${item.name} reads $${name} before it is assigned`);
      });
      break;
    }
    case 'call-newline':
      // A function's name ending a line, its '(' starting the next: two statements, not a call.
      for (const m of b.matchAll(new RegExp(`\\b((?:${FUNCTION_FAMILIES})\\.\\w+)[ \\t]*\\n\\s*\\(`, 'g')))
        out.push(`${m[1]} ends its line before its '('`);
      break;
    case 'type-mismatch':
      // A /…/ pattern where a function other than re.* takes text; a string in arithmetic.
      for (const m of b.matchAll(new RegExp(`\\b((?:${FUNCTION_FAMILIES})\\.\\w+)\\(`, 'g'))) {
        if (m[1].startsWith('re.')) continue;
        const args = callArguments(b, m.index + m[0].length - 1) ?? [];
        if (args.some((a) => a.trimStart().startsWith('/'))) out.push(`a /…/ pattern passed to ${m[1]}`);
      }
      for (const line of b.split('\n'))
        if (/[-+*][ \t]*["`]|["`][ \t]*[-+*]/.test(line)) out.push(`a string in arithmetic: ${line.trim()}`);
      break;
    case 'arity':
      // strings.starts_with / ends_with (reference/yaral-rules.md, udm-functions.md) take two arguments.
      for (const m of b.matchAll(/\bstrings\.(starts_with|ends_with)\(/g)) {
        const n = callArguments(b, m.index + m[0].length - 1)?.length;
        if (n !== 2) out.push(`strings.${m[1]} with ${n} arguments`);
      }
      break;
    case 'unfiltered-event':
      for (const section of ['match', 'outcome', 'condition']) {
        const text = body(f, section);
        for (const m of text.matchAll(/\$(\w+)\./g))
          if (!f.eventVariables.has(m[1])) out.push(`$${m[1]} in ${section}: has no predicate in events:`);
        if (section === 'condition')
          for (const m of text.matchAll(/(?<![\w$#])!?\$(\w+)(?![\w.])/g))
            if (!f.eventVariables.has(m[1]) && !f.outcomeVariables.has(m[1]) && !f.placeholders.has(m[1]))
              out.push(`$${m[1]} in condition: has no predicate in events:`);
      }
      break;
    case 'missing-window': {
      const windowed = /\bover\s+\d+[mhd]\b/i.test(body(f, 'match'));
      if (!windowed && f.eventVariables.size > 1) out.push(`${f.eventVariables.size} event variables without a window`);
      if (!windowed && /!\s*\$\w+/.test(body(f, 'condition'))) out.push('a missing event without a window');
      break;
    }
    case 'unused-placeholder':
      for (const [name, uses] of f.placeholders)
        if (uses === 1 && !f.outcomeVariables.has(name)) out.push(`$${name} used once`);
      break;
  }
  return out;
}

/** Kinds a valid rule must be free of (unused placeholders are a warning: Google's own examples have them). */
export const ERROR_KINDS: readonly DefectKind[] = [
  'unknown-field',
  'unknown-variable',
  'meta-not-string',
  'rule-name',
  'unfiltered-event',
  'missing-window',
  'section-order',
  'one-rule-per-file',
  'outcome-order',
  'call-newline',
  'type-mismatch',
  'arity',
];

/** `// expected error (kind): message` or `// expected warning (kind): message` on the first line. */
export function expectation(file: string): { severity: 'error' | 'warning'; kind: DefectKind; message: string } {
  const first = readFileSync(file, 'utf8').split('\n')[0];
  const m = /^\/\/ expected (error|warning) \(([a-z-]+)\): (.+)$/.exec(first);
  if (!m) throw new Error(`${file}: first line must be "// expected error (kind): message"`);
  return { severity: m[1] as 'error' | 'warning', kind: m[2] as DefectKind, message: m[3] };
}
