/** Quick fixes: the replacements a diagnostic carries in its data. */
import { type CodeAction, CodeActionKind, type Range, TextEdit } from 'vscode-languageserver-types';
import type { Analysis } from '../index';
import { toLspDiagnostic } from './diagnostics';

export function codeActions(a: Analysis, uri: string, range: Range): CodeAction[] {
  const start = a.lines.offset(range.start);
  const end = a.lines.offset(range.end);
  const out: CodeAction[] = [];
  for (const d of a.diagnostics) {
    if (d.offset > end || d.offset + d.length < start) continue;
    const data = d.data as { replacements?: string[] } | undefined;
    if (!data?.replacements?.length) continue;
    data.replacements.forEach((r, i) => {
      const diag = toLspDiagnostic(d, a.language ?? 'udm');
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
