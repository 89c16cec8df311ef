// "Export Notebook as Markdown" with attacker-controlled event values and a notebook file whose kept
// data (time range, run times, notes, error text, column names) was edited by someone else: the
// report is rendered the way Markdown viewers render it (marked, GFM) and must hold no element that
// came from the data, and no line that the same notebook with harmless values would not have.
import { strict as assert } from 'node:assert';
import { marked } from 'marked';
import { keepResults, keepStatistics, notebookToMarkdown, type NotebookFile } from '../../../src/core/notebook/format';
import { notebookReport } from '../../../src/features/notebooks/report';

const PAYLOADS = [
  '<img src=https://evil.example/track.png>',
  '[Reset your password](https://evil.example/login)',
  '<script>alert(1)</script>',
  'line one\nline two\r\n# Injected heading\n\n| a | b |\n| - | - |',
  'pipe | in | value',
  '`code` **bold** _em_ ~~strike~~ $x$',
  'https://evil.example/bare www.evil.example attacker@evil.example',
  '<https://evil.example/auto> <command:workbench.action.terminal.new>',
  '![pixel](https://evil.example/p.png)',
  '[ref][1]\n\n[1]: https://evil.example/ref',
  '&lt;b&gt;entity&lt;/b&gt; &amp;',
  '    indented code',
  '- list item',
  '1. ordered',
  '> quote',
  '---',
  '\u202egnp.exe',
];

function notebook(value: (i: number) => string): NotebookFile {
  const events = PAYLOADS.map((_, i) => ({
    name: `events/${i}`,
    udm: {
      metadata: { id: `id-${i}`, eventTimestamp: '2026-11-20T10:00:00Z', eventType: value(i) },
      principal: { hostname: value(i), ip: [value(i)] },
      target: { hostname: value(i) },
      securityResult: [{ action: ['BLOCK'], summary: value(i) }],
    },
  }));
  const window = { start: value(0), end: value(1) };
  return {
    format: 'cloudbench-udm-notebook',
    version: 1,
    timeRange: { kind: 'custom', start: value(3), end: value(1) },
    cells: [
      {
        kind: 'udm',
        source: ['principal.hostname = "x"'],
        output: keepResults(
          { ranAt: value(2), durationMs: 5, query: 'q', window, moreDataAvailable: false, events },
          1_000,
        ),
      },
      { kind: 'udm', source: ['bad'], output: { kind: 'error', ranAt: value(3), message: value(3) } },
      {
        kind: 'udm',
        source: ['q\nmatch:\n  principal.hostname'],
        output: keepStatistics(
          {
            ranAt: value(7),
            durationMs: 5,
            query: 'q',
            window,
            eventsFetched: 3,
            searches: 1,
            partial: value(3),
            warnings: [value(4)],
            timeZone: 'UTC',
            columns: [
              { name: value(1), role: 'key', type: 'string' },
              { name: value(0), role: 'outcome', type: 'number' },
            ],
            rows: PAYLOADS.map((_, i) => [value(i), i]),
          },
          1_000,
        ),
      },
    ],
  };
}

const hostile = notebook((i) => PAYLOADS[i % PAYLOADS.length]);
const harmless = notebook((i) => `value${i}`);

function html(markdown: string): string {
  return marked.parse(markdown, { async: false, gfm: true });
}

/** The shape of the rendered report: its elements, without their text. */
function elements(rendered: string): string[] {
  return [...rendered.matchAll(/<([a-z][a-z0-9]*)\b[^>]*>/gi)].map((m) => m[1].toLowerCase());
}

describe('notebook Markdown export of hostile data', () => {
  const md = notebookToMarkdown(hostile, '[Reset](https://evil.example) <img src=x>\n# title');
  const safe = notebookToMarkdown(harmless, 'title');

  it('renders no link, image, HTML or markup from the data', () => {
    const rendered = html(md);
    // The report's own markup (fenced queries, italic notes, the quoted error) is compared with the
    // harmless notebook below; these never belong to it.
    for (const tag of ['a', 'img', 'script', 'del', 'ol', 'ul', 'hr', 'h3', 'input', 'iframe']) {
      assert.ok(!elements(rendered).includes(tag), `<${tag}> in\n${rendered}`);
    }
    assert.ok(!/<(a|img)\b/i.test(rendered), rendered);
  });

  it('the data adds no line and no element: the same shape as with harmless values', () => {
    assert.equal(md.split('\n').length, safe.split('\n').length);
    assert.deepEqual(elements(html(md)), elements(html(safe)));
  });

  it('keeps every value readable', () => {
    const text = html(md)
      .replace(/<[^>]+>/g, '')
      .replaceAll('\u200b', '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
    assert.ok(text.includes('<img src=https://evil.example/track.png>'), text);
    assert.ok(text.includes('[Reset your password](https://evil.example/login)'), text);
    assert.ok(text.includes('pipe | in | value'), text);
    assert.ok(text.includes('&lt;b&gt;entity&lt;/b&gt; &amp;'), text);
  });

  it('the chart image links of the report stay image links to the chart folder only', () => {
    const report = notebookReport(hostile, 'hunt', 'hunt-charts');
    const rendered = html(report.markdown);
    const images = [...rendered.matchAll(/<img [^>]*src="([^"]*)"/g)].map((m) => m[1]);
    assert.ok(images.length > 0);
    for (const src of images) assert.match(src, /^hunt-charts\/query-\d+\.svg$/);
    assert.ok(!/<a /.test(rendered), rendered);
  });
});
