import * as assert from 'node:assert/strict';
import { analyze, compileQuery, lex, parse } from '../../../src/udm/index';
import { sectionsByKind } from '../../../src/udm/ast';
import { knownFromEntries, knownListMap } from '../../../src/udm/reference-lists';
import { BROKEN_QUERIES, VALID_QUERIES } from './corpus';

const LISTS = {
  my_hosts: ['alpha', 'beta'],
  corp_ranges: ['10.0.0.0/8', '192.168.0.0/16'],
  bad_urls: ['evil\\.example', '^http://'],
};

describe('UDM lexer', () => {
  it('splits a condition into tokens with exact offsets', () => {
    const { tokens } = lex('principal.hostname = "a\\"b" nocase');
    assert.deepEqual(
      tokens.map((t) => [t.kind, t.start, t.end]),
      [
        ['ident', 0, 9],
        ['dot', 9, 10],
        ['ident', 10, 18],
        ['op', 19, 20],
        ['string', 21, 27],
        ['ident', 28, 34],
        ['eof', 34, 34],
      ],
    );
    assert.equal(tokens[4].value, 'a"b');
  });

  it('reads regexes, comments, placeholders, reference lists and all operators', () => {
    const { tokens, comments } = lex('a /x\\/y[/]z/ // c\n/* b */ $v %list != >= <= > <');
    assert.equal(tokens[1].kind, 'regex');
    assert.equal(tokens[1].value, 'x/y[/]z');
    assert.equal(comments.length, 2);
    assert.deepEqual(
      tokens.slice(2, -1).map((t) => `${t.kind}:${t.value}`),
      ['variable:v', 'reflist:list', 'op:!=', 'op:>=', 'op:<=', 'op:>', 'op:<'],
    );
    assert.equal(tokens[2].newlineBefore, true);
  });

  it('marks unterminated strings and regexes instead of throwing', () => {
    const s = lex('a = "open');
    assert.match(s.tokens[2].error ?? '', /Unterminated string/);
    const r = lex('a = /open\nb');
    assert.match(r.tokens[2].error ?? '', /Unterminated regular expression/);
    assert.equal(r.tokens[3].value, 'b');
  });

  it('keeps unknown escapes so regex strings mean what they say', () => {
    const { tokens } = lex('"\\d+\\.exe"');
    assert.equal(tokens[0].value, '\\d+\\.exe');
  });
});

describe('UDM parser', () => {
  it('builds OR of ANDs with NOT and parentheses, ANDing adjacent conditions', () => {
    const { query, diagnostics } = parse('a.b = 1 c.d = 2 OR NOT (e.f = 3 and g.h = 4)');
    assert.deepEqual(diagnostics, []);
    const f = query.filter!;
    assert.equal(f.type, 'or');
    if (f.type !== 'or') return;
    assert.equal(f.items[0].type, 'and');
    assert.equal(f.items[1].type, 'not');
  });

  it('parses keywords in any case', () => {
    const { query, diagnostics } = parse('a.b = 1 And c.d = 2 oR e.f = 3');
    assert.deepEqual(diagnostics, []);
    assert.equal(query.filter!.type, 'or');
  });

  it('parses sections with their items', () => {
    const { query, diagnostics } = parse(VALID_QUERIES.find((q) => q.includes('$failures'))!);
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(
      query.sections.map((s) => s.kind),
      ['match', 'outcome', 'order', 'limit'],
    );
    const { outcome, order, limit } = sectionsByKind(query.sections);
    assert.equal(outcome!.outcomes.length, 4);
    assert.deepEqual(
      order!.order.map((o) => o.direction?.value),
      ['desc', 'asc'],
    );
    assert.equal(limit!.limit!.value, 100);
  });

  it('recovers after errors and still parses later conditions', () => {
    const { query, diagnostics } = parse('principal.hostname = \nmetadata.event_type = "USER_LOGIN"');
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].start, 20);
    const f = query.filter!;
    assert.equal(f.type, 'and');
  });

  it('handles a 10,000-line document', () => {
    const lines: string[] = [];
    for (let i = 0; i < 10000; i++) lines.push(i % 2 ? `principal.hostname = "host-${i}" OR` : `target.port = ${i}`);
    lines.push('target.port = 1');
    const a = analyze(lines.join('\n'));
    assert.equal(a.hasErrors, false);
  });

  it('survives deep nesting without a stack overflow', () => {
    const deep = `${'('.repeat(5000)}a.b = 1${')'.repeat(5000)}`;
    const r = parse(deep);
    assert.ok(r.diagnostics.some((d) => /nested too deeply/.test(d.message)));
    const nots = `${'NOT '.repeat(5000)}principal.hostname = "x"`;
    assert.ok(parse(nots).diagnostics.length >= 1);
  });
});

describe('UDM corpus of documented queries', () => {
  for (const q of VALID_QUERIES) {
    it(`has no errors: ${JSON.stringify(q).slice(0, 90)}`, () => {
      const c = compileQuery(q, { referenceLists: LISTS });
      const errors = c.diagnostics.filter((d) => d.severity !== 'info');
      assert.deepEqual(errors, [], errors.map((e) => e.message).join('; '));
      assert.equal(c.hasErrors, false);
    });
  }
});

describe('UDM corpus of broken queries', () => {
  for (const b of BROKEN_QUERIES) {
    it(`reports ${b.code ?? 'an error'} at the right place: ${JSON.stringify(b.query).slice(0, 70)}`, () => {
      const c = compileQuery(b.query);
      const offset = typeof b.at === 'number' ? b.at : b.query.indexOf(b.at);
      assert.ok(offset >= 0);
      const severity = b.severity ?? 'error';
      const hit = c.diagnostics.find(
        (d) => d.offset === offset && d.severity === severity && (!b.code || d.code === b.code),
      );
      assert.ok(
        hit,
        `expected ${severity} ${b.code ?? ''} at ${offset}; got ${JSON.stringify(c.diagnostics.map((d) => [d.offset, d.severity, d.code, d.message]))}`,
      );
      if (severity === 'error') assert.equal(c.hasErrors, true);
      const lines = b.query.split('\n');
      const before = b.query.slice(0, offset).split('\n');
      assert.deepEqual(hit.range.start, { line: before.length - 1, character: before[before.length - 1].length });
      assert.ok(hit.range.end.line < lines.length);
    });
  }

  it('offers "did you mean" replacements', () => {
    const c = compileQuery('principal.hostnme = "x" and metadata.event_type = "USER_LOGON"');
    assert.deepEqual((c.diagnostics[0].data as { replacements: string[] }).replacements[0], 'hostname');
    assert.deepEqual((c.diagnostics[1].data as { replacements: string[] }).replacements[0], '"USER_LOGIN"');
  });

  it('makes `in regex %` and `in cidr %` on a list of another type an error, plain `in %` a warning', () => {
    const known = knownListMap([
      { name: 'hosts', contentType: 'CONTENT_TYPE_DEFAULT_STRING', size: 2, preview: [] },
      { name: 'bad_urls', contentType: 'REGEX', size: 2, preview: [] },
      { name: 'corp_ranges', contentType: 'CIDR', size: 2, preview: [] },
    ]);
    const listType = (query: string) =>
      analyze(query, { knownLists: known })
        .diagnostics.filter((d) => d.code === 'list-type')
        .map((d) => [d.severity, d.message]);
    assert.deepEqual(listType('principal.hostname in regex %hosts'), [
      ['error', "%hosts is a string list; use 'in %hosts'"],
    ]);
    assert.deepEqual(listType('principal.ip in cidr %bad_urls'), [
      ['error', "%bad_urls is a regular expression list; use 'in regex %bad_urls'"],
    ]);
    assert.deepEqual(listType('principal.ip in regex %corp_ranges'), [
      ['error', "%corp_ranges is a CIDR list; use 'in cidr %corp_ranges'"],
    ]);
    assert.deepEqual(listType('target.url in %bad_urls'), [
      ['warning', "%bad_urls is a regular expression list; use 'in regex %bad_urls'"],
    ]);
    for (const ok of [
      'principal.hostname in %hosts',
      'target.url in regex %bad_urls',
      'principal.ip in cidr %corp_ranges',
    ])
      assert.deepEqual(listType(ok), [], ok);
    assert.equal(analyze('principal.hostname in regex %hosts', { knownLists: known }).hasErrors, true);
  });

  it('an unknown %list is an error when the lists came from the server, a warning when they could not be loaded', () => {
    const known = knownFromEntries({ hosts: ['web-01'] });
    const loaded = analyze('principal.hostname in %hostz', { knownLists: known }).diagnostics;
    assert.deepEqual(
      loaded.map((d) => [d.severity, d.code, d.message]),
      [['error', 'unknown-list', 'Unknown reference list %hostz. Did you mean %hosts?']],
    );
    const stale = analyze('principal.hostname in %hostz', {
      knownLists: known,
      listsUnavailable: 'PERMISSION_DENIED: caller lacks chronicle.referenceLists.list',
    }).diagnostics;
    assert.deepEqual(
      stale.map((d) => [d.severity, d.code, d.message]),
      [
        [
          'warning',
          'unknown-list',
          'Unknown reference list %hostz. Did you mean %hosts? (the reference lists could not be loaded: PERMISSION_DENIED: caller lacks chronicle.referenceLists.list)',
        ],
      ],
    );
    // nothing loaded at all, and the load failed: every name is a warning
    assert.equal(
      analyze('principal.hostname in %hosts', { knownLists: new Map(), listsUnavailable: 'offline' }).diagnostics[0]
        ?.severity,
      'warning',
    );
  });

  it('reports unknown reference lists only when lists are known', () => {
    assert.equal(compileQuery('principal.hostname in %nope').hasErrors, false);
    const c = compileQuery('principal.hostname in %my_host', { referenceLists: LISTS });
    assert.equal(c.diagnostics[0].code, 'unknown-list');
    assert.deepEqual((c.diagnostics[0].data as { replacements: string[] }).replacements, ['%my_hosts']);
  });
});
