import type * as vscode from 'vscode';

/** Owns disposables for one feature; disposing it disposes them all, last registered first. */
export class DisposableStore implements vscode.Disposable {
  private items: vscode.Disposable[] = [];
  private disposed = false;

  add<T extends vscode.Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.reverse()) {
      try {
        item.dispose();
      } catch {
        // One failing dispose must not keep the others alive.
      }
    }
    this.items = [];
  }
}

/** Turns a VS Code cancellation token into an AbortSignal for network calls and poll loops. */
export function toAbortSignal(token: vscode.CancellationToken | undefined): AbortSignal | undefined {
  if (!token) return undefined;
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else {
    // The listener goes with the token's source; it is removed at once when it fires.
    const listener = token.onCancellationRequested(() => {
      listener.dispose();
      controller.abort();
    });
  }
  return controller.signal;
}
