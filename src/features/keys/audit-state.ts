// The last key audit of this window: its report (kept current as keys change here), the age it
// used, and its read-only Markdown document. The tree reads the age to decorate rows.
import * as vscode from 'vscode';
import { DEFAULT_MAX_AGE_DAYS, parseMaxAgeDays, updateReport, type AuditReport } from '../../core/apikeys/audit';
import { formatAuditMarkdown } from '../../core/apikeys/audit-report';
import type { ApiKey } from '../../core/apikeys/types';
import { safeText } from '../../core/display';

export const AUDIT_AGE_SETTING = 'keys.auditMaxAgeDays';

/** cloudbench.keys.auditMaxAgeDays, or 90 (with the reason) when it is not a usable number. */
export function configuredMaxAgeDays(): { days: number; problem?: string } {
  const value = vscode.workspace.getConfiguration('cloudbench').get<unknown>(AUDIT_AGE_SETTING, DEFAULT_MAX_AGE_DAYS);
  const parsed = parseMaxAgeDays(value);
  if ('days' in parsed) return parsed;
  return {
    days: DEFAULT_MAX_AGE_DAYS,
    problem: `cloudbench.${AUDIT_AGE_SETTING} is ${safeText(JSON.stringify(value) ?? String(value), 'plain', 40)}: ${parsed.problem} Using ${DEFAULT_MAX_AGE_DAYS}.`,
  };
}

export class KeyAuditState implements vscode.Disposable {
  private current: AuditReport | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the report changes (a new audit, or a key changed here). */
  readonly onDidChange = this.changed.event;

  constructor(
    /** Keeps the Markdown under a path and returns the URI of its read-only document. */
    private readonly publishDocument: (path: string, text: string) => vscode.Uri,
  ) {}

  get report(): AuditReport | undefined {
    return this.current;
  }

  /** The age the tree decorates with: that of the last audit, none before one ran. */
  get maxAgeDays(): number | undefined {
    return this.current?.maxAgeDays;
  }

  documentPath(report: AuditReport): string {
    return `/key-audit-${report.project.replace(/[^A-Za-z0-9.-]/g, '_')}.md`;
  }

  /** Takes a new report and (re)writes its document; returns the document's URI. */
  set(report: AuditReport): vscode.Uri {
    this.current = report;
    this.changed.fire();
    return this.publishDocument(this.documentPath(report), formatAuditMarkdown(report));
  }

  /** A key changed here (restrictions saved, successor created, deleted): its entry is audited again. */
  keyChanged(key: ApiKey, now: number): void {
    if (!this.current || !key.name.startsWith(`projects/${this.current.project}/`)) return;
    this.set(updateReport(this.current, key, now));
  }

  /** The project or connection changed: the report belongs to another view of the world. */
  clear(): void {
    if (!this.current) return;
    this.current = undefined;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
