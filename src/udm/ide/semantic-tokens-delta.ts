/**
 * Semantic tokens as edits of the previous answer (`textDocument/semanticTokens/full/delta`). A key
 * press changes the tokens of one place, yet a full answer for a 2,000-line document is about
 * 100,000 numbers that the extension host and the window decode and apply again; the edit of the
 * changed run is a handful.
 */
import type { SemanticTokens, SemanticTokensDelta, SemanticTokensEdit } from 'vscode-languageserver-types';

/** Numbers per token in the LSP encoding (line, character, length, type, modifiers). */
const TOKEN = 5;

/**
 * One edit that turns `previous` into `next`: the run between their common prefix and common
 * suffix, cut at whole tokens. No edit when they are equal.
 */
export function tokenEdits(previous: readonly number[], next: readonly number[]): SemanticTokensEdit[] {
  const shorter = Math.min(previous.length, next.length);
  let prefix = 0;
  while (prefix < shorter && previous[prefix] === next[prefix]) prefix++;
  if (prefix === previous.length && prefix === next.length) return [];
  prefix -= prefix % TOKEN;
  let suffix = 0;
  const maxSuffix = shorter - prefix;
  while (suffix < maxSuffix && previous[previous.length - 1 - suffix] === next[next.length - 1 - suffix]) suffix++;
  suffix -= suffix % TOKEN;
  return [
    {
      start: prefix,
      deleteCount: previous.length - suffix - prefix,
      data: next.slice(prefix, next.length - suffix),
    },
  ];
}

/** Applies `edits` (in the order LSP gives them: each against the original array) to `data`. */
export function applyTokenEdits(data: readonly number[], edits: readonly SemanticTokensEdit[]): number[] {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  const out = [...data];
  for (const e of sorted) out.splice(e.start, e.deleteCount, ...(e.data ?? []));
  return out;
}

/**
 * The last answer given per document, so the next request can be answered as its edits. Only the
 * last one is kept: the editor always asks relative to the answer it applied last.
 */
export class SemanticTokensResults {
  private readonly last = new Map<string, { resultId: string; data: number[] }>();
  private counter = 0;

  /** The whole of `data`, remembered under a new result id. */
  full(uri: string, data: number[]): SemanticTokens {
    const resultId = this.remember(uri, data);
    return { resultId, data };
  }

  /**
   * `data` as edits of the answer `previousResultId`, or whole when that answer is not the last one
   * given for `uri` (a restart, a request that lost a race).
   */
  delta(uri: string, previousResultId: string, data: number[]): SemanticTokens | SemanticTokensDelta {
    const previous = this.last.get(uri);
    if (!previous || previous.resultId !== previousResultId) return this.full(uri, data);
    const edits = tokenEdits(previous.data, data);
    const resultId = edits.length ? this.remember(uri, data) : previousResultId;
    return { resultId, edits };
  }

  forget(uri: string): void {
    this.last.delete(uri);
  }

  private remember(uri: string, data: number[]): string {
    const resultId = String(++this.counter);
    this.last.set(uri, { resultId, data });
    return resultId;
  }
}
