// The webview panels of one kind open in a window, one per key (a resource name, a slot). The
// feature that opens them holds this, so a reload or a new connection starts from what it holds.
import type * as vscode from 'vscode';

export class OpenPanels<P extends { readonly panel: vscode.WebviewPanel }> implements vscode.Disposable {
  private readonly open = new Map<string, P>();

  /**
   * The panel of `key`, revealed; or the one `create` makes, kept until it calls the `closed` it
   * was given (when its panel is disposed).
   */
  showOrCreate(key: string, create: (closed: () => void) => P, reveal = (p: P): void => p.panel.reveal()): P {
    const existing = this.open.get(key);
    if (existing) {
      reveal(existing);
      return existing;
    }
    return this.add(key, create);
  }

  /** Keeps the panel `create` makes as the panel of `key` (replacing any other). */
  add(key: string, create: (closed: () => void) => P): P {
    const created: P = create(() => {
      if (this.open.get(key) === created) this.open.delete(key);
    });
    this.open.set(key, created);
    return created;
  }

  get(key: string): P | undefined {
    return this.open.get(key);
  }

  values(): P[] {
    return [...this.open.values()];
  }

  /** Closes the panel of `key`, if open. */
  close(key: string): void {
    this.open.get(key)?.panel.dispose();
  }

  closeAll(): void {
    for (const p of this.values()) p.panel.dispose();
  }

  dispose(): void {
    this.closeAll();
  }
}
