// Hostile event data in the real results panel: events whose fields hold HTML, script, javascript:
// links, an RTL override and a 1 MB string are ingested into the sandbox, searched for, and shown.
// Nothing from them may run, the panel must stay usable, and a link opens only after the editor's
// modal confirmation (which is dismissed here).
// The functions handed to frame.evaluate run in the webview page.
/* global window, document */
export const name = 'hostile: script, links, RTL and 1 MB strings in search results';

const MARK = 'HOSTILE_E2E';
const PAYLOADS = [
  '<img src=x onerror="window.__pwned=\'img\'">',
  '<script>window.__pwned="script"</script>',
  '"><svg onload="window.__pwned=\'svg\'">',
  "javascript:window.__pwned='js'",
  '\u202egnp.exe',
];

function events(now) {
  const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const list = PAYLOADS.map((payload, i) => ({
    metadata: {
      eventTimestamp: iso(now - (i + 1) * 60_000),
      eventType: 'NETWORK_HTTP',
      productName: MARK,
      description: payload,
    },
    principal: { hostname: payload, ip: ['10.9.9.9'] },
    target: { hostname: `target-${i}`, url: payload },
  }));
  list.push({
    metadata: {
      eventTimestamp: iso(now - 10 * 60_000),
      eventType: 'NETWORK_HTTP',
      productName: MARK,
      description: 'W'.repeat(1 << 20),
    },
    principal: { hostname: 'H'.repeat(1 << 20) },
    target: { hostname: 'link-host', url: 'https://example.com/hostile-e2e?q=1' },
  });
  return list;
}

export async function run({ page, wb, sandbox, log }) {
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  // Earlier scenarios may have advanced the sandbox clock past real time, while the search's time
  // range ends at the editor's "now": place the events before both.
  const sandboxNow = Date.parse((await (await fetch(`${sandbox.http}/sandbox/v1/state`)).json()).now);
  const state = await wb.sandboxAdmin(sandbox, 'events:ingest', { events: events(Math.min(Date.now(), sandboxNow)) });
  log(`ingested: ${JSON.stringify(state)}`);

  await wb.runCommand(page, 'Cloudbench: New UDM Query');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines', { hasText: /metadata/ }).waitFor();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(`metadata.product_name = "${MARK}"`);
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');

  const frame = await wb.findWebviewFrame(page, '#run-title', new RegExp(MARK), { timeout: 60_000 });
  // Rows arrive in two messages (the first screenful, then the rest): wait for the last one.
  await frame.locator('#grid .row').nth(PAYLOADS.length).waitFor({ timeout: 60_000 });
  const rowCount = await frame.locator('#grid .row:visible').count();
  if (rowCount < PAYLOADS.length + 1) throw new Error(`${rowCount} rows shown, expected ${PAYLOADS.length + 1}`);

  // Open every row's detail: the detail tree is where long and nested values are rendered.
  for (let i = 0; i < PAYLOADS.length + 1; i++) {
    await frame.locator(`#grid .row[data-pos="${i}"]`).click();
    await frame.locator('#detail.visible').waitFor();
  }
  const page$ = await frame.evaluate(() => ({
    pwned: window.__pwned,
    handlers: Array.from(document.querySelectorAll('*')).flatMap((n) =>
      Array.from(n.attributes)
        .filter((a) => /^on/i.test(a.name))
        .map((a) => `${n.tagName}.${a.name}`),
    ),
    injected: document.querySelectorAll('body img, body svg[onload], body iframe, body script:not([nonce])').length,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    text: document.getElementById('grid').innerText,
  }));
  if (page$.pwned !== undefined) throw new Error(`an injected payload ran: ${page$.pwned}`);
  if (dialogs.length) throw new Error(`dialogs opened: ${dialogs.join(' | ')}`);
  if (page$.handlers.length) throw new Error(`event-handler attributes in the page: ${page$.handlers.join(', ')}`);
  if (page$.injected) throw new Error(`${page$.injected} elements were created from event data`);
  if (page$.scrollWidth > page$.innerWidth + 1)
    throw new Error(`the panel scrolls sideways: ${page$.scrollWidth} > ${page$.innerWidth}`);
  if (!page$.text.includes('<script>') || page$.text.includes('\u202e') || !page$.text.includes('U+202E')) {
    throw new Error('payloads are not shown as plain text with the RTL override made visible');
  }
  log(`${rowCount} hostile rows rendered as text; nothing ran`);

  // The javascript: url offers no link; the https one asks the editor, which asks the user.
  const jsRow = PAYLOADS.findIndex((p) => p.startsWith('javascript:'));
  await frame
    .locator(`#grid .row`)
    .filter({ hasText: 'target-' + jsRow })
    .first()
    .click();
  if (await frame.locator('#detail [data-action="open-link"]').count())
    throw new Error('a javascript: url is offered as a link');
  await frame.locator('#grid .row').filter({ hasText: 'link-host' }).first().click();
  await frame.locator('#detail [data-action="open-link"]').first().click();
  const dialog = await wb.modalDialog(page);
  await dialog.filter({ hasText: 'https://example.com/hostile-e2e?q=1' }).waitFor();
  await dialog.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
  await dialog.waitFor({ state: 'hidden' });
  log('https link asked for confirmation (dismissed)');
}
