/* global document */
// The theme colours the accessibility page tests render with (test/reliability/theme-colours.json)
// are the ones the real editor hands its webviews: this scenario opens a Cloudbench page, switches
// the editor to each of VS Code's four default theme kinds (Dark Modern, Light Modern, Dark High
// Contrast, Light High Contrast) and reads the --vscode-* variables and body class the page got.
// It fails when the file no longer matches the editor; CLOUDBENCH_WRITE_THEMES=1 rewrites it.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib/editor.mjs';

export const name = 'theme colours: the page tests use the variables the editor gives webviews';

const FILE = join(ROOT, 'test/reliability/theme-colours.json');
export const THEMES = [
  { kind: 'dark', label: 'Dark Modern', bodyClass: 'vscode-dark' },
  { kind: 'light', label: 'Light Modern', bodyClass: 'vscode-light' },
  { kind: 'hc-dark', label: 'Dark High Contrast', bodyClass: 'vscode-high-contrast' },
  { kind: 'hc-light', label: 'Light High Contrast', bodyClass: 'vscode-high-contrast-light' },
];

/** Every --vscode-* variable the pages' code and styles name (the editor sets hundreds). */
function variablesThePagesUse() {
  const names = new Set(['--vscode-font-family', '--vscode-font-size', '--vscode-editor-font-family']);
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|css)$/.test(entry))
        for (const m of readFileSync(path, 'utf8').matchAll(/--vscode-[A-Za-z0-9-]+/g)) names.add(m[0]);
    }
  };
  walk(join(ROOT, 'src/webview'));
  return [...names].sort();
}

export async function run({ page, wb, log }) {
  await wb.openFile(page, 'logins-per-host.udm');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');
  const frame = await wb.findWebviewFrame(page, '#stats-summary', /Computed by Cloudbench/, { timeout: 90_000 });
  const names = variablesThePagesUse();
  const themes = {};
  for (const theme of THEMES) {
    await wb.runCommand(page, 'Preferences: Color Theme');
    await wb.pickQuickItem(page, theme.label);
    await frame.waitForFunction((cls) => document.body.classList.contains(cls), theme.bodyClass, { timeout: 30_000 });
    const variables = await frame.evaluate((list) => {
      const style = document.documentElement.style;
      return Object.fromEntries(list.map((n) => [n, style.getPropertyValue(n).trim()]).filter(([, v]) => v !== ''));
    }, names);
    const classes = await frame.evaluate(() => [...document.body.classList].filter((c) => c.startsWith('vscode-')));
    themes[theme.kind] = { label: theme.label, bodyClasses: classes, variables };
    log(`${theme.label}: ${Object.keys(variables).length} variables, body ${classes.join(' ')}`);
  }
  if (process.env.CLOUDBENCH_WRITE_THEMES === '1') {
    const { format } = await import('prettier');
    writeFileSync(FILE, await format(JSON.stringify(themes), { parser: 'json', printWidth: 120 }));
    log(`wrote ${FILE}`);
    return;
  }
  if (JSON.stringify(JSON.parse(readFileSync(FILE, 'utf8'))) !== JSON.stringify(themes))
    throw new Error(
      'test/reliability/theme-colours.json differs from the editor: rerun with CLOUDBENCH_WRITE_THEMES=1',
    );
}
