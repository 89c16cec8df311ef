// The query bar: a plain textarea until the Monaco bundle (querybar.js) is added, once the table's
// first rows are on screen; querybar.js keeps the textarea's value in step and completes and checks
// in the page. This page owns the one VS Code API object: it asks the extension for the reference
// lists when the editor starts loading and hands each checked update to querybar.js.
import type { QueryBarLists } from '../../core/secops/querybar-service';
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
  // While the editor's bundle loads, the lists are on their way.
  post({ type: 'querybar.watchLists' });
  if (queryBarStyle) head(el('link', { rel: 'stylesheet', href: queryBarStyle }));
  const script = el('script', { src: queryBarScript });
  script.nonce = pageNonce;
  head(script);
}

function head(node: HTMLElement): void {
  document.head.append(node);
}

/** The latest lists the extension sent (checked by parseToWebview), for querybar.js once it runs. */
let lists: QueryBarLists | undefined;

export function setQueryBarLists({ referenceLists, knownLists, listsUnavailable }: QueryBarLists): void {
  lists = {
    ...(referenceLists ? { referenceLists } : {}),
    ...(knownLists ? { knownLists } : {}),
    ...(listsUnavailable !== undefined ? { listsUnavailable } : {}),
  };
  document.dispatchEvent(new CustomEvent('cloudbench:querybar-lists', { detail: lists }));
}

// querybar.js listens for lists before it says it is ready: it gets those that came before it.
document.addEventListener('cloudbench:querybar-ready', () => {
  if (lists) setQueryBarLists(lists);
});
document.addEventListener('cloudbench:querybar-run', () => runQueryBar());
