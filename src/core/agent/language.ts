// The offline tools: the editor's own language service (the same analysis, diagnostics, formatter,
// schema and function tables as hover and completion) answering in text an agent can act on.
import { analyze } from '../../udm/index';
import { fieldDescription, enumValueDescription } from '../../udm/field-docs';
import { AGGREGATES, FUNCTIONS, findAggregate, findFunction, RENAMED_FUNCTIONS } from '../../udm/functions';
import { functionDoc, paramDocs } from '../../udm/ide/docs';
import {
  childFields,
  describeType,
  enumName,
  enumValues,
  resolvePath,
  rootFields,
  suggest,
  typeLabel,
  type FieldInfo,
} from '../../udm/schema';
import {
  analyzeRuleFile,
  format as formatUdm,
  formatRefusal,
  formatRule,
  ruleFormatRefusal,
  toLspDiagnostics,
} from '../../udm/service';
import { Answer, clip } from './answer';

export type ToolLanguage = 'udm' | 'yaral';

const SEVERITY: Record<number, string> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };
/** Diagnostics an answer lists at most. */
export const MAX_LISTED_DIAGNOSTICS = 100;
const FORMAT_OPTIONS = { tabSize: 2, insertSpaces: true };

/** Diagnostics of a query or rule: the reference lists are unknown here, so unknown `%name` is a warning. */
function diagnosticsOf(language: ToolLanguage, text: string) {
  const options = { knownLists: new Map(), listsUnavailable: 'the reference lists are not known to this tool' };
  return language === 'udm'
    ? toLspDiagnostics(analyze(text, options))
    : toLspDiagnostics(analyzeRuleFile(text, options));
}

export function checkText(language: ToolLanguage, text: string): string {
  const diagnostics = diagnosticsOf(language, text);
  const errors = diagnostics.filter((d) => d.severity === 1).length;
  const answer = new Answer();
  const kind = language === 'udm' ? 'UDM search' : 'YARA-L rule';
  answer.add(
    diagnostics.length === 0
      ? `The ${kind} has no problems.`
      : `The ${kind} has ${errors} error(s) and ${diagnostics.length - errors} other diagnostic(s). Ranges are line:column, 1-based, end exclusive.`,
  );
  for (const [i, d] of diagnostics.entries()) {
    if (i >= MAX_LISTED_DIAGNOSTICS) {
      answer.add(`… ${diagnostics.length - i} more not listed; fix these first and check again.`);
      break;
    }
    const { start, end } = d.range;
    const message = typeof d.message === 'string' ? d.message : d.message.value;
    const code = d.code !== undefined ? ` [${String(d.code)}]` : '';
    const replacements = (d.data as { replacements?: unknown } | undefined)?.replacements;
    const fix =
      Array.isArray(replacements) && replacements.length
        ? ` Replace with: ${replacements.map((r) => JSON.stringify(clip(String(r), 200))).join(' or ')}.`
        : '';
    const line = `- ${SEVERITY[d.severity ?? 1] ?? 'error'} ${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1}${code}: ${clip(message, 600)}${fix}`;
    if (!answer.add(line)) break;
  }
  return answer.text('fix the first errors and check again');
}

export function formatText(language: ToolLanguage, text: string): string {
  if (language === 'udm') {
    const a = analyze(text);
    const refusal = formatRefusal(a);
    if (refusal) return `${refusal}.`;
    const edits = formatUdm(a, FORMAT_OPTIONS);
    return formattedAnswer(edits.length ? edits[0].newText : text, edits.length === 0);
  }
  const a = analyzeRuleFile(text);
  const refusal = ruleFormatRefusal(a);
  if (refusal) return `${refusal}.`;
  const edits = formatRule(a, FORMAT_OPTIONS);
  return formattedAnswer(edits.length ? edits[0].newText : text, edits.length === 0);
}

function formattedAnswer(text: string, unchanged: boolean): string {
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const head = unchanged ? 'Already formatted; the text is unchanged:' : 'Formatted text:';
  const body = `${head}\n${fence}\n${text}\n${fence}`;
  return body.length <= 200_000 + 100 ? body : 'The formatted text is too long to return.';
}

/** Segments of a path as queries write it: `$e.principal.ip`, `udm.principal.ip`, `principal.ip`. */
function segmentsOf(path: string): string[] {
  const parts = path.trim().split('.').filter(Boolean);
  if (parts[0]?.startsWith('$')) parts.shift();
  if (parts[0] === 'udm') parts.shift();
  return parts;
}

function fieldLine(f: FieldInfo): string {
  const flags = [f.deprecated ? 'deprecated' : '', f.beyondProto ? 'outside the public proto' : ''].filter(Boolean);
  return `- ${f.name}: ${describeType(f)}${flags.length ? ` (${flags.join(', ')})` : ''}`;
}

export function describeField(path: string): string {
  const segments = segmentsOf(path);
  if (segments.length === 0) return 'Give a field path such as "principal.ip"; listFields lists the top-level fields.';
  const resolved = resolvePath(segments);
  if (resolved.errorIndex >= 0) {
    const parent = resolved.errorParentType ? childFields(resolved.errorParentType) : rootFields();
    const bad = segments[resolved.errorIndex];
    const known = segments.slice(0, resolved.errorIndex).join('.');
    const hints = parent ? suggest(bad, parent.keys()) : [];
    const where = known ? `in ${known} (${typeLabel(resolved.errorParentType ?? '')})` : 'at the top of the UDM event';
    return `No field ${JSON.stringify(clip(bad, 100))} ${where}.${hints.length ? ` Did you mean ${hints.map((h) => (known ? `${known}.${h}` : h)).join(', ')}?` : ''}`;
  }
  if (resolved.freeForm) {
    return `${segments.join('.')} is a free-form key under a map or Struct field: any key is accepted and its value is not typed.`;
  }
  const f = resolved.fields[resolved.fields.length - 1];
  const answer = new Answer();
  answer.add(
    `${segments.join('.')}: ${describeType(f)}${f.repeated ? ' (repeated: a condition matches when any element matches)' : ''}${f.deprecated ? ' (deprecated)' : ''}`,
  );
  answer.add(`Declared in ${typeLabel(f.owner)}, JSON name ${f.jsonName}.`);
  const description = fieldDescription(f.owner, f.name);
  if (description) answer.add(`Google's description: ${clip(description, 2000)}`);
  if (f.type === 'timestamp') answer.add('Compare `.seconds` with epoch seconds, or use the timestamp functions.');
  const en = enumName(f.type);
  if (en) {
    answer.add(`Values of ${en}:`);
    for (const [value] of enumValues(en)) {
      const doc = enumValueDescription(en, value);
      if (!answer.add(`- ${value}${doc ? `: ${clip(doc.replace(/\s+/g, ' '), 200)}` : ''}`)) break;
    }
  }
  const children = childFields(f.type);
  if (children) {
    answer.add(`Sub-fields (${children.size}); describe one as ${segments.join('.')}.<name>:`);
    for (const child of children.values()) if (!answer.add(fieldLine(child))) break;
  }
  return answer.text('describe a sub-field instead');
}

export function listFields(path = '', contains = ''): string {
  const segments = segmentsOf(path);
  let fields: Map<string, FieldInfo> | undefined;
  if (segments.length === 0) fields = rootFields();
  else {
    const resolved = resolvePath(segments);
    if (resolved.errorIndex >= 0 || resolved.freeForm) return describeField(path);
    fields = childFields(resolved.fields[resolved.fields.length - 1].type);
    if (!fields) return `${segments.join('.')} has no sub-fields: ${describeField(path)}`;
  }
  const needle = contains.toLowerCase();
  const shown = [...fields.values()].filter((f) => !needle || f.name.toLowerCase().includes(needle));
  const answer = new Answer();
  answer.add(
    `${shown.length} field(s) of ${segments.length ? segments.join('.') : 'the UDM event'}${needle ? ` containing ${JSON.stringify(clip(contains, 100))}` : ''}:`,
  );
  for (const f of shown) if (!answer.add(fieldLine(f))) break;
  return answer.text('filter with "contains" or list a deeper path');
}

export function describeFunction(name: string): string {
  const wanted = name.trim();
  if (!wanted) {
    const names = [...FUNCTIONS.map((f) => f.name), ...AGGREGATES.map((a) => `${a.name} (aggregate)`)];
    return `Functions (${names.length}): ${names.join(', ')}`;
  }
  const fn = findFunction(wanted) ?? findAggregate(wanted);
  if (fn) return clip(`${functionDoc(fn)}${paramDocs(fn)}`, 8000);
  const renamed = Object.hasOwn(RENAMED_FUNCTIONS, wanted) ? RENAMED_FUNCTIONS[wanted] : undefined;
  if (renamed) return `${JSON.stringify(clip(wanted, 100))} is not a UDM function: ${renamed}`;
  const hints = suggest(wanted, [...FUNCTIONS.map((f) => f.name), ...AGGREGATES.map((a) => a.name)]);
  return `No function ${JSON.stringify(clip(wanted, 100))}.${hints.length ? ` Did you mean ${hints.join(', ')}?` : ' Call describeFunction with an empty name to list every function.'}`;
}

/** Runs one of the language tools by its spec name on a validated input. */
export function runLanguageTool(name: string, input: Record<string, unknown>): string {
  switch (name) {
    case 'check':
      return checkText(input.language as ToolLanguage, input.text as string);
    case 'format':
      return formatText(input.language as ToolLanguage, input.text as string);
    case 'describeField':
      return describeField(input.path as string);
    case 'listFields':
      return listFields((input.path as string | undefined) ?? '', (input.contains as string | undefined) ?? '');
    case 'describeFunction':
      return describeFunction(input.name as string);
    default:
      throw new Error(`unknown language tool ${name}`);
  }
}
