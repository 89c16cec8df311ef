/**
 * Completion of `%name`: the reference lists a query or a rule may name there. After `in cidr`
 * only CIDR lists, after `in regex` only regex lists, after a plain `in` only string lists (Google's
 * `field in %list`, `field in regex %list`, `field in cidr %list`); elsewhere every list.
 */
import { type CompletionItem, CompletionItemKind, MarkupKind, type Range, TextEdit } from 'vscode-languageserver-types';
import type { Token } from '../lexer';
import { contentTypeLabel, type KnownReferenceList, type ReferenceListContentType } from '../reference-lists';
import { listDoc } from './docs';

/** Reference lists for completion: names, or what is known of them (type, size, description). */
export type ListsForCompletion = readonly (string | KnownReferenceList)[];

/** How long a description may be in the suggest list's row (the whole text is in the item's documentation). */
const ROW_DESCRIPTION_LIMIT = 60;

const word = (t: Token | undefined): string | undefined => (t?.kind === 'ident' ? t.value.toLowerCase() : undefined);

/**
 * The content type the list at token `idx` must have, read from the words before it: `in cidr`,
 * `in regex`, `in` (also after `not`); undefined when `%` follows anything else.
 */
export function listTypeExpectedAt(tokens: readonly Token[], idx: number): ReferenceListContentType | undefined {
  const before = word(tokens[idx - 1]);
  if (before === 'in') return 'CONTENT_TYPE_DEFAULT_STRING';
  if (word(tokens[idx - 2]) !== 'in') return undefined;
  if (before === 'cidr') return 'CIDR';
  if (before === 'regex') return 'REGEX';
  return undefined;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ROW_DESCRIPTION_LIMIT ? `${flat.slice(0, ROW_DESCRIPTION_LIMIT - 1)}…` : flat;
}

function listItem(l: string | KnownReferenceList, range: Range): CompletionItem {
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
  if (typeof l !== 'string') {
    // Shown on the item's row, without opening its details: the list's type and what it holds.
    const type = `${contentTypeLabel(l.contentType)} list`;
    item.labelDetails = { description: l.description ? `${type}: ${oneLine(l.description)}` : type };
    item.documentation = { kind: MarkupKind.Markdown, value: listDoc(l) };
  }
  return item;
}

/**
 * The lists `%` at token `idx` completes to, replacing `range`. Lists known only by name (no type)
 * are offered everywhere; known lists of another type than the words before `%` ask for are not.
 */
export function listItems(
  lists: ListsForCompletion,
  tokens: readonly Token[],
  idx: number,
  range: Range,
): CompletionItem[] {
  const expected = listTypeExpectedAt(tokens, idx);
  const fits = (l: string | KnownReferenceList): boolean =>
    expected === undefined || typeof l === 'string' || l.contentType === expected;
  return lists.filter(fits).map((l) => listItem(l, range));
}
