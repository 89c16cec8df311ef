/**
 * Editor features over the UDM library, one module per feature in `ide/` (completion, hover,
 * signature help, formatting, semantic tokens, folding, outline, quick fixes, diagnostics).
 * Results use the LSP data types (plain JSON, no `vscode`). This module gathers them for the
 * language server, the query bar and the tests.
 */
export { UdmDocument } from './ide/document';
export { toLspDiagnostic, toLspDiagnostics } from './ide/diagnostics';
export { codeActions } from './ide/code-actions';
export { KEYWORD_DOCS } from './ide/docs';
export { complete, type ListsForCompletion } from './ide/completion';
export { hover } from './ide/hover';
export { signatureHelp } from './ide/signature-help';
export { format, formatRefusal, formatText, MAX_FORMAT_DEPTH } from './ide/formatting';
export {
  SEMANTIC_TOKEN_MODIFIERS,
  SEMANTIC_TOKEN_TYPES,
  classify,
  semanticTokens,
  type ClassifiedToken,
} from './ide/semantic-tokens';
export { foldingRanges } from './ide/folding';
export { documentSymbols } from './ide/symbols';
// YARA-L rule files (`.yaral`): the same features over a RuleAnalysis.
export { RuleAnalysis, analyzeRuleFile } from './rule/analyze';
export { completeRule, definitionRule, hoverRule, referencesRule, ruleFoldingRanges, ruleSymbols } from './ide/yaral';
export { formatRule, formatRuleText, ruleFormatRefusal } from './ide/yaral-format';
export { ruleSemanticTokens } from './ide/yaral-tokens';
