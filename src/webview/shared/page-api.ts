// The one handle a page has on VS Code (acquireVsCodeApi, typed by @types/vscode-webview), with the
// page's own message type on postMessage. Outside VS Code (the headless-browser tests that load a
// page without a host) it answers nothing and keeps no state.
import type { WebviewApi } from 'vscode-webview';

export interface PageApi<Message, State = unknown> {
  postMessage(message: Message): void;
  getState(): State | undefined;
  setState(state: State): void;
}

export function pageApi<Message, State = unknown>(): PageApi<Message, State> {
  if (typeof acquireVsCodeApi !== 'function')
    return { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };
  const api: WebviewApi<State> = acquireVsCodeApi<State>();
  return {
    postMessage: (message) => api.postMessage(message),
    getState: () => api.getState(),
    setState: (state) => void api.setState(state),
  };
}

/**
 * Calls `handle` with each message the extension posts that `parse` accepts. A page trusts what it is
 * sent no more than the extension trusts what the page posts, so a message `parse` refuses is dropped.
 */
export function onHostMessage<Message>(parse: (data: unknown) => Message, handle: (message: Message) => void): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    let message: Message;
    try {
      message = parse(event.data);
    } catch {
      return;
    }
    handle(message);
  });
}
