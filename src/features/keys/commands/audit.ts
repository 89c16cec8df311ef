// Audit Keys: every active key of the project against CIS 1.12-1.15, shown as a read-only report
// and as warnings on the tree's rows; each finding one step from its fix; the report exported as
// Markdown or JSON for a review. Key strings are never read here.
import * as vscode from 'vscode';
import {
  auditKey,
  auditKeys,
  parseMaxAgeDays,
  type AuditFinding,
  type AuditReport,
  type KeyAuditEntry,
} from '../../../core/apikeys/audit';
import { formatAuditJson, formatAuditMarkdown } from '../../../core/apikeys/audit-report';
import type { ApiKey } from '../../../core/apikeys/types';
import { safeText } from '../../../core/display';
import { CancelledError } from '../../../core/google/errors';
import { toAbortSignal } from '../../../platform/disposables';
import { getLogger } from '../../../platform/log';
import { configuredMaxAgeDays } from '../audit-state';
import { explained, requireProject, type KeysContext } from '../context';
import { KeyNode } from '../tree';
import { editKeyRestrictions } from './create';
import { deleteKey } from './lifecycle';
import { rotateKey } from './rotate';

const log = getLogger('keys');

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

async function askMaxAgeDays(): Promise<number> {
  const configured = configuredMaxAgeDays();
  if (configured.problem) void vscode.window.showWarningMessage(configured.problem);
  const answer = await vscode.window.showInputBox({
    title: 'Audit Keys (CIS 1.12-1.15)',
    prompt:
      'Flag keys created this many days ago or earlier as due for rotation (CIS 1.15 asks for 90; the default is the setting cloudbench.keys.auditMaxAgeDays).',
    value: String(configured.days),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const parsed = parseMaxAgeDays(v);
      return 'problem' in parsed ? parsed.problem : undefined;
    },
  });
  if (answer === undefined) throw new CancelledError();
  const parsed = parseMaxAgeDays(answer);
  if ('problem' in parsed) throw new CancelledError();
  return parsed.days;
}

/** Lists every key of the project (deleted ones left out by the audit) and audits them on the service's clock. */
async function runAudit(ctx: KeysContext, project: string, maxAgeDays: number): Promise<AuditReport> {
  return explained(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Auditing API keys', cancellable: true },
      async (progress, token) => {
        const client = ctx.client();
        const keys: ApiKey[] = [];
        for await (const key of client.iterateKeys(project, { signal: toAbortSignal(token)! })) {
          keys.push(key);
          if (keys.length % 50 === 0) progress.report({ message: `${keys.length} keys read` });
        }
        return auditKeys(project, keys, { now: client.serverNow(), maxAgeDays });
      },
    ),
  );
}

async function openReport(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
  await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
}

export async function auditApiKeys(ctx: KeysContext): Promise<void> {
  const project = await requireProject(ctx);
  const maxAgeDays = await askMaxAgeDays();
  const report = await runAudit(ctx, project, maxAgeDays);
  const uri = ctx.audit.set(report);
  ctx.provider.redraw();
  const s = report.summary;
  log.info(
    `audited ${s.keys} keys of ${project} (limit ${maxAgeDays} days): ${s.findings} findings on ${s.keysWithFindings} keys`,
  );
  await openReport(uri);
  if (s.findings === 0) {
    void vscode.window.showInformationMessage(
      `Key audit: none of the ${plural(s.keys, 'active key')} of ${safeText(project)} has a finding.`,
      'Export…',
    );
    return;
  }
  const choice = await vscode.window.showWarningMessage(
    `Key audit: ${plural(s.keysWithFindings, 'key')} of ${s.keys} in ${safeText(project)} ${s.keysWithFindings === 1 ? 'has' : 'have'} ${plural(s.findings, 'finding')} (CIS 1.13-1.15). The keys are marked in the API Keys view.`,
    'Fix…',
    'Export…',
  );
  if (choice === 'Fix…') await fixAuditFinding(ctx);
  else if (choice === 'Export…') await exportKeyAudit(ctx);
}

interface FindingItem extends vscode.QuickPickItem {
  entry: KeyAuditEntry;
  action: 'editRestrictions' | 'rotate' | 'deleteOld';
}

function keyLabel(entry: KeyAuditEntry): string {
  return safeText(entry.displayName || entry.keyId);
}

function findingItem(entry: KeyAuditEntry, f: AuditFinding, withKey: boolean): FindingItem {
  const fix = f.fix === 'rotate' ? '$(sync) Rotate' : '$(edit) Edit Restrictions';
  return {
    label: withKey ? `${keyLabel(entry)}: ${f.title}` : f.title,
    description: `CIS ${f.cis} · ${fix}`,
    detail: safeText(f.detail, 'plain', 300),
    entry,
    action: f.fix,
  };
}

function itemsFor(entries: KeyAuditEntry[], withKey: boolean): FindingItem[] {
  const items: FindingItem[] = [];
  for (const entry of entries) {
    for (const f of entry.findings) items.push(findingItem(entry, f, withKey));
    if (entry.rotatedTo && entry.findings.length > 0)
      items.push({
        label: withKey ? `${keyLabel(entry)}: delete the old key` : 'Delete the old key',
        description: '$(trash) Delete Old Key',
        detail: `Successor ${safeText(entry.rotatedTo)} exists. Delete this key once the successor replaced it everywhere.`,
        entry,
        action: 'deleteOld',
      });
  }
  return items;
}

/** Findings of one key (a tree row's lightbulb) or of the whole report, each running its fix. */
export async function fixAuditFinding(ctx: KeysContext, arg?: unknown): Promise<void> {
  const report = ctx.audit.report;
  if (!report) {
    const choice = await vscode.window.showInformationMessage('No key audit has run in this window.', 'Audit Keys');
    if (choice) await auditApiKeys(ctx);
    return;
  }
  const only = arg instanceof KeyNode ? arg.key.name : undefined;
  // A row is judged on the key it shows (it may be newer than the report).
  const entries =
    arg instanceof KeyNode
      ? [auditKey(arg.key, { now: ctx.provider.current?.now() ?? Date.now(), maxAgeDays: report.maxAgeDays })].filter(
          (k) => k.findings.length > 0,
        )
      : report.keys.filter((k) => k.findings.length > 0);
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(
      only ? 'This key has no audit findings.' : 'The last key audit found nothing to fix.',
    );
    return;
  }
  const picked = await vscode.window.showQuickPick(itemsFor(entries, !only), {
    title: only ? `Audit findings of ${keyLabel(entries[0])}` : `Key audit findings (${report.summary.findings})`,
    placeHolder: 'Choose a finding to fix',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) return;
  if (picked.action === 'editRestrictions') await editKeyRestrictions(ctx, picked.entry.name);
  else if (picked.action === 'rotate') await rotateKey(ctx, picked.entry.name);
  else await deleteKey(ctx, picked.entry.name);
}

/** Saves the last report as Markdown or JSON where the user chooses. */
export async function exportKeyAudit(ctx: KeysContext): Promise<void> {
  const report = ctx.audit.report;
  if (!report) {
    const choice = await vscode.window.showInformationMessage(
      'Run Audit Keys first; its report is what gets exported.',
      'Audit Keys',
    );
    if (choice) await auditApiKeys(ctx);
    return;
  }
  const format = await vscode.window.showQuickPick(
    [
      { label: 'Markdown', description: 'for people: a review or a ticket', ext: 'md' },
      { label: 'JSON', description: `for tools (${report.format})`, ext: 'json' },
    ],
    { title: 'Export Key Audit', placeHolder: 'Format' },
  );
  if (!format) return;
  const day = report.auditedAt.slice(0, 10);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const fileName = `key-audit-${report.project.replace(/[^A-Za-z0-9.-]/g, '_')}-${day}.${format.ext}`;
  const target = await vscode.window.showSaveDialog({
    title: 'Export Key Audit',
    saveLabel: 'Export',
    filters: format.ext === 'md' ? { Markdown: ['md'] } : { JSON: ['json'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
  });
  if (!target) return;
  const text = format.ext === 'md' ? formatAuditMarkdown(report) : formatAuditJson(report);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  log.info(`exported the key audit of ${report.project} as ${format.label}`);
  const open = await vscode.window.showInformationMessage(
    `Exported the key audit (${plural(report.summary.findings, 'finding')}) to ${safeText(target.fsPath || target.path, 'plain', 300)}.`,
    'Open',
  );
  if (open) await vscode.window.showTextDocument(target);
}
