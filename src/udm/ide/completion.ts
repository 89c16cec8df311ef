/** Completion: fields, function families, keywords, operators, values, placeholders, lists, sections. */
import {
  type CompletionItem,
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type Range,
  TextEdit,
} from 'vscode-languageserver-types';
import type { Section } from '../ast';
import { IF_FUNCTION } from '../conditional';
import {
  AGGREGATES,
  FUNCTIONS,
  FUNCTION_NAMESPACES,
  signatureLabel,
  type AggregateDef,
  type FunctionDef,
} from '../functions';
import type { Analysis } from '../index';
import type { Token } from '../lexer';
import { childFields, describeType, enumName, resolvePath, rootFields, valueKind, type FieldInfo } from '../schema';
import {
  describePlaceholder,
  fieldBefore,
  inComment,
  isWord,
  outcomeNames,
  pathAtCursor,
  placeholderNames,
  sectionAt,
  tokenIndexBefore,
} from './analysis';
import { enumValueDescription } from '../field-docs';
import { rankedEnumValues } from './common-values';
import { fieldDoc, functionDoc, KEYWORD_DOCS } from './docs';
import { listItems, type ListsForCompletion } from './list-completion';
import { COMPLETED_SECTIONS, isOneOf, VALUE_LEADING_WORDS } from '../vocabulary';

export type { ListsForCompletion } from './list-completion';

const SECTION_SNIPPETS: Record<string, string> = {
  match: 'match:\n  ${1:principal.hostname}',
  outcome: 'outcome:\n  \\$${1:event_count} = ${2:count}(${3:metadata.id})',
  condition: 'condition:\n  \\$${1:event_count} > ${2:5}',
  dedup: 'dedup:\n  ${1:target.hostname}',
  order: 'order:\n  \\$${1:event_count} ${2|desc,asc|}',
  limit: 'limit:\n  ${1:100}',
};

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
      // Fields that hold a value before those to descend into: `principal.i` preselects `ip`, not
      // `investigation` (VS Code orders items that match alike by sortText).
      sortText: `${f.deprecated ? '9' : container ? '2' : '1'}${f.name}`,
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
 * One item per function (`round`, `get_hour`): its snippet has the required parameters; the
 * optional ones are in the detail and in the signature help it opens. (A second `name(…)` item
 * with every parameter listed each such function twice.)
 */
function functionItems(f: FunctionDef | AggregateDef, range: Range, label = f.name): CompletionItem[] {
  return [functionItem(f, range, label)];
}

/** `${1:text}, ${2:cutset}`: the required parameters as tab stops. */
function paramSnippet(f: FunctionDef | AggregateDef): string {
  const params = f.params.filter((p) => !p.optional);
  return params.map((p, i) => `\${${i + 1}:${p.name.replace(/[$}\\]/g, '')}}`).join(', ');
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
  else if (kind === 'enum')
    ops.push(
      ['=', 'equals'],
      ['!=', 'differs'],
      ['>', 'after, in the order of the enum values'],
      ['>=', 'at or after, in the order of the enum values'],
      ['<', 'before, in the order of the enum values'],
      ['<=', 'at or before, in the order of the enum values'],
    );
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
    if (cur.kind === 'reflist') return listItems(referenceLists, tokens, idx, range);
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

  if (path) return pathItems(a, path, section, offset, lineStartsHere);

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
  if (cur.kind === 'op') return afterOperatorItems(a, idx, offset, emptyRange);
  if (isWord(cur, 'in'))
    return [
      keywordItem('regex', emptyRange, '0'),
      keywordItem('cidr', emptyRange, '0'),
      ...listItems(referenceLists, tokens, idx + 1, emptyRange),
    ];
  // (The list goes after the word at the cursor: as if it were the next token.)
  if (isWord(cur, 'regex') || isWord(cur, 'cidr')) return listItems(referenceLists, tokens, idx + 1, emptyRange);
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

/** Typing a field path (or a word that may start one): fields, namespaces, keywords, sections. */
function pathItems(
  a: Analysis,
  path: NonNullable<ReturnType<typeof pathAtCursor>>,
  section: Section | undefined,
  offset: number,
  lineStartsHere: boolean,
): CompletionItem[] {
  const { tokens } = a.parse;
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

/** Right after a comparison operator: the values the field on its left takes. */
function afterOperatorItems(a: Analysis, idx: number, offset: number, emptyRange: Range): CompletionItem[] {
  const { tokens } = a.parse;
  const cur = tokens[idx];
  if (tokens[idx - 1]?.kind === 'variable') {
    // `$name = |`: a placeholder takes a field (or a function of fields).
    return [
      ...fieldItems(rootFields(), emptyRange),
      ...FUNCTION_NAMESPACES.map((ns) => ({ label: ns, kind: CompletionItemKind.Module, sortText: `4${ns}` })),
    ];
  }
  const f = fieldBefore(a, idx - 1);
  // Right after `=` the value comes with its space, and a space typed before accepting is kept.
  const lead = offset === cur.end ? ' ' : '';
  if (f?.kind === 'enum') return enumItems(f.type, emptyRange, lead);
  if (f?.kind === 'bool')
    return ['true', 'false'].map((b) => ({
      ...keywordItem(b, emptyRange, '0'),
      filterText: `${lead}${b}`,
      textEdit: TextEdit.replace(emptyRange, `${lead}${b}`),
    }));
  if (f?.kind === 'string')
    return [
      {
        label: '"…"',
        kind: CompletionItemKind.Snippet,
        insertTextFormat: InsertTextFormat.Snippet,
        filterText: `${lead}"`,
        textEdit: TextEdit.replace(emptyRange, `${lead}"$1"`),
        detail: 'string',
      },
      {
        label: '/…/',
        kind: CompletionItemKind.Snippet,
        insertTextFormat: InsertTextFormat.Snippet,
        filterText: `${lead}/`,
        textEdit: TextEdit.replace(emptyRange, `${lead}/$1/`),
        detail: 'regular expression (partial match)',
      },
    ];
  return [];
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
    (t.kind === 'ident' && !isOneOf(VALUE_LEADING_WORDS, t.value))
  );
}

/**
 * The enum's values, the ones Google's examples use first (common-values.ts). `lead` goes before
 * each value and its filter text: after a glued `=` it is a space, so that a space typed while
 * the list is open filters nothing out and is kept instead of being replaced by the value.
 */
function enumItems(type: string, range: Range, lead = ''): CompletionItem[] {
  const en = enumName(type);
  if (!en) return [];
  return rankedEnumValues(en).map(([name, num], i) => ({
    label: `"${name}"`,
    filterText: `${lead}"${name}"${name}`,
    kind: CompletionItemKind.EnumMember,
    detail: `${en} = ${num}`,
    documentation: enumValueDescription(en, name),
    textEdit: TextEdit.replace(range, `${lead}"${name}"`),
    sortText: String(i).padStart(4, '0'),
  }));
}

function sectionKeywordItems(a: Analysis, range: Range, current: Section | undefined): CompletionItem[] {
  const used = new Set(a.parse.query.sections.map((s) => s.kind));
  const currentRank = current ? COMPLETED_SECTIONS.indexOf(current.kind) : -1;
  return COMPLETED_SECTIONS.filter((k, i) => !used.has(k) && i > currentRank).map((k, i) => ({
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
        '\\$${1:event_count} = ${2|count,count_distinct,sum,min,max,avg,stddev,array,array_distinct,earliest,latest|}(${3:metadata.id})',
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
