// Every Cloudbench webview page is built here, so each one gets the same locked-down shape:
// `default-src 'none'`, scripts only by a fresh nonce, resources only from dist/webview and media.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';

/** Options for createWebviewPanel: scripts on, resources limited to the bundles and media. */
export function webviewPanelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    // The pages hold state (a form being edited, 10,000 rows) that is expensive or impossible to rebuild.
    retainContextWhenHidden: true,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
  };
}

export interface WebviewPage {
  /** Bundle name: dist/webview/<bundle>.js and .css. */
  bundle: string;
  /** Page title; escaped here. */
  title: string;
  /** Static markup shown until the script runs; never built from data. */
  placeholder?: string;
  /** Extra attributes on the script tag (already escaped by the caller). */
  scriptAttributes?: string;
  /**
   * Allows inline styles (scripts still need the nonce), for a page hosting an editor that writes
   * its own <style> elements at run time.
   */
  inlineStyles?: boolean;
  /**
   * Keeps the messages that arrive before the page's script has run (window.takeEarlyMessages
   * hands them over): VS Code may deliver what was posted while the page loaded at any moment
   * after the document starts, and a listener added by the bundle would miss those.
   */
  earlyMessages?: boolean;
  /**
   * Puts the bundle's script and styles in the page itself (still run only by the nonce) instead of
   * linking them: a webview's first page of a session fetches each file through its service worker,
   * which costs a page shown as a run's first step about 50 ms before its script can run.
   */
  inlineBundle?: boolean;
}

const bundleTexts = new Map<string, string | undefined>();

/** A bundle file's text, safe inside an HTML element (`</tag` and `<!--` escaped), or undefined. */
function inlineText(extensionUri: vscode.Uri, name: string, closing: 'script' | 'style'): string | undefined {
  const path = vscode.Uri.joinPath(extensionUri, 'dist', 'webview', name).fsPath;
  if (!bundleTexts.has(path)) {
    let text: string | undefined;
    try {
      const raw = readFileSync(path, 'utf8').replace(/\n\/[/*]# sourceMappingURL=[^\n]*\s*$/, '\n');
      // The same code and rules, written so that the HTML parser never sees the element end early.
      text =
        closing === 'script'
          ? raw.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--')
          : raw.replace(/<\/style/gi, '<\\/style');
    } catch {
      text = undefined;
    }
    bundleTexts.set(path, text);
  }
  return bundleTexts.get(path);
}

/** The inline script (run by its nonce like any other) that keeps the messages of a loading page. */
const EARLY_MESSAGES_SCRIPT =
  '(function(){var kept=[];function keep(e){kept.push(e.data)}addEventListener("message",keep);' +
  'window.takeEarlyMessages=function(){removeEventListener("message",keep);return kept.splice(0)}})();';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function webviewAsset(webview: vscode.Webview, extensionUri: vscode.Uri, name: string): string {
  return webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', name)).toString();
}

export function renderWebviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
  const nonce = randomBytes(16).toString('base64');
  const script = page.inlineBundle ? inlineText(extensionUri, `${page.bundle}.js`, 'script') : undefined;
  const styles = page.inlineBundle ? inlineText(extensionUri, `${page.bundle}.css`, 'style') : undefined;
  const csp = [
    `default-src 'none'`,
    // A nonce in style-src would switch 'unsafe-inline' off: a page allowing inline styles needs none.
    page.inlineStyles
      ? `style-src ${webview.cspSource} 'unsafe-inline'`
      : `style-src ${webview.cspSource}${styles !== undefined ? ` 'nonce-${nonce}'` : ''}`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${page.earlyMessages ? `<script nonce="${nonce}">${EARLY_MESSAGES_SCRIPT}</script>\n` : ''}${
    styles !== undefined
      ? `<style nonce="${nonce}">${styles}</style>`
      : `<link rel="stylesheet" href="${webviewAsset(webview, extensionUri, `${page.bundle}.css`)}">`
  }
<title>${escapeHtml(page.title)}</title>
</head>
<body>
${page.placeholder ?? ''}
${
  script !== undefined
    ? `<script nonce="${nonce}"${page.scriptAttributes ?? ''}>${script}</script>`
    : `<script nonce="${nonce}" src="${webviewAsset(webview, extensionUri, `${page.bundle}.js`)}"${page.scriptAttributes ?? ''}></script>`
}
</body>
</html>`;
}

/**
 * Hands the page's messages to `handle` once `parse` has checked them. A message that fails the
 * check (an error of `malformed`) is logged and dropped: nothing acts on it.
 */
export function onPageMessage<M>(
  webview: vscode.Webview,
  what: string,
  parse: (raw: unknown) => M,
  malformed: abstract new (...args: never[]) => Error,
  log: { warn(message: string): void },
  handle: (message: M) => void,
): vscode.Disposable {
  return webview.onDidReceiveMessage((raw: unknown) => {
    let message: M;
    try {
      message = parse(raw);
    } catch (err) {
      log.warn(`ignored a malformed message from ${what}: ${err instanceof malformed ? err.message : String(err)}`);
      return;
    }
    handle(message);
  });
}
