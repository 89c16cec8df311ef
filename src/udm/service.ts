/**
 * Editor features over the UDM library: completion, hover, signature help, formatting, semantic
 * tokens, folding and quick fixes. Results use the LSP data types (plain JSON, no `vscode`).
 */
import {
  type CodeAction,
  CodeActionKind,
  type CompletionItem,
  CompletionItemKind,
  type Diagnostic,
  DocumentSymbol,
  SymbolKind,
  DiagnosticSeverity,
  DiagnosticTag,
  type FoldingRange,
  FoldingRangeKind,
  type Hover,
  InsertTextFormat,
  MarkupKind,
  type SignatureHelp,
  TextEdit,
  type Range,
} from 'vscode-languageserver-types';
import type { OutcomeItem, Section, SectionKind } from './ast';
import { fieldPathOf } from './check';
import { IF_FUNCTION, findConditional } from './conditional';
import {
  AGGREGATES,
  FUNCTIONS,
  FUNCTION_NAMESPACES,
  findAggregate,
  findFunction,
  signatureLabel,
  type AggregateDef,
  type FunctionDef,
} from './functions';
import { analyze, type Analysis, type CompileOptions, type UdmDiagnostic } from './index';
import type { Token } from './lexer';
import {
  contentTypeLabel,
  knownFromEntries,
  type KnownReferenceList,
  type KnownReferenceLists,
} from './reference-lists';
import {
  childFields,
  describeType,
  enumName,
  enumValues,
  resolvePath,
  rootFields,
  typeLabel,
  valueKind,
  type FieldInfo,
} from './schema';

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
  match: 'Statistics: the placeholders to group events by, e.g. `$host`.',
  outcome: 'Statistics: aggregates per group, e.g. `$count = count(metadata.id)`.',
  order: 'Statistics: sorts rows by a match: or outcome: variable, `asc` or `desc`.',
  limit: 'Statistics: the maximum number of rows (1 to 10,000).',
  asc: 'Ascending order.',
  desc: 'Descending order.',
  true: 'Boolean true.',
  false: 'Boolean false.',
};

const SECTION_KEYWORDS: readonly SectionKind[] = ['match', 'outcome', 'condition', 'dedup', 'order', 'limit'];

const SECTION_SNIPPETS: Record<string, string> = {
  match: 'match:\n  ${1:principal.hostname}',
  outcome: 'outcome:\n  \\$${1:count} = ${2:count}(${3:metadata.id})',
  condition: 'condition:\n  \\$${1:count} > ${2:5}',
  dedup: 'dedup:\n  ${1:target.hostname}',
  order: 'order:\n  \\$${1:count} ${2|desc,asc|}',
  limit: 'limit:\n  ${1:100}',
};

// ---- documents ---------------------------------------------------------------------------------

/** Keeps one analysis per document version so every feature reuses the same parse. */
export class UdmDocument {
  private cached: Analysis | undefined;
  constructor(
    public text: string,
    public version: number,
    private options: CompileOptions = {},
  ) {}

  update(text: string, version: number): void {
    this.text = text;
    this.version = version;
    this.cached = undefined;
  }

  setOptions(options: CompileOptions): void {
    this.options = options;
    this.cached = undefined;
  }

  get analysis(): Analysis {
    if (!this.cached) this.cached = analyze(this.text, this.options);
    return this.cached;
  }
}

// ---- diagnostics -------------------------------------------------------------------------------

export function toLspDiagnostics(a: Analysis): Diagnostic[] {
  return a.diagnostics.map(toLspDiagnostic);
}

export function toLspDiagnostic(d: UdmDiagnostic): Diagnostic {
  const diag: Diagnostic = {
    range: d.range,
    message: d.message,
    severity:
      d.severity === 'error'
        ? DiagnosticSeverity.Error
        : d.severity === 'warning'
          ? DiagnosticSeverity.Warning
          : DiagnosticSeverity.Information,
    source: 'udm',
  };
  if (d.code) diag.code = d.code;
  if (d.data !== undefined) diag.data = d.data;
  if (d.code === 'deprecated') diag.tags = [DiagnosticTag.Deprecated];
  if (d.code === 'never-matches') diag.tags = [DiagnosticTag.Unnecessary];
  return diag;
}

export function codeActions(a: Analysis, uri: string, range: Range): CodeAction[] {
  const start = a.lines.offset(range.start);
  const end = a.lines.offset(range.end);
  const out: CodeAction[] = [];
  for (const d of a.diagnostics) {
    if (d.offset > end || d.offset + d.length < start) continue;
    const data = d.data as { replacements?: string[] } | undefined;
    if (!data?.replacements?.length) continue;
    data.replacements.forEach((r, i) => {
      const diag = toLspDiagnostic(d);
      const action: CodeAction = {
        title: d.code === 'timestamp-seconds' ? `Compare ${r}` : `Change to ${r}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diag],
        edit: { changes: { [uri]: [TextEdit.replace(d.range, r)] } },
      };
      if (i === 0) action.isPreferred = true;
      out.push(action);
    });
  }
  return out;
}

// ---- token helpers -----------------------------------------------------------------------------

/** Index of the last token that starts before `offset` (eof excluded), or -1. */
function tokenIndexBefore(tokens: Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length - 2; // skip eof
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].start < offset) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

function inComment(a: Analysis, offset: number): boolean {
  for (const c of a.parse.comments) {
    if (
      offset > c.start &&
      (offset < c.end || (offset === c.end && c.value.startsWith('//')) || (offset === c.end && c.error))
    )
      return true;
    if (c.start >= offset) break;
  }
  return false;
}

function sectionAt(a: Analysis, offset: number): Section | undefined {
  let found: Section | undefined;
  for (const s of a.parse.query.sections) if (s.keyword.start < offset) found = s;
  return found;
}

const isWord = (t: Token | undefined, w: string): boolean => !!t && t.kind === 'ident' && t.value.toLowerCase() === w;

interface PathAtCursor {
  /** segments before the one being typed */
  prefix: string[];
  /** partially typed segment */
  partial: string;
  /** replace range start offset for the partial segment */
  replaceStart: number;
  /** index of the first token of the path */
  firstToken: number;
}

/** The dotted path that ends at the cursor, if the cursor is typing one. */
function pathAtCursor(a: Analysis, offset: number): PathAtCursor | undefined {
  const { tokens } = a.parse;
  let i = tokenIndexBefore(tokens, offset);
  if (i < 0) return undefined;
  let t = tokens[i];
  let partial = '';
  let replaceStart = offset;
  if (t.kind === 'ident' && t.end >= offset) {
    partial = a.text.slice(t.start, offset);
    replaceStart = t.start;
    i--;
  } else if (t.kind === 'dot' && t.end === offset) {
    // `metadata.|`
  } else return undefined;
  const prefix: string[] = [];
  let first = i + 1;
  while (i >= 0) {
    t = tokens[i]!;
    const nextStart = i + 1 < tokens.length ? tokens[i + 1].start : offset;
    if (t.kind !== 'dot' || t.end !== (prefix.length === 0 && partial === '' ? offset : nextStart)) break;
    const id = tokens[i - 1];
    if (!id || id.kind !== 'ident' || id.end !== t.start) break;
    prefix.unshift(id.value);
    first = i - 1;
    i -= 2;
  }
  if (prefix.length === 0 && partial === '') return undefined;
  return { prefix, partial, replaceStart, firstToken: first };
}

// ---- completion --------------------------------------------------------------------------------

function fieldDoc(f: FieldInfo): string {
  const lines = [`\`${describeType(f)}\` — field ${f.number} of \`${typeLabel(f.owner)}\``];
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

function fieldItems(fields: Map<string, FieldInfo>, range: Range): CompletionItem[] {
  const items: CompletionItem[] = [];
  for (const f of fields.values()) {
    const kind = valueKind(f.type);
    const container = kind === 'message';
    const item: CompletionItem = {
      label: f.name,
      kind: container
        ? CompletionItemKind.Module
        : kind === 'enum'
          ? CompletionItemKind.Enum
          : CompletionItemKind.Field,
      detail: describeType(f),
      documentation: { kind: MarkupKind.Markdown, value: fieldDoc(f) },
      textEdit: TextEdit.replace(range, f.name),
      sortText: `${f.deprecated ? '9' : '1'}${f.name}`,
    };
    if (f.deprecated) item.tags = [1];
    if (container) item.command = { title: 'Suggest', command: 'editor.action.triggerSuggest' };
    items.push(item);
  }
  return items;
}

function functionItem(f: FunctionDef | AggregateDef, range: Range, label = f.name): CompletionItem {
  const hasParams = f.params.length > 0;
  return {
    label,
    kind: CompletionItemKind.Function,
    detail: signatureLabel(f),
    documentation: { kind: MarkupKind.Markdown, value: functionDoc(f) },
    insertTextFormat: InsertTextFormat.Snippet,
    textEdit: TextEdit.replace(range, `${label}(${paramSnippet(f)})$0`),
    command: hasParams ? { title: 'Signature help', command: 'editor.action.triggerParameterHints' } : undefined,
    sortText: `3${label}`,
  };
}

/**
 * The function's item, and for a function with optional parameters a second one, `name(…)`,
 * whose snippet has a tab stop for every parameter, the optional ones included.
 */
function functionItems(f: FunctionDef | AggregateDef, range: Range, label = f.name): CompletionItem[] {
  const item = functionItem(f, range, label);
  if (!f.params.some((p) => p.optional)) return [item];
  const all: CompletionItem = {
    ...item,
    label: `${label}(…)`,
    filterText: label,
    detail: `${item.detail ?? ''} (with the optional parameters)`,
    textEdit: TextEdit.replace(range, `${label}(${paramSnippet(f, true)})$0`),
    sortText: `3${label}~`,
  };
  return [item, all];
}

/** `${1:text}, ${2:cutset}`: the parameters as tab stops (the optional ones only when asked for). */
function paramSnippet(f: FunctionDef | AggregateDef, withOptional = false): string {
  const params = withOptional ? f.params : f.params.filter((p) => !p.optional);
  return params.map((p, i) => `\${${i + 1}:${p.name.replace(/[$}\\]/g, '')}}`).join(', ');
}

/** Hover and completion documentation: signature, return type, where supported, example. */
function functionDoc(f: FunctionDef | AggregateDef): string {
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

function keywordItem(label: string, range: Range, sort = '5'): CompletionItem {
  return {
    label,
    kind: CompletionItemKind.Keyword,
    textEdit: TextEdit.replace(range, label),
    documentation: KEYWORD_DOCS[label] ?? KEYWORD_DOCS[label.toLowerCase()],
    sortText: `${sort}${label}`,
  };
}

function operatorItems(kind: string, range: Range, repeatedOrString: boolean): CompletionItem[] {
  const ops: Array<[string, string]> = [];
  if (kind === 'number' || kind === 'unknown')
    ops.push(
      ['=', 'equals'],
      ['!=', 'differs'],
      ['>', 'greater than'],
      ['>=', 'at least'],
      ['<', 'less than'],
      ['<=', 'at most'],
    );
  else if (kind === 'string' || kind === 'bytes')
    ops.push(['=', 'equals (case-sensitive; add nocase to ignore case)'], ['!=', 'differs']);
  else ops.push(['=', 'equals'], ['!=', 'differs']);
  const items: CompletionItem[] = ops.map(([op, doc], i) => ({
    label: op,
    kind: CompletionItemKind.Operator,
    detail: doc,
    textEdit: TextEdit.replace(range, op),
    sortText: `0${i}`,
  }));
  if (kind === 'string' || kind === 'unknown' || repeatedOrString) {
    items.push(
      {
        label: 'in %list',
        kind: CompletionItemKind.Keyword,
        detail: 'value is in a reference list',
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: TextEdit.replace(range, 'in %$1'),
        sortText: '10',
      },
      {
        label: 'in regex %list',
        kind: CompletionItemKind.Keyword,
        detail: 'matches a regex in a reference list',
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: TextEdit.replace(range, 'in regex %$1'),
        sortText: '11',
      },
      {
        label: 'in cidr %list',
        kind: CompletionItemKind.Keyword,
        detail: 'IP in a CIDR range of a reference list',
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: TextEdit.replace(range, 'in cidr %$1'),
        sortText: '12',
      },
      {
        label: 'not in %list',
        kind: CompletionItemKind.Keyword,
        detail: 'value is not in a reference list',
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: TextEdit.replace(range, 'not in %$1'),
        sortText: '13',
      },
    );
  }
  return items;
}

function placeholderNames(a: Analysis): string[] {
  return [...a.check.placeholders.keys()];
}

function outcomeItems(a: Analysis): OutcomeItem[] {
  return a.parse.query.sections.flatMap((s) => (s.kind === 'outcome' ? s.outcomes : []));
}

function outcomeNames(a: Analysis): string[] {
  return outcomeItems(a).map((o) => o.variable.name);
}

/** Facts about the field (or placeholder) that ends at token index `i`, if any. */
function fieldBefore(a: Analysis, i: number): { kind: string; type: string; repeated: boolean } | undefined {
  const { tokens } = a.parse;
  const t = tokens[i];
  if (!t) return undefined;
  if (t.kind === 'variable') {
    const def = a.check.placeholders.get(t.value);
    if (def?.value.type === 'field') {
      const f = a.check.facts.get(def.value);
      if (f) return { kind: f.kind, type: f.type, repeated: f.repeated };
    }
    return { kind: 'unknown', type: 'unknown', repeated: false };
  }
  if (t.kind === 'rbracket') return { kind: 'string', type: 'string', repeated: false };
  if (t.kind !== 'ident') return undefined;
  const segs: string[] = [t.value];
  let j = i - 1;
  while (
    j >= 1 &&
    tokens[j].kind === 'dot' &&
    tokens[j - 1].kind === 'ident' &&
    tokens[j - 1].end === tokens[j].start &&
    tokens[j].end === tokens[j + 1].start
  ) {
    segs.unshift(tokens[j - 1].value);
    j -= 2;
  }
  if (
    segs.length === 1 &&
    ['and', 'or', 'not', 'in', 'nocase', 'regex', 'cidr', 'true', 'false'].includes(t.value.toLowerCase())
  )
    return undefined;
  const path = segs.length > 1 && segs[0] === 'udm' ? segs.slice(1) : segs;
  const r = resolvePath(path);
  if (r.errorIndex >= 0) return undefined;
  const last = r.fields[r.fields.length - 1];
  if (!last) return undefined;
  return {
    kind: r.freeForm ? 'unknown' : valueKind(last.type),
    type: r.freeForm ? 'unknown' : last.type,
    repeated: r.fields.some((f) => f.repeated),
  };
}

/** Reference lists for completion: names, or what is known of them (type, size, description). */
export type ListsForCompletion = readonly (string | KnownReferenceList)[];

function listItems(lists: ListsForCompletion, range: Range): CompletionItem[] {
  return lists.map((l) => {
    const name = typeof l === 'string' ? l : l.name;
    const item: CompletionItem = {
      label: `%${name}`,
      kind: CompletionItemKind.Reference,
      textEdit: TextEdit.replace(range, `%${name}`),
      detail:
        typeof l === 'string'
          ? 'reference list'
          : `${contentTypeLabel(l.contentType)} list, ${l.size} entr${l.size === 1 ? 'y' : 'ies'}`,
      sortText: `0${name}`,
    };
    if (typeof l !== 'string') item.documentation = { kind: MarkupKind.Markdown, value: listDoc(l) };
    return item;
  });
}

function listDoc(l: KnownReferenceList): string {
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

function isListMap(x: unknown): x is ReadonlyMap<string, KnownReferenceList> {
  return x instanceof Map;
}

function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}

export function complete(
  a: Analysis,
  position: { line: number; character: number },
  referenceLists: ListsForCompletion = [],
): CompletionItem[] {
  const offset = a.lines.offset(position);
  if (inComment(a, offset)) return [];
  const { tokens } = a.parse;
  const here = a.lines.position(offset);
  const emptyRange: Range = { start: here, end: here };
  const idx = tokenIndexBefore(tokens, offset);
  const cur = idx >= 0 ? tokens[idx] : undefined;

  // Inside a string: enum values for enum fields, replacing the whole string.
  if (cur && cur.kind === 'string' && offset > cur.start && (offset < cur.end || !!cur.error)) {
    const op = tokens[idx - 1];
    if (op?.kind === 'op') {
      const f = fieldBefore(a, idx - 2);
      if (f?.kind === 'enum') return enumItems(f.type, a.lines.range(cur.start, cur.end));
    }
    return [];
  }
  if (cur && cur.kind === 'regex' && offset > cur.start && (offset < cur.end || !!cur.error)) return [];

  // Placeholders and reference lists.
  if (cur && (cur.kind === 'variable' || cur.kind === 'reflist') && cur.end >= offset) {
    const range = a.lines.range(cur.start, offset);
    if (cur.kind === 'reflist') return listItems(referenceLists, range);
    const sec = sectionAt(a, offset);
    const names =
      sec && (sec.kind === 'order' || sec.kind === 'limit')
        ? [...placeholderNames(a), ...outcomeNames(a)]
        : placeholderNames(a);
    return [...new Set(names)].map((n) => ({
      label: `$${n}`,
      kind: CompletionItemKind.Variable,
      textEdit: TextEdit.replace(range, `$${n}`),
      detail: describePlaceholder(a, n),
    }));
  }

  const section = sectionAt(a, offset);
  const path = pathAtCursor(a, offset);
  const lineStartsHere = (() => {
    const lineStart = a.lines.lineStart(here.line);
    return a.text.slice(lineStart, path ? path.replaceStart : offset).trim() === '';
  })();

  if (path) {
    const range = a.lines.range(path.replaceStart, offset);
    if (path.prefix.length === 0) {
      // First segment: root fields, function namespaces, keywords, section names.
      const before = tokens[path.firstToken - 1];
      const items = [...fieldItems(rootFields(), range)];
      if (section && section.kind !== 'match') {
        return sectionItems(a, section, range, before, lineStartsHere);
      }
      if (before?.kind === 'op') {
        const f = fieldBefore(a, path.firstToken - 2);
        if (f?.kind === 'enum') return [...enumItems(f.type, range), ...items];
        if (f?.kind === 'bool') return [keywordItem('true', range, '0'), keywordItem('false', range, '0')];
      }
      if (before && isValueEnd(before) && !lineStartsHere) {
        const f = fieldBefore(a, path.firstToken - 1);
        if (f) return operatorItems(f.kind, range, f.repeated);
        items.push(keywordItem('AND', range, '0'), keywordItem('OR', range, '0'));
        if (before.kind === 'string' || before.kind === 'regex') items.push(keywordItem('nocase', range, '0'));
      }
      for (const ns of FUNCTION_NAMESPACES) {
        items.push({
          label: ns,
          kind: CompletionItemKind.Module,
          detail: 'function namespace',
          textEdit: TextEdit.replace(range, ns),
          sortText: `4${ns}`,
          command: { title: 'Suggest', command: 'editor.action.triggerSuggest' },
        });
      }
      items.push(...functionItems(IF_FUNCTION, range));
      items.push(keywordItem('NOT', range), keywordItem('AND', range, '6'), keywordItem('OR', range, '6'));
      if (section?.kind === 'match') return placeholderAndSectionItems(a, section, range, lineStartsHere);
      if (lineStartsHere) items.push(...sectionKeywordItems(a, range, undefined));
      if (before?.kind === 'ident' && isWord(before, 'in'))
        return [keywordItem('regex', range, '0'), keywordItem('cidr', range, '0')];
      return items;
    }
    if (path.prefix.length === 1 && FUNCTION_NAMESPACES.includes(path.prefix[0]) && !rootFields().has(path.prefix[0])) {
      return FUNCTIONS.filter((f) => f.search && f.name.startsWith(`${path.prefix[0]}.`)).flatMap((f) =>
        functionItems(f, range, f.name.slice(path.prefix[0].length + 1)),
      );
    }
    const prefix = path.prefix[0] === 'udm' ? path.prefix.slice(1) : path.prefix;
    const r = resolvePath(prefix);
    if (r.errorIndex >= 0 || r.freeForm) return [];
    const last = r.fields[r.fields.length - 1];
    const children = last ? childFields(last.type) : rootFields();
    return children ? fieldItems(children, range) : [];
  }

  // Not typing a word: decide from the previous token.
  if (!cur)
    return [
      ...fieldItems(rootFields(), emptyRange),
      ...FUNCTION_NAMESPACES.map((ns) => ({ label: ns, kind: CompletionItemKind.Module, sortText: `4${ns}` })),
      keywordItem('NOT', emptyRange),
      ...sectionKeywordItems(a, emptyRange, undefined),
    ];
  if (section && section.kind !== 'match' && cur.start >= section.keyword.start)
    return sectionItems(a, section, emptyRange, cur, lineStartsHere);
  if (section?.kind === 'match' && cur.start >= section.keyword.start)
    return placeholderAndSectionItems(a, section, emptyRange, lineStartsHere);
  if (cur.kind === 'op') {
    if (tokens[idx - 1]?.kind === 'variable') {
      // `$name = |`: a placeholder takes a field (or a function of fields).
      return [
        ...fieldItems(rootFields(), emptyRange),
        ...FUNCTION_NAMESPACES.map((ns) => ({ label: ns, kind: CompletionItemKind.Module, sortText: `4${ns}` })),
      ];
    }
    const f = fieldBefore(a, idx - 1);
    if (f?.kind === 'enum') return enumItems(f.type, emptyRange);
    if (f?.kind === 'bool') return [keywordItem('true', emptyRange, '0'), keywordItem('false', emptyRange, '0')];
    if (f?.kind === 'string')
      return [
        {
          label: '"…"',
          kind: CompletionItemKind.Snippet,
          insertTextFormat: InsertTextFormat.Snippet,
          textEdit: TextEdit.replace(emptyRange, '"$1"'),
          detail: 'string',
        },
        {
          label: '/…/',
          kind: CompletionItemKind.Snippet,
          insertTextFormat: InsertTextFormat.Snippet,
          textEdit: TextEdit.replace(emptyRange, '/$1/'),
          detail: 'regular expression (partial match)',
        },
      ];
    return [];
  }
  if (isWord(cur, 'in'))
    return [
      keywordItem('regex', emptyRange, '0'),
      keywordItem('cidr', emptyRange, '0'),
      ...listItems(referenceLists, emptyRange),
    ];
  if (isWord(cur, 'regex') || isWord(cur, 'cidr')) return listItems(referenceLists, emptyRange);
  // Right after a closed value (`"lt-ana-01"|`, `42|`, `)|`): nothing may be glued to it, and a
  // list opened by typing the closing quote would take the Enter meant for a new line.
  if (offset === cur.end && !cur.error && GLUED_VALUE_END.has(cur.kind)) return [];
  const f = isValueEnd(cur) ? fieldBefore(a, idx) : undefined;
  // Timestamps are compared through .seconds and messages through a sub-field; no operator fits.
  if (
    f &&
    tokens[idx - 1]?.kind !== 'op' &&
    !lineStartsHere &&
    (f.kind === 'timestamp' || f.kind === 'message' || f.kind === 'duration')
  )
    return [];
  if (f && tokens[idx - 1]?.kind !== 'op' && !lineStartsHere) return operatorItems(f.kind, emptyRange, f.repeated);
  const items: CompletionItem[] = [];
  if (isValueEnd(cur)) {
    items.push(keywordItem('AND', emptyRange, '0'), keywordItem('OR', emptyRange, '0'));
    if (cur.kind === 'string' || cur.kind === 'regex') items.push(keywordItem('nocase', emptyRange, '0'));
  }
  items.push(...fieldItems(rootFields(), emptyRange), keywordItem('NOT', emptyRange));
  if (lineStartsHere) items.push(...sectionKeywordItems(a, emptyRange, undefined));
  return items;
}

const GLUED_VALUE_END = new Set<string>(['string', 'regex', 'number', 'rparen', 'rbracket', 'bytes']);

function isValueEnd(t: Token): boolean {
  return (
    t.kind === 'string' ||
    t.kind === 'regex' ||
    t.kind === 'number' ||
    t.kind === 'rparen' ||
    t.kind === 'reflist' ||
    t.kind === 'rbracket' ||
    t.kind === 'variable' ||
    (t.kind === 'ident' && !['and', 'or', 'not', 'in', 'regex', 'cidr'].includes(t.value.toLowerCase()))
  );
}

function enumItems(type: string, range: Range): CompletionItem[] {
  const en = enumName(type);
  if (!en) return [];
  return enumValues(en).map(([name, num], i) => ({
    label: `"${name}"`,
    filterText: `"${name}" ${name}`,
    kind: CompletionItemKind.EnumMember,
    detail: `${en} = ${num}`,
    textEdit: TextEdit.replace(range, `"${name}"`),
    sortText: String(i).padStart(4, '0'),
  }));
}

function describePlaceholder(a: Analysis, name: string): string {
  const def = a.check.placeholders.get(name);
  if (def?.value.type === 'field') return `= ${fieldPathOf(def.value).join('.')}`;
  if (def?.value.type === 'call') return `= ${def.value.name}(…)`;
  const out = outcomeItems(a).find((o) => o.variable.name === name);
  if (out?.value?.type === 'call') return `outcome = ${out.value.name}(…)`;
  return 'placeholder';
}

function sectionKeywordItems(a: Analysis, range: Range, current: Section | undefined): CompletionItem[] {
  const used = new Set(a.parse.query.sections.map((s) => s.kind));
  const currentRank = current ? SECTION_KEYWORDS.indexOf(current.kind) : -1;
  return SECTION_KEYWORDS.filter((k, i) => !used.has(k) && i > currentRank).map((k, i) => ({
    label: `${k}:`,
    kind: CompletionItemKind.Keyword,
    documentation: KEYWORD_DOCS[k],
    insertTextFormat: InsertTextFormat.Snippet,
    textEdit: TextEdit.replace(range, SECTION_SNIPPETS[k]),
    sortText: `7${i}`,
  }));
}

function placeholderAndSectionItems(a: Analysis, section: Section, range: Range, lineStart: boolean): CompletionItem[] {
  const items: CompletionItem[] = placeholderNames(a).map((n) => ({
    label: `$${n}`,
    kind: CompletionItemKind.Variable,
    detail: describePlaceholder(a, n),
    textEdit: TextEdit.replace(range, `$${n}`),
    sortText: `0${n}`,
  }));
  if (lineStart) items.push(...sectionKeywordItems(a, range, section));
  return items;
}

function sectionItems(
  a: Analysis,
  section: Section,
  range: Range,
  before: Token | undefined,
  lineStart: boolean,
): CompletionItem[] {
  const items: CompletionItem[] = [];
  if (section.kind === 'outcome') {
    if (before?.kind === 'op') {
      for (const agg of AGGREGATES) items.push(...functionItems(agg, range));
      return items;
    }
    if (before?.kind === 'lparen' || before?.kind === 'comma') {
      items.push(
        ...fieldItems(rootFields(), range),
        ...placeholderNames(a).map((n) => ({
          label: `$${n}`,
          kind: CompletionItemKind.Variable,
          textEdit: TextEdit.replace(range, `$${n}`),
        })),
      );
      return items;
    }
    items.push({
      label: '$name = count(…)',
      kind: CompletionItemKind.Snippet,
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: TextEdit.replace(
        range,
        '\\$${1:count} = ${2|count,count_distinct,sum,min,max,avg,stddev,array,array_distinct,earliest,latest|}(${3:metadata.id})',
      ),
      sortText: '0',
    });
  } else if (section.kind === 'order') {
    if (
      before &&
      (before.kind === 'variable' || (before.kind === 'ident' && !lineStart && before.start > section.keyword.end))
    ) {
      items.push(keywordItem('asc', range, '0'), keywordItem('desc', range, '0'));
    }
    const names = new Set([
      ...outcomeNames(a),
      ...a.parse.query.sections.flatMap((s) =>
        s.kind === 'match' ? s.keys.map((k) => (k.type === 'variable' ? k.name : '')) : [],
      ),
    ]);
    for (const n of names)
      if (n)
        items.push({
          label: `$${n}`,
          kind: CompletionItemKind.Variable,
          textEdit: TextEdit.replace(range, `$${n}`),
          sortText: `1${n}`,
        });
  }
  if (lineStart) items.push(...sectionKeywordItems(a, range, section));
  return items;
}

// ---- hover -------------------------------------------------------------------------------------

export function hover(
  a: Analysis,
  position: { line: number; character: number },
  referenceLists: Record<string, string[]> | KnownReferenceLists = {},
): Hover | null {
  const offset = a.lines.offset(position);
  const { tokens } = a.parse;
  const i = tokenIndexBefore(tokens, offset + 1);
  if (i < 0) return null;
  const t = tokens[i];
  if (offset < t.start || offset > t.end) return null;
  const range = a.lines.range(t.start, t.end);
  if (t.kind === 'ident') {
    // The dotted chain around this identifier.
    const segs: Token[] = [t];
    let j = i - 1;
    while (
      j >= 1 &&
      tokens[j].kind === 'dot' &&
      tokens[j - 1].kind === 'ident' &&
      tokens[j - 1].end === tokens[j].start &&
      tokens[j].end === tokens[j + 1].start
    ) {
      segs.unshift(tokens[j - 1]);
      j -= 2;
    }
    const lower = t.value.toLowerCase();
    let k = i + 1;
    const after: Token[] = [];
    while (
      k + 1 < tokens.length &&
      tokens[k].kind === 'dot' &&
      tokens[k + 1].kind === 'ident' &&
      tokens[k].start === tokens[k - 1].end
    ) {
      after.push(tokens[k + 1]);
      k += 2;
    }
    const fullName = [...segs, ...after].map((s) => s.value).join('.');
    if (tokens[k]?.kind === 'lparen' && tokens[k].start === tokens[k - 1].end) {
      const fn: FunctionDef | AggregateDef | undefined =
        findFunction(fullName) ?? findAggregate(fullName) ?? findConditional(fullName);
      if (fn)
        return {
          contents: {
            kind: MarkupKind.Markdown,
            value: `${functionDoc(fn)}${paramDocs(fn)}`,
          },
          range: a.lines.range(segs[0].start, tokens[k - 1].end),
        };
      return null;
    }
    if (segs.length === 1 && after.length === 0) {
      const doc = KEYWORD_DOCS[t.value.toUpperCase()] ?? KEYWORD_DOCS[lower];
      if (
        doc &&
        (['and', 'or', 'not'].includes(lower) || tokens[i + 1]?.kind === 'colon' || !rootFields().has(lower))
      ) {
        return {
          contents: {
            kind: MarkupKind.Markdown,
            value: `**${tokens[i + 1]?.kind === 'colon' ? `${lower}:` : t.value}** — ${doc}`,
          },
          range,
        };
      }
      const prevTok = tokens[i - 1];
      if (prevTok?.kind === 'op') {
        const f = fieldBefore(a, i - 2);
        const en = f && enumName(f.type);
        if (en) return enumHover(en, t.value, range);
      }
    }
    const path = segs.map((s) => s.value);
    const cleaned = path.length > 1 && path[0] === 'udm' ? path.slice(1) : path;
    const r = resolvePath(cleaned);
    if (r.errorIndex >= 0 && r.errorIndex < cleaned.length) return null;
    const f = r.fields[r.fields.length - 1];
    if (!f)
      return r.freeForm
        ? {
            contents: { kind: MarkupKind.Markdown, value: `\`${cleaned.join('.')}\` — free-form key of a Struct` },
            range,
          }
        : null;
    return {
      contents: { kind: MarkupKind.Markdown, value: `**${cleaned.join('.')}**\n\n${fieldDoc(f)}` },
      range: a.lines.range(segs[0].start, t.end),
    };
  }
  if (t.kind === 'string') {
    const op = tokens[i - 1];
    if (op?.kind === 'op') {
      const f = fieldBefore(a, i - 2);
      const en = f && enumName(f.type);
      if (en) return enumHover(en, t.value, range);
    }
    return null;
  }
  if (t.kind === 'variable') {
    return {
      contents: { kind: MarkupKind.Markdown, value: `**$${t.value}** ${describePlaceholder(a, t.value)}` },
      range,
    };
  }
  if (t.kind === 'reflist') {
    let known: KnownReferenceList | undefined;
    const isMap = isListMap(referenceLists);
    if (isListMap(referenceLists)) known = referenceLists.get(t.value);
    else if (Object.prototype.hasOwnProperty.call(referenceLists, t.value)) {
      const entries: string[] = referenceLists[t.value];
      known = knownFromEntries({ [t.value]: entries }).get(t.value);
    }
    return {
      contents: {
        kind: MarkupKind.Markdown,
        value: known
          ? listDoc(known)
          : isMap
            ? `**%${t.value}**: no reference list of this name is known`
            : `**%${t.value}**: reference list`,
      },
      range,
    };
  }
  if (t.kind === 'regex') {
    return {
      contents: {
        kind: MarkupKind.Markdown,
        value: 'Regular expression (RE2 syntax), matched anywhere in the value. Add `nocase` to ignore case.',
      },
      range,
    };
  }
  return null;
}

function enumHover(en: string, value: string, range: Range): Hover {
  const hit = enumValues(en).find(([n]) => n === value);
  return {
    contents: {
      kind: MarkupKind.Markdown,
      value: hit ? `\`${en}.${hit[0]}\` = ${hit[1]}` : `Not a value of \`${en}\``,
    },
    range,
  };
}

function paramDocs(fn: FunctionDef | AggregateDef): string {
  const docs = fn.params.filter((p) => p.doc).map((p) => `- \`${p.name}\`: ${p.doc}`);
  return docs.length ? `\n\n${docs.join('\n')}` : '';
}

// ---- signature help ----------------------------------------------------------------------------

export function signatureHelp(a: Analysis, position: { line: number; character: number }): SignatureHelp | null {
  const offset = a.lines.offset(position);
  const { tokens } = a.parse;
  let i = tokenIndexBefore(tokens, offset);
  let depth = 0;
  let commas = 0;
  // Walk back to the unmatched '(' that opens the call around the cursor (bounded: one condition).
  for (let steps = 0; i >= 0 && steps < 2000; i--, steps++) {
    const t = tokens[i];
    if (t.kind === 'rparen' && t.end <= offset) depth++;
    else if (t.kind === 'lparen') {
      if (depth === 0) break;
      depth--;
    } else if (t.kind === 'comma' && depth === 0) commas++;
    else if (depth === 0 && (t.kind === 'op' || isWord(t, 'and') || isWord(t, 'or'))) return null;
  }
  if (i < 1) return null;
  const parts: string[] = [];
  let j = i - 1;
  if (tokens[j].kind !== 'ident' || tokens[j].end !== tokens[i].start) return null;
  parts.unshift(tokens[j].value);
  while (j >= 2 && tokens[j - 1].kind === 'dot' && tokens[j - 2].kind === 'ident') {
    parts.unshift(tokens[j - 2].value);
    j -= 2;
  }
  const name = parts.join('.');
  const fn: FunctionDef | AggregateDef | undefined = findFunction(name) ?? findAggregate(name) ?? findConditional(name);
  if (!fn) return null;
  const params = fn.params.map((p) => ({
    label: `${p.name}${p.optional ? '?' : ''}: ${p.type}`,
    documentation: p.doc,
  }));
  const variadic = 'variadic' in fn && fn.variadic;
  return {
    signatures: [{ label: signatureLabel(fn), documentation: fn.doc, parameters: params }],
    activeSignature: 0,
    activeParameter: variadic ? Math.min(commas, params.length - 1) : commas,
  };
}

// ---- formatting --------------------------------------------------------------------------------

const UPPER_KEYWORDS = new Set(['and', 'or', 'not']);
const LOWER_KEYWORDS = new Set(['nocase', 'in', 'regex', 'cidr', 'asc', 'desc', 'any', 'all']);

/**
 * Normalises spacing and keyword case while keeping the author's line structure: one space
 * around operators and between conditions, none inside paths and calls, AND/OR/NOT in upper
 * case, section bodies and open parentheses indented one unit (the editor's tab settings).
 * Documents with lexical errors are left alone (reformatting half a string could change what
 * it means).
 */
export function format(a: Analysis, options: { tabSize: number; insertSpaces: boolean }): TextEdit[] {
  if (a.parse.tokens.some((t) => t.error && t.kind !== 'op') || a.parse.comments.some((c) => c.error)) return [];
  const unit = options.insertSpaces ? ' '.repeat(Math.max(1, Math.min(8, options.tabSize || 2))) : '\t';
  const formatted = formatText(a, unit);
  if (formatted === a.text) return [];
  return [TextEdit.replace(a.lines.range(0, a.text.length), formatted)];
}

export function formatText(a: Analysis, indentUnit = '  '): string {
  const { text } = a;
  const items = [...a.parse.tokens.filter((t) => t.kind !== 'eof'), ...a.parse.comments].sort(
    (x, y) => x.start - y.start,
  );
  const sectionKeywordAt = new Set(a.parse.query.sections.map((s) => s.keyword.start));
  if (a.parse.query.events) sectionKeywordAt.add(a.parse.query.events.start);
  const out: string[] = [];
  let line = '';
  let inSection = false;
  // A section's body starts on the line after `match:`, `outcome:`..., indented, as Google writes it.
  let afterSectionColon = false;
  let prev: Token | undefined;
  let parenDepth = 0;
  const flush = (): void => {
    out.push(line.replace(/\s+$/, ''));
    line = '';
  };
  for (let k = 0; k < items.length; k++) {
    const t = items[k];
    if (prev) {
      const gap = text.slice(prev.end, t.start);
      const newlines = (gap.match(/\n/g) ?? []).length;
      if (newlines > 0) {
        flush();
        const blank = Math.min(newlines - 1, 1);
        for (let b = 0; b < blank; b++) out.push('');
      }
    }
    // A section keyword always opens its own line: glued to a preceding "." it would read as a
    // field path the next time the text is parsed, and formatting would not be stable.
    if (line !== '' && t.kind === 'ident' && sectionKeywordAt.has(t.start)) flush();
    if (afterSectionColon && line !== '' && t.kind !== 'comment') flush();
    afterSectionColon = false;
    const startOfLine = line === '';
    let piece = t.kind === 'comment' ? t.value : text.slice(t.start, t.end);
    if (t.kind === 'ident') {
      const lower = t.value.toLowerCase();
      const adjacentDot =
        (prev?.kind === 'dot' && prev.end === t.start) ||
        (items[k + 1]?.kind === 'dot' && items[k + 1].start === t.end);
      if (sectionKeywordAt.has(t.start)) {
        piece = lower;
        inSection = true;
      } else if (!adjacentDot && UPPER_KEYWORDS.has(lower)) piece = lower.toUpperCase();
      else if (!adjacentDot && LOWER_KEYWORDS.has(lower)) piece = lower;
    }
    if (startOfLine) {
      const isSectionKw = t.kind === 'ident' && sectionKeywordAt.has(t.start);
      const depth = isSectionKw ? 0 : (inSection ? 1 : 0) + Math.max(0, parenDepth - (t.kind === 'rparen' ? 1 : 0));
      line = indentUnit.repeat(depth) + piece;
    } else {
      line += (needsSpace(prev!, t) ? ' ' : '') + piece;
    }
    if (t.kind === 'lparen') parenDepth++;
    if (t.kind === 'rparen') parenDepth = Math.max(0, parenDepth - 1);
    if (t.kind === 'colon' && prev?.kind === 'ident' && sectionKeywordAt.has(prev.start)) afterSectionColon = true;
    prev = t;
  }
  if (prev) flush();
  let result = out.join('\n');
  while (result.startsWith('\n')) result = result.slice(1);
  const trailingNewline = /\n\s*$/.test(text) || text.endsWith('\n');
  return result + (trailingNewline && result !== '' ? '\n' : '');
}

function needsSpace(prev: Token, t: Token): boolean {
  if (t.kind === 'comment') return true;
  if (prev.kind === 'comment') return true;
  if (t.kind === 'dot' || prev.kind === 'dot') return false;
  if (t.kind === 'comma' || t.kind === 'rparen' || t.kind === 'rbracket' || t.kind === 'colon') return false;
  if (prev.kind === 'lparen' || prev.kind === 'lbracket') return false;
  if (t.kind === 'lbracket') return false;
  // `count(` stays glued; `NOT (` keeps its space.
  if (t.kind === 'lparen')
    return !(prev.kind === 'ident' && prev.end === t.start && !UPPER_KEYWORDS.has(prev.value.toLowerCase()));
  if (prev.kind === 'minus') return false;
  if (t.kind === 'minus') return true;
  return true;
}

// ---- semantic tokens ---------------------------------------------------------------------------

export const SEMANTIC_TOKEN_TYPES = [
  'keyword',
  'operator',
  'string',
  'number',
  'regexp',
  'variable',
  'property',
  'function',
  'enumMember',
  'comment',
  'namespace',
  'parameter',
] as const;
export const SEMANTIC_TOKEN_MODIFIERS = ['deprecated', 'readonly', 'declaration'] as const;
type SemType = (typeof SEMANTIC_TOKEN_TYPES)[number];

const KEYWORDS = new Set([
  'and',
  'or',
  'not',
  'in',
  'nocase',
  'regex',
  'cidr',
  'any',
  'all',
  'asc',
  'desc',
  'true',
  'false',
]);

export interface ClassifiedToken {
  start: number;
  end: number;
  type: SemType;
  modifiers: number;
}

const WINDOW_WORDS = new Set(['by', 'over', 'every', 'first']);

/** Classifies every token; the TextMate grammar mirrors these categories. */
export function classify(a: Analysis): ClassifiedToken[] {
  const { tokens } = a.parse;
  const out: ClassifiedToken[] = [];
  const sectionStarts = new Set(a.parse.query.sections.map((s) => s.keyword.start));
  if (a.parse.query.events) sectionStarts.add(a.parse.query.events.start);
  // `by`, `over`, `every`, `first` of a match: window are keywords there (and only there).
  const windowSpans: Array<{ start: number; end: number }> = [];
  for (const s of a.parse.query.sections) if (s.kind === 'match' && s.window) windowSpans.push(s.window);
  const deprecatedSegments = new Set<number>();
  for (const [node, facts] of a.check.facts) {
    const offset = node.segments.length - facts.path.length;
    facts.fields.forEach((f, i) => {
      if (f.deprecated) deprecatedSegments.add(node.segments[i + offset].start);
    });
  }
  const assignTargets = new Set<number>();
  for (const def of a.check.placeholders.values()) assignTargets.add(def.variable.start);
  for (const o of outcomeItems(a)) assignTargets.add(o.variable.start);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    let type: SemType | undefined;
    let modifiers = 0;
    switch (t.kind) {
      case 'string':
        type = 'string';
        break;
      case 'number':
        type = 'number';
        break;
      case 'regex':
        type = 'regexp';
        break;
      case 'op':
        type = 'operator';
        break;
      case 'variable':
        type = 'variable';
        if (assignTargets.has(t.start)) modifiers |= 4;
        break;
      case 'reflist':
        type = 'parameter';
        modifiers |= 2;
        break;
      case 'minus':
        type = tokens[i + 1]?.kind === 'number' ? 'number' : 'operator';
        break;
      case 'ident': {
        const next = tokens[i + 1];
        const prev = tokens[i - 1];
        const lower = t.value.toLowerCase();
        const dottedBefore = prev?.kind === 'dot' && prev.end === t.start;
        const dottedAfter = next?.kind === 'dot' && next.start === t.end;
        if (sectionStarts.has(t.start)) type = 'keyword';
        else if (WINDOW_WORDS.has(lower) && windowSpans.some((w) => w.start <= t.start && t.end <= w.end))
          type = 'keyword';
        else if (!dottedBefore && !dottedAfter && KEYWORDS.has(lower)) type = 'keyword';
        else if (next?.kind === 'lparen' && next.start === t.end) type = 'function';
        else if (dottedAfter && FUNCTION_NAMESPACES.includes(t.value) && callAhead(tokens, i)) type = 'namespace';
        else if (!dottedBefore && !dottedAfter && prev?.kind === 'op') type = 'enumMember';
        else {
          type = 'property';
          if (deprecatedSegments.has(t.start)) modifiers |= 1;
        }
        break;
      }
      default:
        break;
    }
    if (type) out.push({ start: t.start, end: t.end, type, modifiers });
  }
  for (const c of a.parse.comments) out.push({ start: c.start, end: c.end, type: 'comment', modifiers: 0 });
  out.sort((x, y) => x.start - y.start);
  return out;
}

function callAhead(tokens: Token[], i: number): boolean {
  let k = i + 1;
  while (tokens[k]?.kind === 'dot' && tokens[k + 1]?.kind === 'ident') k += 2;
  return tokens[k]?.kind === 'lparen';
}

/** LSP relative encoding; tokens spanning lines (block comments) are split per line. */
export function semanticTokens(a: Analysis): number[] {
  const data: number[] = [];
  let lastLine = 0;
  let lastChar = 0;
  const emit = (line: number, char: number, length: number, type: number, mods: number): void => {
    if (length <= 0) return;
    data.push(line - lastLine, line === lastLine ? char - lastChar : char, length, type, mods);
    lastLine = line;
    lastChar = char;
  };
  for (const t of classify(a)) {
    const typeIndex = SEMANTIC_TOKEN_TYPES.indexOf(t.type);
    const s = a.lines.position(t.start);
    const e = a.lines.position(t.end);
    if (s.line === e.line) emit(s.line, s.character, e.character - s.character, typeIndex, t.modifiers);
    else {
      for (let l = s.line; l <= e.line; l++) {
        const from = l === s.line ? s.character : 0;
        const to = l === e.line ? e.character : a.lines.lineEnd(l) - a.lines.lineStart(l);
        emit(l, from, to - from, typeIndex, t.modifiers);
      }
    }
  }
  return data;
}

// ---- folding -----------------------------------------------------------------------------------

export function foldingRanges(a: Analysis): FoldingRange[] {
  const out: FoldingRange[] = [];
  const { sections } = a.parse.query;
  for (const s of sections) {
    const start = a.lines.position(s.keyword.start).line;
    const end = a.lines.position(s.end).line;
    if (end > start) out.push({ startLine: start, endLine: end });
  }
  for (const c of a.parse.comments) {
    const start = a.lines.position(c.start).line;
    const end = a.lines.position(c.end).line;
    if (end > start) out.push({ startLine: start, endLine: end, kind: FoldingRangeKind.Comment });
  }
  const stack: number[] = [];
  for (const t of a.parse.tokens) {
    if (t.kind === 'lparen') stack.push(t.start);
    else if (t.kind === 'rparen' && stack.length) {
      const open = stack.pop()!;
      const start = a.lines.position(open).line;
      const end = a.lines.position(t.start).line;
      if (end > start) out.push({ startLine: start, endLine: end - 1 >= start + 1 ? end - 1 : end });
    }
  }
  return out;
}

// ---- outline -----------------------------------------------------------------------------------

/** Outline: the filter, its placeholders, and each statistics section with its variables. */
export function documentSymbols(a: Analysis): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const { filter, sections } = a.parse.query;
  if (filter) {
    const children = [...a.check.placeholders.values()].map((p) =>
      DocumentSymbol.create(
        `$${p.variable.name}`,
        describePlaceholder(a, p.variable.name),
        SymbolKind.Variable,
        a.lines.range(p.start, p.end),
        a.lines.range(p.variable.start, p.variable.end),
      ),
    );
    out.push(
      DocumentSymbol.create(
        'filter',
        undefined,
        SymbolKind.Namespace,
        a.lines.range(filter.start, filter.end),
        a.lines.range(filter.start, filter.start),
        children,
      ),
    );
  }
  for (const s of sections) {
    const children: DocumentSymbol[] = [];
    const keys = s.kind === 'match' || s.kind === 'dedup' || s.kind === 'select' || s.kind === 'unselect' ? s.keys : [];
    for (const k of keys)
      children.push(
        DocumentSymbol.create(
          k.type === 'variable' ? `$${k.name}` : fieldPathOf(k).join('.'),
          'group by',
          SymbolKind.Key,
          a.lines.range(k.start, k.end),
          a.lines.range(k.start, k.end),
        ),
      );
    for (const o of s.kind === 'outcome' ? s.outcomes : []) {
      const detail = o.value?.type === 'call' ? `${o.value.name}(…)` : undefined;
      children.push(
        DocumentSymbol.create(
          `$${o.variable.name}`,
          detail,
          SymbolKind.Variable,
          a.lines.range(o.start, o.end),
          a.lines.range(o.variable.start, o.variable.end),
        ),
      );
    }
    out.push(
      DocumentSymbol.create(
        `${s.kind}:`,
        s.kind === 'limit' && s.limit ? String(s.limit.value) : undefined,
        SymbolKind.Namespace,
        a.lines.range(s.start, s.end),
        a.lines.range(s.keyword.start, s.keyword.end),
        children,
      ),
    );
  }
  return out;
}
