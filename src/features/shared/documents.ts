// Full events, raw logs and events opened by ID as read-only virtual documents: no save prompt on
// close, titled by the event they show. Contents live in memory for the session (the newest ones).
import * as vscode from 'vscode';
import { scalarText } from '../../core/secops/results/fields';

export const SECOPS_DOCUMENT_SCHEME = 'cloudbench-secops';
/** Documents kept; an older one reopened after that says how to get it back. */
const KEEP = 100;

export class SecOpsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly registration: vscode.Disposable;
  private counter = 0;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SECOPS_DOCUMENT_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ??
      '// This document is no longer held. Open it again from the results (Full event, Raw log) or with "Open Event by ID…".\n'
    );
  }

  /** A read-only document with this title (the tab's name) and extension (its language). */
  uriFor(title: string, extension: 'json' | 'log', content: string): vscode.Uri {
    const name = `${documentName(title)}.${extension}`;
    const uri = vscode.Uri.from({ scheme: SECOPS_DOCUMENT_SCHEME, path: `/${name}`, query: String(++this.counter) });
    this.contents.set(uri.toString(), content);
    while (this.contents.size > KEEP) this.contents.delete(this.contents.keys().next().value as string);
    return uri;
  }

  async open(title: string, extension: 'json' | 'log', content: string): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(this.uriFor(title, extension, content));
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Active });
    return doc;
  }

  dispose(): void {
    this.registration.dispose();
    this.emitter.dispose();
    this.contents.clear();
  }
}

/** A file-name-safe title: no path separators or control characters, at most 120 characters. */
export function documentName(title: string): string {
  const clean =
    [...title]
      .map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '/' || c === '\\' ? ' ' : c))
      .join('')
      .replace(/\s+/g, ' ')
      .trim() || 'event';
  return clean.length > 120 ? `${clean.slice(0, 119)}…` : clean;
}

/** "NETWORK_DNS host-a 2024-05-01T12:00:00Z": what an event is, from its UDM fields. */
export function eventTitle(udm: unknown, fallbackId: string): string {
  const u = (udm ?? {}) as {
    metadata?: { eventType?: unknown; eventTimestamp?: unknown };
    principal?: { hostname?: unknown; ip?: unknown };
    target?: { hostname?: unknown };
  };
  const parts = [
    scalarText(u.metadata?.eventType),
    scalarText(u.principal?.hostname) || (Array.isArray(u.principal?.ip) ? scalarText(u.principal.ip[0]) : ''),
    scalarText(u.target?.hostname) ? `→ ${scalarText(u.target?.hostname)}` : '',
    scalarText(u.metadata?.eventTimestamp).replace(/\.\d+Z$/, 'Z'),
  ].filter(Boolean);
  return parts.length ? parts.join(' ') : `event ${fallbackId.slice(0, 16)}`;
}
