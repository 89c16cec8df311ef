/* global document, getComputedStyle */
// The search results panel with the keyboard only: a query opened with Quick Open and run with
// Ctrl+Enter, the panel reached with Ctrl+2, then Tab through its controls (each one showing where
// the focus is, the query bar never keeping Tab), a filter typed and cleared, the table's rows
// walked with the arrow keys, Home and End, an event opened with Enter, a column sorted from its
// header, and Escape closing the event's detail and giving the keyboard back to the table. No
// mouse event is sent to the page.
export const name = 'keyboard: the results panel with the keyboard only';

/** What has the focus in the panel, and whether it is drawn so a sighted user sees it. */
function focusState() {
  const active = document.activeElement;
  const visible = (node) => {
    for (let el = node, depth = 0; el && depth < 4; el = el.parentElement, depth++) {
      const style = getComputedStyle(el);
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return true;
      // Fields show focus with their border in the focus colour (the query bar, the filter).
      const focusBorder = getComputedStyle(document.documentElement).getPropertyValue('--vscode-focusBorder').trim();
      if (el.matches(':focus-within') && focusBorder && style.borderTopColor !== 'rgba(0, 0, 0, 0)') {
        const probe = document.createElement('span');
        probe.style.color = focusBorder;
        document.body.append(probe);
        const wanted = getComputedStyle(probe).color;
        probe.remove();
        if (style.borderTopColor === wanted) return true;
      }
    }
    return false;
  };
  return {
    id: active?.id ?? '',
    tag: active?.tagName.toLowerCase() ?? '',
    label: active?.getAttribute('aria-label') ?? active?.textContent?.trim().slice(0, 30) ?? '',
    visible: active && active !== document.body ? visible(active) : true,
    inQueryBar: !!active?.closest('#query-host'),
    inDetail: !!active?.closest('#detail'),
    detailOpen: document.getElementById('detail')?.classList.contains('visible') ?? false,
    activeRow: document.getElementById(active?.getAttribute('aria-activedescendant') ?? '')?.dataset.pos ?? '',
  };
}

export async function run({ page, wb, log }) {
  // Quick Open, the query, Ctrl+Enter.
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type('failed-logins.udm');
  await page.locator('.quick-input-widget .monaco-list-row[aria-label*="failed-logins.udm"]').first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor();
  await page.keyboard.press('Control+Enter');
  const panel = await wb.findWebviewFrame(page, '#run-summary', /\d/, { timeout: 90_000 });
  await panel.locator('#grid .row').first().waitFor({ timeout: 60_000 });
  const rowCount = await panel.locator('#viewport').getAttribute('aria-rowcount');

  // Ctrl+2: the second editor group, where the results opened beside the query.
  await page.keyboard.press('Control+2');
  await panel.waitForFunction(() => document.hasFocus());
  const state = () => panel.evaluate(focusState);

  // Tab through the controls to the table; each stop shows its focus.
  const stops = [];
  let sawFilter = false;
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const s = await state();
    stops.push(s.id || s.tag);
    if (!s.visible) throw new Error(`the focus on ${s.id || s.tag} ("${s.label}") is not visible`);
    if (s.id === 'filter' && !sawFilter) {
      sawFilter = true;
      await page.keyboard.type('zz-no-such-value-zz');
      await panel.locator('#count', { hasText: /^0 of [\d,]+ rows/ }).waitFor();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await panel.locator('#count', { hasText: /^0 of [\d,]+ rows/ }).waitFor({ state: 'detached' });
      log('filter typed and cleared from the keyboard');
    }
    if (s.id === 'viewport') break;
  }
  log(`Tab stops: ${stops.join(' → ')}`);
  if (stops.at(-1) !== 'viewport') throw new Error(`Tab never reached the table: ${stops.join(' → ')}`);
  if (!sawFilter) throw new Error('Tab never reached the filter');
  if (!stops.includes('query-input') && !stops.some((id) => id === 'textarea'))
    log('(the query bar was not a Tab stop before the table)');

  // The arrow keys, Home and End move the selected row; the grid names it for a screen reader.
  const expectRow = async (pos) => {
    await panel.waitForFunction(
      (p) => document.getElementById('viewport')?.getAttribute('aria-activedescendant')?.endsWith(`-${p}`),
      pos,
    );
    const s = await state();
    if (s.id !== 'viewport' || s.activeRow !== String(pos))
      throw new Error(`expected row ${pos} selected on the focused table, got ${JSON.stringify(s)}`);
  };
  await page.keyboard.press('ArrowDown');
  await expectRow(0);
  await page.keyboard.press('ArrowDown');
  await expectRow(1);
  await page.keyboard.press('ArrowUp');
  await expectRow(0);
  await page.keyboard.press('End');
  await expectRow(Number(rowCount) - 2);
  await page.keyboard.press('Home');
  await expectRow(0);
  log(`rows walked with the arrow keys, Home and End (${Number(rowCount) - 1} rows)`);

  // Enter opens the event; Tab reaches a column header, Enter sorts by it.
  await page.keyboard.press('Enter');
  await panel.locator('#detail.visible #detail-tree').waitFor();
  await page.keyboard.press('Tab');
  const header = await state();
  if (header.tag !== 'button' || !(await panel.locator('#grid-header :focus').count()))
    throw new Error(`Tab from the table went to ${JSON.stringify(header)}, not a column header`);
  await page.keyboard.press('Enter');
  await panel.locator('#grid-header [aria-sort="ascending"]').waitFor();
  log(`sorted by "${header.label}" from the keyboard`);

  // On into the event's detail, then Escape: the detail closes and the table has the keyboard again.
  let inDetail;
  for (let i = 0; i < 30 && !inDetail?.inDetail; i++) {
    await page.keyboard.press('Tab');
    inDetail = await state();
    if (!inDetail.visible) throw new Error(`the focus on ${inDetail.id || inDetail.tag} is not visible`);
  }
  if (!inDetail?.inDetail) throw new Error('Tab never reached the event detail');
  await page.keyboard.press('Escape');
  await panel.locator('#detail.visible').waitFor({ state: 'detached' });
  const after = await state();
  if (after.id !== 'viewport') throw new Error(`after Escape the focus is on ${after.id || after.tag}, not the table`);
  log('Escape closed the detail and gave the keyboard back to the table');
}
