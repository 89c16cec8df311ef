import type { RawDiagnostic } from '../parser';

/** A rule check's diagnostic: at least one character wide, so an empty span still shows. */
export function diag(
  severity: RawDiagnostic['severity'],
  message: string,
  span: { start: number; end: number },
  code: string,
  data?: unknown,
): RawDiagnostic {
  return {
    severity,
    message,
    start: span.start,
    end: Math.max(span.end, span.start + 1),
    code,
    ...(data ? { data } : {}),
  };
}
