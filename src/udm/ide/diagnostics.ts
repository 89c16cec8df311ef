/** The library's diagnostics as LSP diagnostics (severity, tags, quick-fix data). */
import { type Diagnostic, DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver-types';
import type { Analysis, UdmDiagnostic } from '../index';

export function toLspDiagnostics(a: Analysis): Diagnostic[] {
  return a.diagnostics.map(toLspDiagnostic);
}

export function toLspDiagnostic(d: UdmDiagnostic): Diagnostic {
  const diag: Diagnostic = {
    range: d.range,
    message: d.message,
    severity:
      d.severity === 'error'
        ? DiagnosticSeverity.Error
        : d.severity === 'warning'
          ? DiagnosticSeverity.Warning
          : DiagnosticSeverity.Information,
    source: 'udm',
  };
  if (d.code) diag.code = d.code;
  if (d.data !== undefined) diag.data = d.data;
  if (d.code === 'deprecated') diag.tags = [DiagnosticTag.Deprecated];
  if (d.code === 'never-matches') diag.tags = [DiagnosticTag.Unnecessary];
  return diag;
}
