import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { keepResults, keepStatistics, type NotebookFile } from '../../../src/core/notebook/format';
import { histogram, timesOf } from '../../../src/core/secops/results/table';
import {
  HISTOGRAM_BINS,
  chartSvg,
  resultsChart,
  statisticsChart,
  xmlText,
  type BarChart,
} from '../../../src/core/notebook/charts';
import { chartFolderName, notebookReport } from '../../../src/features/notebooks/report';

const WINDOW = { start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' };

const event = (minute: number, host: string): unknown => ({
  name: `events/${minute}`,
  udm: {
    metadata: {
      id: `id-${minute}`,
      eventTimestamp: `2026-11-20T10:${String(minute).padStart(2, '0')}:00Z`,
      eventType: 'USER_LOGIN',
    },
    principal: { hostname: host },
  },
});

const results = (minutes: number[]) =>
  keepResults(
    {
      ranAt: '2026-11-20T11:00:05.000Z',
      durationMs: 90,
      query: 'metadata.event_type = "USER_LOGIN"',
      window: WINDOW,
      moreDataAvailable: false,
      events: minutes.map((m) => event(m, 'lt-ana-01')),
    },
    1000,
  );

const statistics = (rows: unknown[][], numeric = true) =>
  keepStatistics(
    {
      ranAt: '2026-11-20T11:00:05.000Z',
      durationMs: 80,
      query: 'metadata.event_type = "USER_LOGIN"\nmatch:\n  principal.hostname\noutcome:\n  $n = count(metadata.id)',
      window: WINDOW,
      eventsFetched: 40,
      searches: 1,
      timeZone: 'UTC',
      columns: [
        { name: 'principal.hostname', role: 'key', type: 'string' },
        { name: 'n', role: 'outcome', type: numeric ? 'number' : 'string' },
      ],
      rows,
      warnings: [],
    },
    1000,
  );

/**
 * A strict well-formedness check of the SVG: every `<` opens a known element or closing tag whose
 * attribute values hold no markup, and every `&` in text or attributes starts one of the five XML
 * entities. Anything a value could smuggle in (a tag, a script, a broken entity) fails it.
 */
function assertWellFormed(svg: string): void {
  const ENTITY = /&(?!(?:amp|lt|gt|quot|apos);)/;
  const tag = /^<(\/?)(svg|title|g|text|line|rect)((?:\s+[a-zA-Z][a-zA-Z0-9-]*="[^"<>]*")*)\s*(\/?)>/;
  const stack: string[] = [];
  let i = 0;
  while (i < svg.length) {
    const lt = svg.indexOf('<', i);
    const text = svg.slice(i, lt < 0 ? svg.length : lt);
    assert.ok(!ENTITY.test(text) && !text.includes('>'), `bad text: ${JSON.stringify(text)}`);
    if (lt < 0) break;
    const m = tag.exec(svg.slice(lt));
    assert.ok(m, `unexpected markup at ${lt}: ${JSON.stringify(svg.slice(lt, lt + 60))}`);
    assert.ok(!ENTITY.test(m[3]), `bad attribute: ${m[3]}`);
    if (m[1]) assert.equal(stack.pop(), m[2], `closing ${m[2]}`);
    else if (!m[4]) stack.push(m[2]);
    i = lt + m[0].length;
  }
  assert.deepEqual(stack, [], 'every element is closed');
}

const unescape = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The bars of an SVG: height and tooltip of each rect. */
function barsOf(svg: string): Array<{ height: number; title: string }> {
  return Array.from(svg.matchAll(/<rect [^>]*height="([\d.]+)"><title>([^<]*)<\/title><\/rect>/g), (m) => ({
    height: Number(m[1]),
    title: unescape(m[2]),
  }));
}

describe('UDM notebook report: chart images', () => {
  it('draws the results timeline from the same histogram as the renderer', () => {
    const out = results([1, 1, 2, 30, 59]);
    const chart = resultsChart(out)!;
    const bins = histogram(
      timesOf(out.events, 'udm.metadata.eventTimestamp'),
      Date.parse(WINDOW.start),
      Date.parse(WINDOW.end),
      HISTOGRAM_BINS,
    );
    assert.deepEqual(
      chart.bars.map((b) => b.value),
      bins.map((b) => b.count),
    );
    assert.equal(
      chart.bars.reduce((s, b) => s + b.value, 0),
      5,
    );
    const svg = chartSvg(chart);
    assertWellFormed(svg);
    const bars = barsOf(svg);
    assert.equal(bars.length, bins.length, 'one bar per bin');
    const tallest = Math.max(...bars.map((b) => b.height));
    const peakBin = chart.bars.findIndex((b) => b.value === 2);
    assert.equal(bars[peakBin].height, tallest, 'the bin with two events is the tallest bar');
    assert.match(bars[peakBin].title, /^2026-11-20T10:01:00\.000Z: 2 events$/);
    assert.equal(bars.filter((b) => b.height === 0).length, bins.filter((b) => b.count === 0).length);
  });

  it('draws a statistics table as the bars the renderer shows: one per group, its total as the height', () => {
    const chart = statisticsChart(
      statistics([
        ['web-01', 12],
        ['lt-ana-01', 3],
        ['db-02', 6],
      ]),
    )!;
    assert.deepEqual(chart.bars, [
      { label: 'web-01', value: 12 },
      { label: 'lt-ana-01', value: 3 },
      { label: 'db-02', value: 6 },
    ]);
    const bars = barsOf(chartSvg(chart));
    assert.deepEqual(
      bars.map((b) => b.title),
      ['web-01: 12 $n', 'lt-ana-01: 3 $n', 'db-02: 6 $n'],
    );
    assert.ok(bars[0].height > bars[2].height && bars[2].height > bars[1].height);
    assert.ok(Math.abs(bars[0].height / bars[1].height - 4) < 0.01, 'heights are proportional to the values');
  });

  it('has no chart for a table without a numeric outcome, an empty table or a result without events', () => {
    assert.equal(statisticsChart(statistics([['a', 'x']], false)), undefined);
    assert.equal(statisticsChart(statistics([])), undefined);
    assert.equal(resultsChart(results([])), undefined);
  });

  it('escapes every value: tags, quotes, ampersands and characters XML forbids never reach the markup', () => {
    const hostile = `</text><script>alert(1)</script>"onload="x" & &amp; ]]> \u0000\u0007 \uD800`;
    const chart = statisticsChart(
      statistics([
        [hostile, 5],
        ['ok', 1],
      ]),
    )!;
    const svg = chartSvg({ ...chart, title: hostile });
    assertWellFormed(svg);
    assert.ok(!/<script/i.test(svg) && !/onload="/.test(svg));
    assert.ok(svg.includes('&lt;script&gt;alert(1)&lt;/script&gt;&quot;onload=&quot;x&quot; &amp; &amp;amp;'));
    assert.equal(xmlText('a\u0000b'), 'a\uFFFDb');
  });

  it('stays well-formed for any label and title (property)', () => {
    // Markup characters, characters XML forbids and lone surrogates are drawn often; any other too.
    const char = fc.oneof(
      fc.constantFrom('<', '>', '&', '"', "'", ';', '/', ']', '\u0000', '\u001f', '\uD800', '\uDC00', '\uFFFF'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ label: fc.string({ unit: char, maxLength: 30 }), value: fc.nat(1000) }), {
          minLength: 1,
          maxLength: 20,
        }),
        fc.string({ unit: char, maxLength: 30 }),
        (bars, title) => {
          const chart: BarChart = { title, valueLabel: 'n', bars, omitted: 0 };
          const svg = chartSvg(chart);
          assertWellFormed(svg);
          assert.equal(barsOf(svg).length, bars.length);
        },
      ),
    );
  });

  it('links each chart from the report, next to its query, and returns the SVG files to write', () => {
    const nb: NotebookFile = {
      format: 'cloudbench-udm-notebook',
      version: 1,
      cells: [
        { kind: 'markdown', source: ['# Hunt'] },
        { kind: 'udm', source: ['q1'], output: results([1, 2, 3]) },
        { kind: 'udm', source: ['q2'], output: { kind: 'error', ranAt: 'r', message: 'boom' } },
        {
          kind: 'udm',
          source: ['q3'],
          output: statistics([
            ['a', 1],
            ['b', 2],
          ]),
        },
        { kind: 'udm', source: ['q4'], output: results([]) },
      ],
    };
    const folder = chartFolderName('my hunt (v2)');
    const report = notebookReport(nb, 'my hunt', folder);
    assert.deepEqual(
      report.charts.map((c) => c.file),
      ['query-1.svg', 'query-3.svg'],
    );
    for (const c of report.charts) assertWellFormed(c.svg);
    const links = Array.from(report.markdown.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g), (m) => [m[1], m[2]]);
    assert.deepEqual(links, [
      ['Query 1: Events over time', 'my%20hunt%20%28v2%29-charts/query-1.svg'],
      ['Query 3: \\$n by group', 'my%20hunt%20%28v2%29-charts/query-3.svg'],
    ]);
    // Each image sits under its query's heading, before its table.
    const q1 = report.markdown.indexOf('## Query 1');
    const img1 = report.markdown.indexOf('![Query 1');
    const table1 = report.markdown.indexOf('| Time |');
    assert.ok(q1 < img1 && img1 < table1 && table1 < report.markdown.indexOf('## Query 2'));
    assert.ok(report.markdown.includes('![Query 3: \\$n by group]'));
  });
});
