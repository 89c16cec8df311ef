// The rule-file (`yaral`) side of the language server: each feature answers for a RuleAnalysis
// and returns undefined for a search document, which the search features then serve.
import type {
  CompletionItem,
  FoldingRange,
  DocumentSymbol,
  Hover,
  Location,
  TextEdit,
} from 'vscode-languageserver-types';
import type { Analysis } from '../udm/index';
import type { KnownReferenceLists } from '../udm/reference-lists';
import {
  RuleAnalysis,
  completeRule,
  definitionRule,
  formatRule,
  hoverRule,
  referencesRule,
  ruleFoldingRanges,
  ruleFormatRefusal,
  ruleSemanticTokens,
  ruleSymbols,
  type ListsForCompletion,
} from '../udm/service';

type Position = { line: number; character: number };

const asRule = (a: Analysis): RuleAnalysis | undefined => (a instanceof RuleAnalysis ? a : undefined);

export const ruleServer = {
  completion(a: Analysis, position: Position, lists: ListsForCompletion): CompletionItem[] | undefined {
    const r = asRule(a);
    return r && completeRule(r, position, lists);
  },
  /** undefined: not a rule; null: a rule, nothing to show */
  hover(
    a: Analysis,
    position: Position,
    lists: Record<string, string[]> | KnownReferenceLists,
  ): Hover | null | undefined {
    const r = asRule(a);
    return r ? hoverRule(r, position, lists) : undefined;
  },
  format(
    a: Analysis,
    options: { tabSize: number; insertSpaces: boolean },
  ): { edits: TextEdit[]; refusal: string | undefined } | undefined {
    const r = asRule(a);
    return r && { edits: formatRule(r, options), refusal: ruleFormatRefusal(r) };
  },
  folding(a: Analysis): FoldingRange[] | undefined {
    const r = asRule(a);
    return r && ruleFoldingRanges(r);
  },
  symbols(a: Analysis): DocumentSymbol[] | undefined {
    const r = asRule(a);
    return r && ruleSymbols(r);
  },
  semanticTokens(a: Analysis): number[] | undefined {
    const r = asRule(a);
    return r && ruleSemanticTokens(r);
  },
  definition(a: Analysis, uri: string, position: Position): Location[] {
    const r = asRule(a);
    return r ? definitionRule(r, uri, position) : [];
  },
  references(a: Analysis, uri: string, position: Position, includeDeclaration: boolean): Location[] {
    const r = asRule(a);
    return r ? referencesRule(r, uri, position, includeDeclaration) : [];
  },
};
