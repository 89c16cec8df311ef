// Playwright helpers for the VS Code 1.100 workbench served by code-server. Every helper waits on
// a selector or an event; none sleeps.
// The functions handed to evaluate() run in the page.
/* global MutationObserver */
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../../scripts/chromium.mjs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const CONTAINER_TITLE = 'Cloudbench';
export const CONTAINER_SELECTOR = '[id="workbench.view.extension.cloudbench"]';

export async function launchBrowser(home) {
  mkdirSync(join(home, 'browser-config'), { recursive: true });
  mkdirSync(join(home, 'browser-cache'), { recursive: true });
  return chromium.launch({
    executablePath: chromiumExecutable(),
    headless: true,
    args: [...CHROMIUM_ARGS],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(home, 'browser-config'),
      XDG_CACHE_HOME: join(home, 'browser-cache'),
    },
  });
}

export async function newPage(browser, baseUrl) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1200 } });
  // Copy commands go through the async clipboard API, which a headless page only gets when granted.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return page;
}

export function workbenchUrl(baseUrl, folder, payload) {
  const params = new URLSearchParams({ folder });
  if (payload) params.set('payload', JSON.stringify(payload));
  return `${baseUrl}/?${params}`;
}

/** Loads the workbench on `folder` and waits until the extension host put our container in the activity bar. */
export async function openWorkbench(page, baseUrl, folder) {
  await page.goto(workbenchUrl(baseUrl, folder));
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await activityItem(page).waitFor({ timeout: 60_000 });
}

export function activityItem(page, title = CONTAINER_TITLE) {
  return page.locator(`.activitybar a[aria-label^="${title}"]`).first();
}

/** Shows the Cloudbench container (clicking the item when it is not the visible one). */
export async function openContainer(page) {
  const container = page.locator(CONTAINER_SELECTOR);
  if (!(await container.isVisible())) await activityItem(page).click();
  await container.waitFor({ state: 'visible' });
  return container;
}

/** The pane of one view of our container, by its name as package.json gives it. */
export function viewPane(page, name) {
  return page.locator(`${CONTAINER_SELECTOR} .pane`).filter({
    has: page.locator('.pane-header h3.title', { hasText: new RegExp(`^${escapeRegExp(name)}$`, 'i') }),
  });
}

/** Expands a collapsed view pane and returns it. */
export async function expandView(page, name) {
  const pane = viewPane(page, name);
  const header = pane.locator('.pane-header');
  await header.waitFor();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await pane.locator('.pane-body').waitFor({ state: 'visible' });
  return pane;
}

/** A tree row of a view, by (the start of) its label. */
export function treeRow(pane, label) {
  return pane.locator('.monaco-list-row').filter({ hasText: label }).first();
}

/**
 * Runs a command through the palette: `title` as the palette shows it, e.g. "Cloudbench: Show Logs".
 * The palette lists commands by the when-clauses of the moment it opens; a command that needs the
 * focused editor (`editorLangId == udm`) is missing when the palette opened before the editor took
 * focus, so a missing row closes the palette, focuses the active editor and opens it again.
 */
export async function runCommand(page, title, { attempts = 3 } = {}) {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    // Click the matching row: Enter would run whichever row the palette ranks first (a recently used
    // or fuzzier match, such as "Run Selected UDM Query" for "Run UDM Query").
    const row = page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({
        has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }),
      })
      .first();
    try {
      await row.waitFor({ timeout: attempt < attempts ? 10_000 : 30_000 });
    } catch (err) {
      if (attempt >= attempts) throw err;
      await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden' });
      await focusActiveEditor(page);
      continue;
    }
    try {
      await row.click({ timeout: attempt < attempts ? 10_000 : 30_000 });
    } catch (err) {
      // The palette closed under the click (focus taken by a view or a notification): open it again.
      if (attempt >= attempts) throw err;
      await page.keyboard.press('Escape');
      continue;
    }
    return;
  }
}

/** Puts the keyboard focus in the text of the active editor, when there is one. */
export async function focusActiveEditor(page) {
  const editor = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  if (await editor.isVisible()) {
    await editor.click();
    await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor();
  }
}

/** Opens a workspace file through Quick Open (Ctrl+P). */
export async function openFile(page, fileName, { attempts = 3 } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('Control+P');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      const timeout = attempt < attempts ? 10_000 : 30_000;
      await input.fill(fileName, { timeout });
      await page
        .locator(`.quick-input-widget .monaco-list-row[aria-label*="${cssString(fileName)}"]`)
        .first()
        .click({ timeout });
      break;
    } catch (err) {
      // Quick Open closed under the typing (focus taken by a view or a notification): open it again.
      if (attempt >= attempts) throw err;
      await page.keyboard.press('Escape');
    }
  }
  await page.locator('.tabs-container .tab.active', { hasText: fileName }).waitFor();
  // The palette's when-clauses (editorLangId) follow the focused text editor; notebooks have none.
  if (!fileName.endsWith('nb'))
    await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor();
}

/**
 * The quick pick / input box, once it is showing. With `title`, waits until the widget shows that
 * step (multi-step commands reuse the widget, so typing early would land in the previous step).
 */
export async function quickInput(page, title) {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible' });
  if (title) await widget.locator('.quick-input-title', { hasText: title }).waitFor();
  return widget;
}

export async function pickQuickItem(page, labelStart, title) {
  const widget = await quickInput(page, title);
  const row = widget.locator(`.monaco-list-row[aria-label^="${cssString(labelStart)}"]`).first();
  await row.waitFor();
  await row.click();
}

export async function answerInputBox(page, text, title) {
  const widget = await quickInput(page, title);
  const input = widget.locator('input.input');
  await input.fill(text);
  await input.press('Enter');
}

/** The validation message an input box shows under its field. */
export function inputValidation(page) {
  return page.locator('.quick-input-widget .quick-input-message');
}

/** Waits for a toast whose message matches `pattern` and returns its text. */
export async function waitForNotification(page, pattern, { timeout = 30_000 } = {}) {
  const message = page
    .locator('.notification-toast .notification-list-item-message')
    .filter({ hasText: pattern })
    .first();
  await message.waitFor({ timeout });
  return message.innerText();
}

/** Clicks a button of the toast whose message matches `pattern`. */
export async function clickNotificationButton(page, pattern, button) {
  const toast = page
    .locator('.notification-toast')
    .filter({
      has: page.locator('.notification-list-item-message', { hasText: pattern }),
    })
    .first();
  await toast.locator('.monaco-button', { hasText: button }).first().click();
}

/**
 * Test Rule from the CodeLens above the rule in the active editor: `range` picked, the searches
 * agreed to. Returns the consent question as the dialog showed it.
 */
export async function testRuleFromLens(page, range = 'Last 7 days') {
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  const lens = editor.locator('.codelens-decoration a', { hasText: 'Test Rule' }).first();
  await lens.waitFor();
  await lens.click();
  await pickQuickItem(page, range, 'UDM Search Time Range');
  const dialog = await modalDialog(page);
  const question = await dialog.innerText();
  await dialog.locator('.monaco-button', { hasText: 'Run Test' }).click();
  return question;
}

/** The modal dialog (destructive confirmations); returns its locator once visible. */
export async function modalDialog(page) {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible' });
  return dialog;
}

/** The content frame of the visible webview panel. */
export function webviewFrame(page) {
  // Hidden panels keep their iframes; only the visible one is the panel on screen.
  return page.frameLocator('iframe.webview.ready:visible').frameLocator('#active-frame');
}

/**
 * The webview content frame (any panel) in which `selector` shows text matching `pattern`; for
 * commands that open a further panel next to the first one.
 */
export async function findWebviewFrame(page, selector, pattern, { timeout = 30_000 } = {}) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      const text = await frame
        .locator(selector)
        .first()
        .textContent({ timeout: 100 })
        .catch(() => null);
      if (text !== null && pattern.test(text)) return frame;
    }
    await page.waitForEvent('framenavigated', { timeout: 250 }).catch(() => {});
  }
  throw new Error(`no webview shows ${pattern} in ${selector} after ${timeout} ms`);
}

/**
 * Opens the context menu of a tree row and clicks the item labelled `action`. With the row's view
 * `pane`, the row is first scrolled into view the way the tree scrolls (a native scroll would shift
 * the whole workbench and the click would land on another row).
 */
export async function contextMenu(page, row, action, pane) {
  const item = page.getByRole('menuitem', { name: action, exact: true }).first();
  const menu = page.getByRole('menu').first();
  // A tree that is still settling (a refresh, a reveal) can move rows between locating and clicking,
  // so a menu without the wanted item means the click hit another row: close it and try again.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const target = pane ? await revealRow(pane, row) : row;
    const clicked = await target.click({ button: 'right', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (!clicked) continue;
    const found = await item.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (!found) {
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' }).catch(() => {});
      continue;
    }
    await item.hover();
    await item.click();
    // The menu closes when it runs the action; a click it ignored leaves it open with the item
    // focused, and Enter runs it then.
    if (
      !(await menu.waitFor({ state: 'hidden', timeout: 10_000 }).then(
        () => true,
        () => false,
      )) &&
      (await item.isVisible())
    ) {
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'hidden' });
    }
    return;
  }
  throw new Error(`the context menu never offered "${action}"`);
}

/**
 * Brings `row` fully into view. Trees render only the rows in view, so a row further down or up does
 * not exist in the page until the list scrolls to it: scroll down step by step, then up, until it
 * appears, then scroll it clear of the view's edges.
 */
export async function revealRow(pane, row) {
  const page = pane.page();
  const list = pane.locator('.monaco-list').first();
  await list.waitFor();
  const rendered = () =>
    list.evaluate((el) =>
      [...el.querySelectorAll('.monaco-list-row')]
        .map((r) => r.getAttribute('data-index'))
        .sort()
        .join(','),
    );
  const scroll = async (dy) => {
    const before = await rendered();
    await list.hover();
    await page.mouse.wheel(0, dy);
    // Resolves once the list re-rendered; false when it could not scroll any further.
    return list.evaluate(
      (el, was) =>
        new Promise((resolve) => {
          const now = () =>
            [...el.querySelectorAll('.monaco-list-row')]
              .map((r) => r.getAttribute('data-index'))
              .sort()
              .join(',');
          if (now() !== was) return resolve(true);
          const obs = new MutationObserver(() => {
            if (now() !== was) {
              obs.disconnect();
              resolve(true);
            }
          });
          obs.observe(el, { childList: true, subtree: true, attributes: true });
          // A loaded machine can take a while to render; only then is "nothing moved" the end.
          setTimeout(() => {
            obs.disconnect();
            resolve(false);
          }, 3000);
        }),
      before,
    );
  };
  // A tree that refreshes re-renders its rows: when the row vanishes mid-way, look for it again.
  let lastError;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      for (const dy of [120, -120]) {
        for (let step = 0; step < 80 && (await row.count()) === 0; step++) {
          if (!(await scroll(dy))) break;
        }
      }
      const target = row.first();
      await target.waitFor({ timeout: 10_000 });
      // Partly hidden under the view's edge: scroll by the overlap.
      for (let i = 0; i < 5; i++) {
        const r = await target.boundingBox({ timeout: 2_000 });
        const l = await list.boundingBox({ timeout: 2_000 });
        if (!r || !l) throw new Error('the row is not rendered');
        if (r.y + r.height > l.y + l.height) await scroll(r.y + r.height - (l.y + l.height) + 4);
        else if (r.y < l.y) await scroll(r.y - l.y - 4);
        else return target;
      }
      return target;
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

/** Clicks a collapsed tree row to expand it and waits for a child row labelled `childLabel`. */
export async function expandRow(pane, label, childLabel) {
  const row = await revealRow(pane, typeof label === 'string' ? exactRow(pane, label) : label);
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
  if (childLabel) await (await revealRow(pane, exactRow(pane, childLabel))).waitFor();
  return row;
}

/** Runs a view's title-bar action (e.g. "Collapse All", "Refresh Models"). */
export async function viewAction(pane, label) {
  await pane.locator('.pane-header').hover();
  await pane
    .locator(`.pane-header .actions .action-label[aria-label^="${cssString(label)}"]`)
    .first()
    .click();
}

/** Collapses every view of the container except `keep`, so the kept one has room. */
export async function focusView(page, keep) {
  for (const name of ['Models', 'API Keys', 'Operations']) {
    const header = viewPane(page, name).locator('.pane-header');
    await header.waitFor();
    const expanded = (await header.getAttribute('aria-expanded')) === 'true';
    if ((name === keep) !== expanded) await header.click();
  }
  return expandView(page, keep);
}

/** A tree row whose label is exactly `label` (the description may follow). */
export function exactRow(pane, label) {
  return pane
    .locator('.monaco-list-row')
    .filter({
      has: pane.page().locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }),
    })
    .first();
}

/** Sandbox admin call (clock, faults, ingest); no credentials needed. */
export async function sandboxAdmin(sandbox, path, body) {
  const res = await fetch(`${sandbox.http}/sandbox/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`sandbox ${path} answered ${res.status}: ${await res.text()}`);
  return res.json().catch(() => ({}));
}

/** A REST call to the sandbox as a client would make it (any bearer token is accepted). */
export async function sandboxRest(sandbox, method, path, body) {
  const res = await fetch(`${sandbox.http}${path}`, {
    method,
    headers: { authorization: 'Bearer e2e', 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

export function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function cssString(s) {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/**
 * Creates a standard key restricted to one website through the palette's five-step prompt, and
 * waits for the "Created" notification, whose pattern it returns.
 */
export async function createReferrerKey(page, displayName, keyId, referrer) {
  await runCommand(page, 'Cloudbench: Create API Key…');
  await answerInputBox(page, displayName, 'Create API Key (1/5)');
  await answerInputBox(page, keyId, 'Create API Key (2/5)');
  await pickQuickItem(page, 'Standard key', 'Create API Key (3/5)');
  await pickQuickItem(page, 'Websites (HTTP referrers)', 'application restriction');
  await answerInputBox(page, referrer, 'Create API Key (4/5): Websites');
  await answerInputBox(page, '', 'Create API Key (5/5)');
  const created = new RegExp(`Created API key "${displayName}" \\(${keyId}\\)`);
  await waitForNotification(page, created);
  return created;
}
