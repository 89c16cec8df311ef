import type { InListExpr } from '../ast';
import { parseCidr } from '../functions';
import { findRe2Problem } from '../regex';
import { suggest } from '../schema';
import type { CheckContext } from './context';
import { article } from './describe';
import { operand } from './filter';

function listTypeLabel(t: string): string {
  return t === 'REGEX' ? 'regular expression' : t === 'CIDR' ? 'CIDR' : 'string';
}

function listTypeKeyword(t: string): string {
  return t === 'REGEX' ? 'regex ' : t === 'CIDR' ? 'cidr ' : '';
}

/** `field [not] in [regex|cidr] %list`: the field holds strings, the list exists, its type fits the mode. */
export function checkInList(c: CheckContext, e: InListExpr): void {
  const facts = operand(c, e.left);
  if (
    facts &&
    facts.kind !== 'string' &&
    facts.kind !== 'unknown' &&
    facts.kind !== 'struct' &&
    facts.kind !== 'map' &&
    facts.kind !== 'enum'
  ) {
    c.report(
      'error',
      `${facts.key} is ${article(facts)}; reference lists hold strings`,
      e.left.start,
      e.left.end,
      'type-mismatch',
    );
  }
  const list = e.list;
  const lists = c.options.referenceLists;
  const known = c.options.knownLists;
  if (list && !lists && known && !known.has(list.name)) {
    const unavailable = c.options.listsUnavailable;
    reportUnknownList(
      c,
      list,
      known.keys(),
      unavailable === undefined ? 'error' : 'warning',
      unavailable === undefined ? '' : ` (the reference lists could not be loaded: ${unavailable})`,
    );
  }
  const knownList = list ? known?.get(list.name) : undefined;
  if (list && knownList) checkListType(c, e, list, knownList.contentType);
  if (e.nocase && e.mode === 'cidr')
    c.report('error', "'nocase' does not apply to CIDR ranges", e.nocase.start, e.nocase.end, 'bad-nocase');
  if (list && lists && !Object.prototype.hasOwnProperty.call(lists, list.name))
    reportUnknownList(c, list, Object.keys(lists), 'error', '');
  if (list && lists && e.mode !== 'exact' && lists[list.name]) checkListEntries(c, e.mode, list, lists[list.name]);
}

type ListRef = NonNullable<InListExpr['list']>;

function reportUnknownList(
  c: CheckContext,
  list: ListRef,
  names: Iterable<string>,
  severity: 'error' | 'warning',
  why: string,
): void {
  const s = suggest(list.name, names);
  c.report(
    severity,
    `Unknown reference list %${list.name}${s.length ? `. Did you mean %${s[0]}?` : ''}${why}`,
    list.start,
    list.end,
    'unknown-list',
    s.length ? { replacements: s.map((x) => `%${x}`) } : undefined,
  );
}

function checkListType(c: CheckContext, e: InListExpr, list: ListRef, contentType: string): void {
  const expected = e.mode === 'regex' ? 'REGEX' : e.mode === 'cidr' ? 'CIDR' : 'CONTENT_TYPE_DEFAULT_STRING';
  if (contentType === expected) return;
  // `in regex %` / `in cidr %` would read a list's entries as patterns or ranges they are
  // not: an error. A plain `in %` on a regex or CIDR list matches its text literally,
  // which is legal but rarely meant: a warning.
  c.report(
    e.mode === 'exact' ? 'warning' : 'error',
    `%${list.name} is a ${listTypeLabel(contentType)} list; use 'in ${listTypeKeyword(contentType)}%${list.name}'`,
    list.start,
    list.end,
    'list-type',
  );
}

/** The first entry of a regex or CIDR list (the sandbox's store) that is no pattern or range. */
function checkListEntries(c: CheckContext, mode: 'regex' | 'cidr', list: ListRef, entries: string[]): void {
  for (const entry of entries) {
    const bad =
      mode === 'cidr'
        ? !parseCidr(entry) && 'a CIDR range'
        : findRe2Problem(entry) !== undefined && 'a valid RE2 expression';
    if (!bad) continue;
    c.report(
      'warning',
      `Reference list %${list.name} has an entry that is not ${bad}: ${entry}`,
      list.start,
      list.end,
      'bad-list-entry',
    );
    return;
  }
}
