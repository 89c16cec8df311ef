import { DocumentSymbol, SymbolKind } from 'vscode-languageserver-types';
import { fieldPathOf } from '../check';
import type { Analysis } from '../index';
import { describePlaceholder } from './analysis';

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
