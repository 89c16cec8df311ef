// Turns the engine's detections into what the Test Rule page shows: values as text, events as
// one-line summaries (the titles the event documents get), lists bounded.
import { MAX_SHOWN_DETECTIONS, MAX_SHOWN_EVENTS, type DetectionView } from '../../core/secops/rule-test/protocol';
import type { Detection } from '../../udm/rule/test-types';
import { eventTitle } from '../shared/documents';

/** "1 search", "2 searches": a count with its noun. */
export function counted(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** A match or outcome value as text: lists joined, nothing parsed as markup. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

function timestampOf(udm: unknown): string {
  const t = (udm as { metadata?: { eventTimestamp?: unknown } } | null)?.metadata?.eventTimestamp;
  return typeof t === 'string' ? t : '';
}

export function detectionView(d: Detection): DetectionView {
  return {
    windowStart: d.windowStart,
    windowEnd: d.windowEnd,
    match: Object.entries(d.match).map(([k, v]) => [k, valueText(v)]),
    outcomes: Object.entries(d.outcomes)
      .filter(([k]) => k !== 'risk_score')
      .map(([k, v]) => [k, valueText(v)]),
    ...(typeof d.riskScore === 'number' && Number.isFinite(d.riskScore) ? { riskScore: d.riskScore } : {}),
    variables: Object.entries(d.events).map(([variable, events]) => ({
      variable,
      count: events.length,
      events: events.slice(0, MAX_SHOWN_EVENTS).map((e, i) => ({
        time: timestampOf(e.udm),
        summary: eventTitle(e.udm, e.id ?? `${variable} ${i + 1}`),
      })),
    })),
  };
}

/** The detections the page lists, first ones first (the engine's order). */
export function detectionViews(detections: readonly Detection[]): DetectionView[] {
  return detections.slice(0, MAX_SHOWN_DETECTIONS).map(detectionView);
}
