// A webview panel as VS Code hands it out, for tests of what the extension posts to a page and how
// it answers the page: the messages as the page takes them (the extension numbers those it posts
// while a page loads and sends them again once the page is ready; a page takes each number once),
// the page's side of the conversation, and the user's close.
import { pageTakes } from './page-takes';

export interface FakeWebviewPanel<M> {
  /** What VS Code's createWebviewPanel returns: hand it to the code under test. */
  webviewPanel: any;
  /** What the page took, in order. */
  posted: M[];
  /** A message from the page to the extension. */
  fromPage(message: unknown): void;
  /** Closes the panel as the user's click on its tab's close button would. */
  close(): void;
  viewType: string;
  title: string;
}

export interface FakeWebviewOptions<M> {
  viewType?: string;
  title?: string;
  /** The page says it is ready as soon as it loads (default: it says nothing until told to). */
  ready?: boolean;
  /** The page says it painted the first rows of each "results" message, as the results page does. */
  painted?: boolean;
  /** Every message as sent, numbered copies sent again included (not as the page takes them). */
  asSent?: boolean;
  /** Called with each message recorded. */
  onPost?: (message: M) => void;
}

export function fakeWebviewPanel<M extends { type: string }>(options: FakeWebviewOptions<M> = {}): FakeWebviewPanel<M> {
  const takes = pageTakes();
  const closed: Array<() => void> = [];
  let page: (message: unknown) => void = () => undefined;
  const fake: FakeWebviewPanel<M> = {
    webviewPanel: undefined,
    posted: [],
    fromPage: (message) => page(message),
    close: () => closed.splice(0).forEach((f) => f()),
    viewType: options.viewType ?? 'cloudbench.test',
    title: options.title ?? '',
  };
  fake.webviewPanel = {
    viewType: fake.viewType,
    webview: {
      cspSource: 'https://webview',
      html: '',
      asWebviewUri: (u: unknown) => u,
      onDidReceiveMessage: (handler: (raw: unknown) => void) => {
        page = handler;
        if (options.ready) queueMicrotask(() => handler({ type: 'ready' }));
        return { dispose() {} };
      },
      postMessage: async (m: M) => {
        if (!options.asSent && !takes(m)) return true;
        fake.posted.push(m);
        options.onPost?.(m);
        const run = (m as { run?: { runId?: string } }).run;
        if (options.painted && m.type === 'results' && run?.runId)
          queueMicrotask(() => page({ type: 'painted', runId: run.runId }));
        return true;
      },
    },
    onDidDispose: (handler: () => void) => {
      closed.push(handler);
      return { dispose() {} };
    },
    reveal() {},
    dispose() {},
    set title(t: string) {
      fake.title = t;
    },
    get title() {
      return fake.title;
    },
    viewColumn: 1,
  };
  return fake;
}
