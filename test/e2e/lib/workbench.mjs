// Playwright helpers for the VS Code 1.100 workbench served by code-server. Every helper waits on
// a selector or an event; none sleeps.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const CONTAINER_TITLE = 'Cloudbench';
export const CONTAINER_SELECTOR = '[id="workbench.view.extension.cloudbench"]';

export async function launchBrowser(home) {
  mkdirSync(join(home, 'browser-config'), { recursive: true });
  mkdirSync(join(home, 'browser-cache'), { recursive: true });
  return chromium.launch({
    executablePath: process.env.CLOUDBENCH_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(home, 'browser-config'),
      XDG_CACHE_HOME: join(home, 'browser-cache'),
    },
  });
}

export async function newPage(browser, baseUrl) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
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

/** Runs a command through the palette: `title` as the palette shows it, e.g. "Cloudbench: Show Logs". */
export async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator(`.quick-input-widget .monaco-list-row[aria-label^="${cssString(title)}"]`).first().waitFor();
  await input.press('Enter');
}

/** The quick pick / input box, once it is showing (e.g. a command's prompt). */
export async function quickInput(page) {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible' });
  return widget;
}

export async function pickQuickItem(page, labelStart) {
  const widget = await quickInput(page);
  const row = widget.locator(`.monaco-list-row[aria-label^="${cssString(labelStart)}"]`).first();
  await row.waitFor();
  await row.click();
}

export async function answerInputBox(page, text) {
  const widget = await quickInput(page);
  const input = widget.locator('input');
  await input.fill(text);
  await input.press('Enter');
}

/** Waits for a toast whose message matches `pattern` and returns its text. */
export async function waitForNotification(page, pattern, { timeout = 30_000 } = {}) {
  const message = page.locator('.notification-toast .notification-list-item-message').filter({ hasText: pattern }).first();
  await message.waitFor({ timeout });
  return message.innerText();
}

/** Clicks a button of the toast whose message matches `pattern`. */
export async function clickNotificationButton(page, pattern, button) {
  const toast = page.locator('.notification-toast').filter({
    has: page.locator('.notification-list-item-message', { hasText: pattern }),
  }).first();
  await toast.locator('.monaco-button', { hasText: button }).first().click();
}

/** The modal dialog (destructive confirmations); returns its locator once visible. */
export async function modalDialog(page) {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible' });
  return dialog;
}

/** The content frame of the visible webview panel. */
export function webviewFrame(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** Opens the context menu of a tree row and clicks the item labelled `action`. */
export async function contextMenu(page, row, action) {
  await row.click({ button: 'right' });
  const item = page.locator('.context-view .action-item .action-label', { hasText: action }).first();
  await item.waitFor();
  await item.click();
}

export function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function cssString(s) {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
