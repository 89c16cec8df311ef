// Rows while the answer arrives, in the real editor: with the sandbox's body slowed (a pause between
// its pieces), the results panel shows rows, in the order they came, under "Arriving… N events so
// far" while the answer is still on its way, with export held until it is complete; then the summary
// gives the count and the rows stand newest first.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'search: rows show while the answer is still arriving, then newest first';

const QUERY = 'metadata.event_type = "USER_LOGIN"';
const ARRIVING = /^Arriving… ([\d,]+) events? so far, in arrival order/;

const count = (text) => Number(text.replace(/,/g, ''));

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  writeFileSync(join(workspace, 'logins-slow.udm'), `${QUERY}\n`);
  await wb.openFile(page, 'logins-slow.udm');
  // The demo answer is several of the sandbox's 64 KB pieces: a pause between them keeps it arriving.
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [{ method: 'secops.udmSearch', bodyChunkDelayMs: 400 }] });
  await wb.focusActiveEditor(page);
  await page.keyboard.press('Control+Enter');

  const results = await wb.findWebviewFrame(page, '#run-summary', ARRIVING, { timeout: 60_000 });
  await results.locator('#grid .row').first().waitFor();
  const during = (await results.locator('#run-summary').innerText()).trim();
  const arrived = count(ARRIVING.exec(during)?.[1] ?? '0');
  if (!(arrived > 0)) throw new Error(`no rows while arriving: "${during}"`);
  const rowsDuring = await results.locator('#grid .row').count();
  if (rowsDuring === 0) throw new Error('the panel says rows arrived but shows none');
  if (!(await results.locator('#export-csv').isDisabled()))
    throw new Error('export is offered while the answer is still arriving');
  await screenshot('arriving');
  log(`while arriving: "${during}", ${rowsDuring} rows on screen`);

  const done = results.locator('#run-summary', { hasText: /^[\d,]+ rows?/ });
  await done.waitFor({ timeout: 60_000 });
  const summary = (await done.innerText()).trim();
  const total = count(/^([\d,]+) rows?/.exec(summary)[1]);
  if (total <= arrived) throw new Error(`the final count ${total} is not above the ${arrived} seen while arriving`);
  if (await results.locator('#export-csv').isDisabled()) throw new Error('export is still held after the answer');

  // Newest first: the time column of the rows on screen never goes up. The grid paints the final
  // order in the frame after the summary: read the rows once two frames have passed.
  await results.evaluate(
    () => new Promise((r) => globalThis.requestAnimationFrame(() => globalThis.requestAnimationFrame(r))),
  );
  const times = (await results.locator('#grid .row').allInnerTexts())
    .map((t) => /\d{4}-\d\d-\d\dT[\d:.]+Z/.exec(t)?.[0])
    .filter(Boolean)
    .map((t) => Date.parse(t));
  if (times.length < 5) throw new Error(`only ${times.length} rows with a time on screen`);
  for (let i = 1; i < times.length; i++)
    if (times[i] > times[i - 1])
      throw new Error(
        `not newest first at row ${i}: ${new Date(times[i - 1]).toISOString()} then ${new Date(times[i]).toISOString()}`,
      );
  await screenshot('complete');
  log(`complete: "${summary.split('\n')[0]}", ${times.length} rows on screen newest first`);
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [] });
}
