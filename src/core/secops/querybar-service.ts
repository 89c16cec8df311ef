// Answers the results panel's query bar with the UDM language service that the language server
// runs (src/udm/service.ts), called directly in the extension host: the bar's text is no document
// the server knows, and a round trip through a virtual document would only add latency and states
// to keep in sync. Same functions, same options, so the bar completes and checks like the editor.
import { analyze, type CompileOptions } from '../../udm';
import { knownListMap, type KnownReferenceList } from '../../udm/reference-lists';
import { complete, toLspDiagnostics } from '../../udm/service';
import { MAX_COMPLETION_ITEMS, MAX_DIAGNOSTICS } from './lsp-payload';
import type { FromWebview, ToWebview } from './messages';

export type QueryBarRequest = Extract<FromWebview, { type: 'querybar.complete' | 'querybar.validate' }>;
export type QueryBarAnswer = Extract<ToWebview, { type: 'querybar.completions' | 'querybar.diagnostics' }>;

export function isQueryBarRequest(message: FromWebview): message is QueryBarRequest {
  return message.type === 'querybar.complete' || message.type === 'querybar.validate';
}

/**
 * Completion items or diagnostics for the bar's text; reference lists as the server has them.
 * As in the language server, the lists the Reference Lists view knows (`knownLists`: name, type,
 * size, preview) win over bare `referenceLists`: they complete with their details and an
 * unknown `%name` is an error, or a warning when they could not be loaded (`listsUnavailable`).
 */
export function answerQueryBar(
  request: QueryBarRequest,
  referenceLists?: Record<string, string[]>,
  knownLists?: readonly KnownReferenceList[],
  listsUnavailable?: string,
): QueryBarAnswer {
  const options: CompileOptions = knownLists
    ? { knownLists: knownListMap(knownLists), ...(listsUnavailable !== undefined ? { listsUnavailable } : {}) }
    : referenceLists
      ? { referenceLists }
      : {};
  const analysis = analyze(request.text, options);
  if (request.type === 'querybar.complete') {
    const lists = knownLists ?? (referenceLists ? Object.keys(referenceLists) : []);
    const items = complete(analysis, request.position, lists);
    return { type: 'querybar.completions', id: request.id, items: items.slice(0, MAX_COMPLETION_ITEMS) };
  }
  return {
    type: 'querybar.diagnostics',
    id: request.id,
    diagnostics: toLspDiagnostics(analysis).slice(0, MAX_DIAGNOSTICS),
  };
}
