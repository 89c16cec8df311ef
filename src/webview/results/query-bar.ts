// The query bar: a plain textarea until the Monaco bundle (querybar.js) is added, once the table's
// first rows are on screen; querybar.js keeps the textarea's value in step and asks for completions
// and diagnostics through this page, which owns the one VS Code API object.
import { parseFromWebview } from '../../core/secops/messages';
import { el } from '../shared/dom';
import { pageNonce, queryBarScript, queryBarStyle, queryInput } from './layout';
import { post } from './state';

export function setQueryText(text: string): void {
  queryInput.value = text;
  queryInput.rows = Math.min(6, Math.max(1, text.split('\n').length));
  document.dispatchEvent(new CustomEvent('cloudbench:query-text', { detail: text }));
}

export function runQueryBar(): void {
  const query = queryInput.value;
  if (query.trim() === '') {
    queryInput.focus();
    return;
  }
  post({ type: 'runQuery', query });
}

const loading = { started: false };
/** How long the editor waits for the rest of a run's rows before it loads anyway. */
export const REST_WAIT_MS = 3000;
/** Adds the Monaco bundle once; called only when the first rows are on screen (or nothing is coming). */
export function upgradeQueryBar(): void {
  if (loading.started || !queryBarScript) return;
  loading.started = true;
  if (queryBarStyle) head(el('link', { rel: 'stylesheet', href: queryBarStyle }));
  const script = el('script', { src: queryBarScript });
  script.nonce = pageNonce;
  head(script);
}

function head(node: HTMLElement): void {
  document.head.append(node);
}

// querybar.js asks for completions and diagnostics through here: this page owns the one VS Code API
// object, and checks the request like the extension will.
document.addEventListener('cloudbench:querybar-post', (event) => {
  try {
    const message = parseFromWebview((event as CustomEvent<unknown>).detail);
    if (message.type === 'querybar.complete' || message.type === 'querybar.validate' || message.type === 'runQuery')
      post(message);
  } catch (err) {
    console.warn('ignored a malformed query bar request', err);
  }
});
document.addEventListener('cloudbench:querybar-run', () => runQueryBar());
