import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../src/udm/index';
import { classify } from '../../../src/udm/service';
import { VALID_QUERIES } from './corpus';

/** The syntax the grammar follows since statistics, `$e.`, indexes and map access came. */
const NEW_SYNTAX: readonly string[] = [
  'events:\n  $e.principal.hostname = "web-01"\n  $host = principal.hostname\nmatch:\n  $host over every day\noutcome:\n  $n = count(metadata.id)\ncondition:\n  $n > 5\ndedup:\n  target.hostname\norder:\n  $n desc\nlimit:\n  20',
  'principal.ip[0] = "10.0.0.1"\nre.regex(target.hostname, "x") nocase\n$h = principal.hostname\nmatch:\n  $h by 2h',
  'additional.fields["env"] = "prod"\nnet.ip_in_range_cidr(principal.ip, "10.0.0.0/8")\nbytes.to_base64(b\'0123\') = "ASM="',
  'network.sent_bytes + 10 > 1024\nprincipal.hostname in %vips nocase',
];

const ROOT = join(__dirname, '..', '..', '..');

interface Rule {
  name?: string;
  match?: string;
  begin?: string;
  end?: string;
  captures?: Record<string, { name: string }>;
  include?: string;
  patterns?: Rule[];
}

const grammar = JSON.parse(readFileSync(join(ROOT, 'syntaxes/udm.tmLanguage.json'), 'utf8')) as {
  patterns: Rule[];
  repository: Record<string, Rule>;
};

/** Oniguruma's `(?i:...)` has no JavaScript equivalent in Node 20; spell the letters out instead. */
function toJs(src: string): RegExp {
  const converted = src.replace(
    /\(\?i:([^()]*)\)/g,
    (_, body: string) => `(?:${body.replace(/[a-zA-Z]/g, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`)})`,
  );
  return new RegExp(converted, 'gd');
}

function flatten(rules: Rule[]): Rule[] {
  const out: Rule[] = [];
  for (const r of rules) {
    if (r.include) out.push(...flatten([grammar.repository[r.include.slice(1)]]));
    else if (r.patterns && !r.begin && !r.match) out.push(...flatten(r.patterns));
    else out.push(r);
  }
  return out;
}

const RULES = flatten(grammar.patterns);

interface Scoped {
  start: number;
  end: number;
  scope: string;
}

/** A single-line TextMate scan: at each position the earliest match wins, ties go to the first rule. */
function scanLine(line: string, base: number): Scoped[] {
  const out: Scoped[] = [];
  let pos = 0;
  while (pos < line.length) {
    let best: { index: number; end: number; rule: Rule; m: RegExpExecArray } | undefined;
    for (const rule of RULES) {
      const re = toJs(rule.match ?? rule.begin!);
      re.lastIndex = pos;
      const m = re.exec(line);
      if (!m || (best && m.index >= best.index)) continue;
      let end = m.index + m[0].length;
      if (rule.begin) {
        const endRe = toJs(rule.end!);
        endRe.lastIndex = end;
        const e = endRe.exec(line);
        end = e ? e.index + e[0].length : line.length;
      }
      best = { index: m.index, end, rule, m };
    }
    if (!best) break;
    if (best.end === best.index) {
      pos = best.index + 1;
      continue;
    }
    if (best.rule.name) out.push({ start: base + best.index, end: base + best.end, scope: best.rule.name });
    for (const [group, cap] of Object.entries(best.rule.captures ?? {})) {
      const span = best.m.indices?.[Number(group)];
      if (span) out.push({ start: base + span[0], end: base + span[1], scope: cap.name });
    }
    pos = best.end;
  }
  return out;
}

const EXPECTED_SCOPE: Record<string, string[]> = {
  keyword: ['keyword.operator.logical', 'keyword.other', 'keyword.control.section', 'constant.language.boolean'],
  operator: ['keyword.operator.comparison'],
  string: ['string.quoted'],
  number: ['constant.numeric'],
  regexp: ['string.regexp'],
  variable: ['variable.other.placeholder'],
  parameter: ['variable.parameter.reference-list'],
  property: ['variable.other.property'],
  function: ['entity.name.function'],
  namespace: ['entity.name.namespace'],
  enumMember: ['constant.other.enum'],
  comment: ['comment'],
};

describe('UDM TextMate grammar', () => {
  it("is consistent with the language server's semantic token kinds", () => {
    const samples = [...VALID_QUERIES, ...NEW_SYNTAX].filter((q) => !q.includes('/*'));
    let checked = 0;
    for (const text of samples) {
      const scoped: Scoped[] = [];
      let base = 0;
      for (const line of text.split('\n')) {
        scoped.push(...scanLine(line, base));
        base += line.length + 1;
      }
      for (const t of classify(analyze(text))) {
        const scopes = scoped.filter((s) => s.start <= t.start && t.start < s.end).map((s) => s.scope);
        const ok = EXPECTED_SCOPE[t.type].some((prefix) => scopes.some((s) => s.startsWith(prefix)));
        assert.ok(
          ok,
          `${JSON.stringify(text.slice(t.start, t.end))} in ${JSON.stringify(text)}: server says ${t.type}, grammar says ${scopes.join(', ') || 'nothing'}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 300);
  });

  it('scopes statistics sections, window words, durations and bytes literals', () => {
    const scopes = (line: string): string[] => scanLine(line, 0).map((s) => `${line.slice(s.start, s.end)}|${s.scope}`);
    for (const kw of ['events', 'condition', 'dedup', 'select', 'unselect', 'MATCH'])
      assert.ok(scopes(`${kw}:`).includes(`${kw}|keyword.control.section.udm`), kw);
    const w = scopes('  $host, target.ip over every 1h');
    assert.ok(w.includes('over|keyword.other.window.udm'), w.join(' '));
    assert.ok(w.includes('every|keyword.other.window.udm'), w.join(' '));
    assert.ok(w.includes('1h|constant.numeric.duration.udm'), w.join(' '));
    assert.ok(scopes('  $h by month').includes('by|keyword.other.window.udm'));
    assert.ok(!scopes('principal.user.first_name = "a"').some((s) => s.includes('window')));
    const b = scopes('bytes.to_base64(b\'0123\') = "x"');
    assert.ok(b.includes("b'0123'|string.quoted.single.bytes.udm"), b.join(' '));
  });

  it('does not mistake comments for regular expressions', () => {
    const scopes = scanLine('a.b = "x" // note /not a regex/', 0);
    assert.ok(scopes.some((s) => s.scope.startsWith('comment.line') && s.start === 10));
    assert.ok(!scopes.some((s) => s.scope === 'string.regexp.udm'));
  });
});
