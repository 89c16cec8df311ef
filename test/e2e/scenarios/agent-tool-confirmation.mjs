// Agent tools' confirmations in the real editor. A test-only extension (fixtures/tool-driver) calls
// vscode.lm.invokeTool outside any chat request, as another extension or an agent host may; VS Code
// 1.100 then asks the tool's prepareInvocation confirmation itself, as a modal dialog (the title as
// its message, the Markdown message as plain text below). The scenario reads the dialog as a user
// does: runSearch names the query, the time range and the udmSearch calls it spends; Cancel spends
// nothing and the call comes back cancelled; Yes spends exactly one udmSearch and answers rows.
// The same for testRule over a time range, whose rule has two event variables: one search each,
// spent only after Yes.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'agent tools: runSearch and testRule ask before spending searches (modal, Cancel, Yes)';

const DRIVER_COMMAND = 'E2E Driver: Invoke Language Model Tool';

async function udmSearches(sandbox) {
  const state = await sandbox.state();
  return state.calls?.['secops.udmSearch'] ?? 0;
}

/** Seconds-precision RFC 3339 text, as Cloudbench writes times. */
const rfc3339 = (ms) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  const dir = join(workspace, '.e2e-driver');
  mkdirSync(dir, { recursive: true });
  let serial = 0;

  /** Starts a tool call through the driver; returns a function that waits for its answer. */
  const invoke = async (tool, input) => {
    const id = `call-${++serial}`;
    const answerFile = join(dir, `answer-${id}.json`);
    rmSync(answerFile, { force: true });
    writeFileSync(join(dir, 'request.json'), JSON.stringify({ id, tool, input }));
    await wb.runCommand(page, DRIVER_COMMAND);
    return async () => {
      const deadline = Date.now() + 90_000;
      while (!existsSync(answerFile)) {
        if (Date.now() > deadline) throw new Error(`${tool}: no answer within 90 s`);
        await page.waitForTimeout(200);
      }
      return JSON.parse(readFileSync(answerFile, 'utf8'));
    };
  };

  /** The confirmation dialog's text once it shows, and the dialog itself. */
  const confirmation = async () => {
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    const text = (await dialog.innerText()).replace(/\s+/g, ' ');
    return { dialog, text };
  };

  const press = async (dialog, button) => {
    const buttons = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((b) => b.trim());
    if (!buttons.includes(button)) throw new Error(`the dialog has no "${button}" button (buttons: ${buttons})`);
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^${button}$`) }).click();
    await dialog.waitFor({ state: 'hidden' });
  };

  const expectIn = (text, pattern, what) => {
    if (!pattern.test(text)) throw new Error(`${what}: expected ${pattern} in "${text}"`);
  };

  // 1. runSearch: the dialog names the query, the time range and the search it spends.
  const query = 'metadata.event_type = "USER_LOGIN"';
  const searchInput = { query, timeRange: { preset: '7d' }, rows: 3 };
  const before = await udmSearches(sandbox);
  let answer = await invoke('cloudbench_runSearch', searchInput);
  let shown = await confirmation();
  await screenshot('runsearch-confirmation');
  log(`runSearch asks: ${shown.text}`);
  expectIn(shown.text, /Run a UDM search for the agent\?/, 'the dialog title');
  expectIn(shown.text, new RegExp(wb.escapeRegExp(query)), 'the query');
  const range = /over (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) – (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)/.exec(shown.text);
  if (!range) throw new Error(`the dialog names no time range: "${shown.text}"`);
  const days = (Date.parse(range[2]) - Date.parse(range[1])) / 86_400_000;
  if (days !== 7) throw new Error(`the dialog's range is ${days} days, not the 7 asked for`);
  expectIn(shown.text, /It spends 1 udmSearch call of the \d+ left this hour \(\d+ an hour\)\./, 'the searches spent');

  // Cancel: nothing is searched and the call comes back cancelled, the tool never run.
  await press(shown.dialog, 'Cancel');
  let result = await answer();
  log(`after Cancel: ${JSON.stringify(result)}`);
  if (result.ok) throw new Error(`runSearch answered after Cancel: ${result.text.slice(0, 300)}`);
  expectIn(`${result.name} ${result.message}`, /Cancel/i, 'the cancelled call');
  if ((await udmSearches(sandbox)) !== before) throw new Error('Cancel still spent a udmSearch');

  // Yes: exactly one udmSearch, and the answer has rows.
  answer = await invoke('cloudbench_runSearch', searchInput);
  shown = await confirmation();
  await press(shown.dialog, 'Yes');
  result = await answer();
  if (!result.ok) throw new Error(`runSearch failed after Yes: ${result.message}`);
  log(`runSearch answered: ${result.text.split('\n').slice(0, 3).join(' | ')}`);
  expectIn(result.text, /udmSearch returned [1-9]\d* event\(s\)/, 'the runSearch answer');
  expectIn(result.text, /By event type: USER_LOGIN \d+/, 'the runSearch answer');
  const spent = (await udmSearches(sandbox)) - before;
  if (spent !== 1) throw new Error(`runSearch spent ${spent} udmSearch calls after Yes, not 1`);

  // 2. testRule over a time range: one search per event variable ($dns, $http), only after Yes.
  const end = rfc3339(Date.now());
  const start = rfc3339(Date.parse(end) - 7 * 86_400_000);
  const ruleInput = { ruleFile: 'rules/ioc_lookup_then_web_request.yaral', timeRange: { start, end } };
  const beforeRule = await udmSearches(sandbox);
  answer = await invoke('cloudbench_testRule', ruleInput);
  shown = await confirmation();
  await screenshot('testrule-confirmation');
  log(`testRule asks: ${shown.text}`);
  expectIn(shown.text, /Search events to test a rule for the agent\?/, 'the dialog title');
  expectIn(shown.text, /Test the rule "ioc_lookup_then_web_request"/, 'the rule');
  expectIn(shown.text, new RegExp(`over ${start} – ${end}`), 'the time range');
  expectIn(shown.text, /It spends 2 udmSearch calls of the \d+ left this hour/, 'the searches spent');
  expectIn(shown.text, /One search per event variable: \$dns, \$http\./, 'the event variables');
  await press(shown.dialog, 'Cancel');
  result = await answer();
  if (result.ok) throw new Error(`testRule answered after Cancel: ${result.text.slice(0, 300)}`);
  expectIn(`${result.name} ${result.message}`, /Cancel/i, 'the cancelled call');
  if ((await udmSearches(sandbox)) !== beforeRule) throw new Error('Cancel still spent a udmSearch');

  answer = await invoke('cloudbench_testRule', ruleInput);
  shown = await confirmation();
  await press(shown.dialog, 'Yes');
  result = await answer();
  if (!result.ok) throw new Error(`testRule failed after Yes: ${result.message}`);
  log(`testRule answered: ${result.text.split('\n')[0]}`);
  expectIn(
    result.text,
    new RegExp(
      `ioc_lookup_then_web_request: \\d+ detection\\(s\\) over \\d+ event\\(s\\) from udmSearch over ${start}`,
    ),
    'the testRule answer',
  );
  const ruleSpent = (await udmSearches(sandbox)) - beforeRule;
  if (ruleSpent !== 2) throw new Error(`testRule spent ${ruleSpent} udmSearch calls after Yes, not 2`);
}
