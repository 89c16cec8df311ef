import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  CORPUS_DIR,
  DEMO_RULES_DIR,
  defects,
  ERROR_KINDS,
  expectation,
  facts,
  fieldProblem,
  INVALID_DIR,
  yaralFiles,
} from '../../support/yaral-corpus';

const valid = [...yaralFiles(CORPUS_DIR), ...yaralFiles(DEMO_RULES_DIR)];
const invalid = yaralFiles(INVALID_DIR);
const read = (f: string): string => readFileSync(f, 'utf8');

describe('YARA-L rule corpus', () => {
  it('holds 25 or more valid rules, each named in the README with its source', () => {
    const corpus = yaralFiles(CORPUS_DIR);
    assert.ok(corpus.length >= 25, `${corpus.length} rules`);
    const readme = read(join(CORPUS_DIR, 'README.md'));
    for (const f of [...corpus, ...invalid])
      assert.ok(readme.includes(basename(f)), `README does not name ${basename(f)}`);
    // Rules quoted from Google's pages name the page on their first line.
    for (const f of corpus.filter((x) => basename(x).startsWith('doc_')))
      assert.match(read(f).split('\n')[0], /^\/\/ Google SecOps documentation, "/, basename(f));
  });

  it('covers the documented rule features', () => {
    const all = valid.map(read).join('\n');
    const features: Array<[string, RegExp]> = [
      ['licence header', /Licensed under the Apache License, Version 2\.0/],
      ['hop window', /^\s*\$\w+(?:,\s*\$\w+)*\s+over\s+\d+[mhd]\s*$/m],
      ['sliding window after', /over\s+\d+[mhd]\s+after\s+\$\w+/],
      ['sliding window before', /over\s+\d+[mhd]\s+before\s+\$\w+/],
      ['count condition', /#\w+\s*>=?\s*\d+/],
      ['missing event', /!\$\w+/],
      ['risk score', /\$risk_score\s*=/],
      ['conditional outcome', /\bif\s*\(/],
      ['max', /\bmax\(/],
      ['sum', /\bsum\(/],
      ['count_distinct', /\bcount_distinct\(/],
      ['array_distinct', /\barray_distinct\(/],
      ['array', /\barray\(/],
      ['allow_zero_values', /allow_zero_values\s*=\s*true/],
      ['suppression_window', /suppression_window\s*=\s*\d+[mhd]/],
      ['suppression key', /\$suppression_key\s*=/],
      ['entity graph', /\$\w+\.graph\.entity\./],
      ['reference list', /\bin\s+%\w+/],
      ['cidr list', /\bin\s+cidr\s+%\w+/],
      ['regex list', /\bin\s+regex\s+%\w+/],
      ['nocase', /\bnocase\b/],
      ['regex literal', /=\s*\/[^/\n]+\/\s*nocase/],
      ['re.regex', /\bre\.regex\(/],
      ['block comment', /\/\*[\s\S]*?\*\//],
      ['line comment', /\/\/ /],
      ['outcome in condition', /condition:\s*\n\s*.*\$(?!e\b)\w+\s*[<>]=?\s*\d/],
      ['three event variables', /rule phish_click_download_execute/],
      ['options section', /^\s*options:/m],
    ];
    for (const [name, re] of features) assert.match(all, re, name);
  });

  it('holds one rule per file, sections in order, identifiers for names, strings for meta values', () => {
    for (const f of valid) {
      const text = read(f);
      for (const kind of ['one-rule-per-file', 'section-order', 'rule-name', 'meta-not-string'] as const)
        assert.deepEqual(defects(text, kind), [], `${basename(f)}: ${kind}`);
    }
  });

  it('uses only UDM and entity fields that exist in the schema', () => {
    let checked = 0;
    for (const f of valid) {
      assert.deepEqual(defects(read(f), 'unknown-field'), [], basename(f));
      checked += [...read(f).matchAll(/\$\w+\.[a-z]/g)].length;
    }
    assert.ok(checked > 200, `${checked} field references`);
    assert.equal(fieldProblem('principal.hostname'), undefined);
    assert.equal(fieldProblem('graph.entity.user.termination_date.seconds'), undefined);
    assert.match(fieldProblem('principal.hostnme') ?? '', /principal\.hostnme is not a field of Noun/);
    assert.match(fieldProblem('metadata.event_type.x') ?? '', /is a e:Metadata.EventType/);
  });

  it('declares every variable it uses and gives every join and missing event a window', () => {
    for (const f of valid)
      for (const kind of ['unknown-variable', 'unfiltered-event', 'missing-window'] as const)
        assert.deepEqual(defects(read(f), kind), [], `${basename(f)}: ${kind}`);
  });

  it('reads event variables, placeholders and outcome variables apart', () => {
    const f = facts(read(join(CORPUS_DIR, 'doc_user_creation_then_deletion.yaral')));
    assert.deepEqual([...f.eventVariables].sort(), ['create', 'delete']);
    assert.deepEqual([...f.placeholders.keys()], ['user']);
    assert.deepEqual(
      f.sections.map((s) => s.name),
      ['meta', 'events', 'match', 'condition'],
    );
    const g = facts(read(join(CORPUS_DIR, 'outcome_risk_score_aggregates.yaral')));
    assert.ok(g.outcomeVariables.has('risk_score') && g.outcomeVariables.has('total_bytes'));
  });
});

describe('YARA-L invalid rules', () => {
  it('each names its expected error on the first line and holds exactly that defect', () => {
    assert.ok(invalid.length >= 8);
    const kinds = new Set<string>();
    for (const f of invalid) {
      const { kind, severity } = expectation(f);
      kinds.add(kind);
      const text = read(f);
      assert.notDeepEqual(defects(text, kind), [], `${basename(f)} does not hold a ${kind} defect`);
      // The mutation is the only error: every other error check passes.
      for (const other of ERROR_KINDS.filter(
        (k) =>
          k !== kind &&
          !(kind === 'unfiltered-event' && k === 'unknown-variable') &&
          !(kind === 'one-rule-per-file' && k === 'section-order'),
      ))
        assert.deepEqual(defects(text, other), [], `${basename(f)}: unexpected ${other}`);
      assert.equal(severity, kind === 'unused-placeholder' ? 'warning' : 'error', basename(f));
    }
    for (const kind of [
      'unknown-field',
      'unknown-variable',
      'meta-not-string',
      'rule-name',
      'unused-placeholder',
      'unfiltered-event',
      'missing-window',
      'outcome-order',
      'call-newline',
      'type-mismatch',
      'arity',
    ])
      assert.ok(kinds.has(kind), `no invalid rule for ${kind}`);
  });
});
