import { strict as assert } from 'node:assert';
import { marked } from 'marked';
import { DISPLAY_LIMIT, safeText, markdownCode } from '../../../src/core/display';

// VS Code's grammar for links in notification messages, progress titles and dialogs
// (src/vs/base/common/linkedText.ts, unchanged from 1.50 to 1.100).
const LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
// How quick picks, status items and window progress find `$(icon)` (iconLabels.ts).
const ICON = /(\\)?\$\(([a-z.\d-]+(?:~[a-z\d-]*)?)\)/gi;

const LINK_FORMS = [
  '[Show key](command:workbench.action.terminal.new)',
  '[Show key](command:workbench.action.terminal.new "Open")',
  "[Show key](command:workbench.action.terminal.new 'Open')",
  '[Reset your password](https://evil.example/login)',
  '[r](HTTPS://EVIL.EXAMPLE)',
  '[passwd](file:///etc/passwd)',
  '[a](command:_workbench.downloadResource?%5B%22https%3A%2F%2Fevil%22%5D)',
  '[[nested](command:x)](command:y)',
  'plain [a](command:x) then [b](https://evil.example)',
  '[a]\n(command:x)',
  '[a]\u200b(command:x)',
  '[a]\u202e(command:x)',
  '<command:workbench.action.terminal.new>',
  '<https://evil.example/login>',
  '[Reset][1]\n\n[1]: https://evil.example/login',
  '[Reset]\n\n[Reset]: https://evil.example/login',
  'command:workbench.action.terminal.new',
  'https://evil.example/login',
  'www.evil.example/login',
  'mail attacker@evil.example',
  '<img src=https://evil.example/track.png>',
  '<a href="command:workbench.action.terminal.new">x</a>',
  '$(alert) [a](command:x)',
  '![tracker](https://evil.example/track.png)',
];

function linkedTextLinks(text: string): string[] {
  return [...text.matchAll(LINKED_TEXT)].map((m) => m[0]);
}

function renderedLinks(markdown: string): string[] {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return [...html.matchAll(/<(a|img|script)\b[^>]*>/gi)].map((m) => m[0]);
}

describe('safeText', () => {
  for (const form of LINK_FORMS) {
    it(`leaves no link VS Code renders in ${JSON.stringify(form)}`, () => {
      const plain = safeText(form);
      assert.deepEqual(linkedTextLinks(plain), [], plain);
      assert.deepEqual([...plain.matchAll(ICON)], [], plain);
      assert.ok(!/[\r\n\u202e]/.test(plain), plain);
      const md = safeText(form, 'markdown');
      assert.deepEqual(renderedLinks(md), [], md);
      // Inside a larger Markdown document too (a tooltip is several appended pieces).
      assert.deepEqual(renderedLinks(`**Key**\n\n${md}\n\n${md}`), []);
    });
  }

  it('the unescaped forms are links, so the checks above can fail', () => {
    assert.equal(linkedTextLinks(LINK_FORMS[0]).length, 1);
    assert.equal(linkedTextLinks(LINK_FORMS[3]).length, 1);
    for (const form of ['<command:x>', 'https://evil.example', 'www.evil.example', '[a][1]\n\n[1]: https://e.example'])
      assert.ok(renderedLinks(form).length > 0, form);
  });

  it('shows and copies a name exactly as it is, unless it would be a link or an icon where it is shown', () => {
    const names = [
      'docs https://example.com/keys',
      'www.example.com frontend',
      'alice@example.com',
      'cost [USD] (monthly)',
      'a](b) and $(not an icon',
      'mailto:ops command:x file:y',
      '<https://example.com>',
    ];
    for (const name of names) {
      assert.equal(safeText(name), name, 'plain');
      // Rendered Markdown (a tooltip) reads as the name, with nothing invisible added to copy.
      const html = marked.parse(safeText(name, 'markdown'), { async: false, gfm: true });
      assert.deepEqual(renderedLinks(html), [], html);
      const text = html
        .replace(/<\/?p>|\n/g, '')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&')
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'");
      assert.equal(text, name, 'markdown');
    }
    for (const form of LINK_FORMS) {
      const html = marked.parse(safeText(form, 'markdown'), { async: false, gfm: true });
      assert.ok(!html.includes('\u200b'), `no invisible character in the rendered ${JSON.stringify(form)}`);
    }
  });

  it('reads the same once the invisible breaks are taken out', () => {
    const name = '[Show key](command:workbench.action.terminal.new)';
    assert.equal(safeText(name).replaceAll('\u200b', ''), name);
    const md = marked.parse(safeText(name, 'markdown'), { async: false });
    assert.equal(md.replace(/<\/?p>|\n/g, '').replaceAll('\u200b', ''), name);
  });

  it('puts everything on one line without control, bidi or invisible characters', () => {
    assert.equal(safeText('a\nb\r\nc\td\u2028e\u0085f'), 'a b c d e f');
    assert.equal(safeText('x\u0000\u0007\u001b[31m\u007fy'), 'x[31my');
    assert.equal(safeText('admin\u202e\u2066txt.exe\u2069\u200f'), 'admintxt.exe');
    assert.equal(safeText('\ufeffzero\u200bwidth\u2060'), 'zerowidth');
    assert.equal(safeText('👩‍💻 ok'), '👩‍💻 ok');
  });

  it('bounds the length without splitting a character', () => {
    assert.equal(Array.from(safeText('x'.repeat(10_000))).length, DISPLAY_LIMIT);
    assert.equal(safeText('a'.repeat(5_000_000), 'plain', 3), 'aa…');
    assert.equal(safeText('😀😀😀😀', 'plain', 3), '😀😀…');
    assert.equal(safeText('short'), 'short');
    assert.equal(safeText(undefined), '');
    assert.equal(safeText(42), '42');
  });

  it('escapes every Markdown character for a MarkdownString', () => {
    const html = marked.parse(safeText('**bold** _i_ `code` # h <b>x</b> &amp; | a', 'markdown'), { async: false });
    assert.ok(!/<(strong|em|code|h1|b)>/.test(html), html);
    assert.ok(html.includes('&amp;amp;'), html);
  });
  it('starts no block in Markdown: heading, list, quote, code, rule or setext underline', () => {
    for (const line of [
      '# h',
      '- item',
      '+ item',
      '* item',
      '1. one',
      '2) two',
      '    code',
      '> quote',
      '---',
      '===',
      '***',
    ]) {
      const rendered = marked.parse(`Title\n${safeText(line, 'markdown')}`, { async: false });
      assert.equal(rendered.replace(/<\/?p>|\n/g, '').replaceAll('&gt;', '>'), `Title${line.trim()}`, line);
      assert.ok(/^<p>[^<]*<\/p>\n$/.test(rendered), `${line}: ${rendered}`);
    }
  });
});

describe('markdownCode', () => {
  it('keeps backticks inside the code', () => {
    const hostile = 'a ``` b\n```\n[x](https://evil.example)\n````';
    const html = marked.parse(`Query:${markdownCode(hostile, true, 'udm')}`, { async: false });
    assert.deepEqual(renderedLinks(html), []);
    assert.equal((html.match(/<pre>/g) ?? []).length, 1, html);
    const span = marked.parse(`Resource: ${markdownCode('a`[x](https://evil.example)`b')}`, { async: false });
    assert.deepEqual(renderedLinks(span), []);
    assert.equal((span.match(/<code>/g) ?? []).length, 1, span);
  });
});
