// The key audit as documents for a review: Markdown (every value from the service escaped: display
// names are whatever a key's owner typed) and JSON (the report as data). Neither can hold a key
// string: the report entries have no field for one.
import { safeText } from '../display';
import { AUDIT_RULES, type AuditFinding, type AuditReport, type AuditRule, type KeyAuditEntry } from './audit';

const FIX_WORDS: Record<AuditFinding['fix'], string> = {
  editRestrictions: 'Edit Restrictions',
  rotate: 'Rotate Key',
};

function md(value: string | number | undefined, max = 200): string {
  return safeText(value, 'markdown', max);
}

function keyLabel(entry: KeyAuditEntry): string {
  return entry.displayName ? `${md(entry.displayName)} (${md(entry.keyId)})` : md(entry.keyId);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function summaryLines(report: AuditReport): string[] {
  const s = report.summary;
  const lines = [
    `${plural(s.keys, 'active key')} audited; ${plural(s.keysWithFindings, 'key')} with ${plural(s.findings, 'finding')}` +
      (report.deletedSkipped ? `; ${plural(report.deletedSkipped, 'deleted key')} left out.` : '.'),
    '',
    '| CIS | Check | Keys |',
    '|---|---|---|',
  ];
  for (const [rule, meta] of Object.entries(AUDIT_RULES) as Array<[AuditRule, (typeof AUDIT_RULES)[AuditRule]]>)
    lines.push(`| ${meta.cis} | ${md(meta.title)} | ${s.byRule[rule]} |`);
  return lines;
}

function keySection(entry: KeyAuditEntry): string[] {
  const lines = [`### ${keyLabel(entry)}`, ''];
  const facts = [`Resource: ${md(entry.name, 400)}`];
  facts.push(
    `Created: ${entry.createTime ? md(entry.createTime, 60) : 'unknown'}${entry.ageDays !== undefined ? ` (${plural(entry.ageDays, 'day')} ago)` : ''}`,
  );
  if (entry.serviceAccountEmail) facts.push(`Bound to: ${md(entry.serviceAccountEmail)}`);
  if (entry.rotatedTo) facts.push(`Successor: ${md(entry.rotatedTo)}; delete this key once the successor replaced it.`);
  lines.push(...facts.map((f) => `- ${f}`), '');
  for (const f of entry.findings)
    lines.push(`- **CIS ${f.cis} · ${md(f.title)}**: ${md(f.detail, 1200)} Fix: ${FIX_WORDS[f.fix]}.`);
  lines.push('');
  return lines;
}

/** The report as Markdown: summary, then one section per key with findings, then the clean keys. */
export function formatAuditMarkdown(report: AuditReport): string {
  const flagged = report.keys.filter((k) => k.findings.length > 0);
  const clean = report.keys.filter((k) => k.findings.length === 0);
  const lines = [
    `# API key audit: ${md(report.project)}`,
    '',
    `${report.benchmark}. Audited ${md(report.auditedAt, 40)} (service time); rotation limit ${plural(report.maxAgeDays, 'day')}.`,
    '',
    ...summaryLines(report),
    '',
    '## CIS 1.12',
    '',
    `API keys should exist only for services that are in use and have no other way to authenticate. This project has ${plural(report.summary.keys, 'active key')}: confirm each one is still used, and delete the others.`,
    '',
    `## Keys with findings (${flagged.length})`,
    '',
  ];
  if (flagged.length === 0) lines.push('None.', '');
  for (const entry of flagged) lines.push(...keySection(entry));
  lines.push(`## Keys without findings (${clean.length})`, '');
  if (clean.length === 0) lines.push('None.');
  for (const entry of clean)
    lines.push(
      `- ${keyLabel(entry)}${entry.ageDays !== undefined ? `, ${plural(entry.ageDays, 'day')} old` : ''}${entry.rotatedTo ? `, rotated to ${md(entry.rotatedTo)}` : ''}`,
    );
  lines.push('');
  return lines.join('\n');
}

/** The report as JSON for a review or a tool. */
export function formatAuditJson(report: AuditReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
