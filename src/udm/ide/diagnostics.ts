/** The library's diagnostics as LSP diagnostics (severity, tags, quick-fix data). */
import { type Diagnostic, DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver-types';
import type { Analysis, UdmDiagnostic } from '../index';

/** The analysis's diagnostics, their source the document's language (`udm`, or `yaral` for a rule). */
export function toLspDiagnostics(a: Analysis): Diagnostic[] {
  const source = a.language ?? 'udm';
  return a.diagnostics.map((d) => toLspDiagnostic(d, source));
}

export function toLspDiagnostic(d: UdmDiagnostic, source: 'udm' | 'yaral' = 'udm'): Diagnostic {
  const diag: Diagnostic = {
    range: d.range,
    message: d.message,
    severity:
      d.severity === 'error'
        ? DiagnosticSeverity.Error
        : d.severity === 'warning'
          ? DiagnosticSeverity.Warning
          : DiagnosticSeverity.Information,
    source,
  };
  if (d.code) diag.code = d.code;
  if (d.data !== undefined) diag.data = d.data;
  if (d.code === 'deprecated') diag.tags = [DiagnosticTag.Deprecated];
  if (d.code === 'never-matches') diag.tags = [DiagnosticTag.Unnecessary];
  return diag;
}
