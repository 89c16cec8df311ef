/** Markdown shown by completion and hover: keywords, fields, functions and reference lists. */
import type { AggregateDef, FunctionDef } from '../functions';
import { signatureLabel } from '../functions';
import { fieldDescription } from '../field-docs';
import { contentTypeLabel, type KnownReferenceList } from '../reference-lists';
import { describeType, enumName, enumValues, typeLabel, type FieldInfo } from '../schema';

export const KEYWORD_DOCS: Record<string, string> = {
  AND: 'Both conditions must hold. Conditions on separate lines or side by side are ANDed too.',
  OR: 'Either condition may hold.',
  NOT: 'Negates the condition that follows.',
  nocase: 'Makes the preceding string or regular expression comparison case-insensitive.',
  in: 'Tests the field against a reference list: `field in %list`, `in regex %list`, `in cidr %list`.',
  regex: 'After `in`: each entry of the reference list is a regular expression.',
  cidr: 'After `in`: each entry of the reference list is a CIDR range.',
  any: 'Repeated field: the condition holds when any element matches (the default).',
  all: 'Repeated field: the condition must hold for every element.',
  events: 'Optional header before the filtering statements; it comes first.',
  match: 'Statistics: the placeholders to group events by, e.g. `$host`.',
  outcome: 'Statistics: aggregates per group, e.g. `$event_count = count(metadata.id)`.',
  condition: 'Statistics: keeps the rows whose match: or outcome: variables pass, e.g. `$event_count > 5`.',
  dedup: 'Statistics: keeps the first event per value of the fields or placeholders listed.',
  order: 'Statistics: sorts rows by a match: or outcome: variable, `asc` or `desc`.',
  limit: 'Statistics: the maximum number of rows (1 to 10,000).',
  asc: 'Ascending order.',
  desc: 'Descending order.',
  true: 'Boolean true.',
  false: 'Boolean false.',
};

export function fieldDoc(f: FieldInfo): string {
  const lines = [
    f.beyondProto
      ? `\`${describeType(f)}\` — field of \`${typeLabel(f.owner)}\`, outside the public UDM proto: Google's UDM field list has it and Google's own rules use it`
      : `\`${describeType(f)}\` — field ${f.number} of \`${typeLabel(f.owner)}\``,
  ];
  const description = fieldDescription(f.owner, f.name);
  if (description) lines.unshift(description);
  if (f.jsonName !== f.name) lines.push(`JSON: \`${f.jsonName}\``);
  if (f.repeated) lines.push('Repeated: a condition matches when any element matches.');
  if (f.deprecated) lines.push('**Deprecated.**');
  const en = enumName(f.type);
  if (en) {
    const vals = enumValues(en);
    lines.push(
      `Values: ${vals
        .slice(0, 12)
        .map(([n]) => `\`${n}\``)
        .join(', ')}${vals.length > 12 ? `, … (${vals.length} in all)` : ''}`,
    );
  }
  if (f.type === 'timestamp') lines.push('Compare `.seconds` with epoch seconds.');
  return lines.join('\n\n');
}

/** Hover and completion documentation: signature, return type, where supported, example. */
export function functionDoc(f: FunctionDef | AggregateDef): string {
  const parts: string[] = [];
  if ('googleReturns' in f) {
    const params = f.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.googleType ?? p.type}`);
    if (f.variadic) params.push('...');
    parts.push(`\`\`\`udm\n${f.name}(${params.join(', ')}) → ${f.googleReturns}\n\`\`\``);
    parts.push(`Returns ${f.googleReturns}. Supported in: ${f.where}.`);
    if (f.doc) parts.push(f.doc);
    if (f.example) parts.push(`Example:\n\`\`\`udm\n${f.example}\n\`\`\``);
  } else {
    parts.push(`\`\`\`udm\n${signatureLabel(f)}\n\`\`\``, f.doc);
  }
  return parts.join('\n\n');
}

export function paramDocs(fn: FunctionDef | AggregateDef): string {
  const docs = fn.params.filter((p) => p.doc).map((p) => `- \`${p.name}\`: ${p.doc}`);
  return docs.length ? `\n\n${docs.join('\n')}` : '';
}

export function listDoc(l: KnownReferenceList): string {
  const parts = [
    `**%${l.name}**: ${contentTypeLabel(l.contentType)} reference list, ${l.size} entr${l.size === 1 ? 'y' : 'ies'}`,
  ];
  if (l.description) parts.push(escapeMarkdown(l.description));
  if (l.preview.length) {
    const more = l.size > l.preview.length ? `\n… ${l.size - l.preview.length} more` : '';
    parts.push(`\`\`\`\n${l.preview.map((p) => p.replace(/`/g, "'")).join('\n')}${more}\n\`\`\``);
  }
  if (l.updateTime) parts.push(`Updated ${l.updateTime}`);
  return parts.join('\n\n');
}

export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}
