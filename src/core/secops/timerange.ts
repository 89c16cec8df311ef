// The search time range: a preset relative to "now" (resolved at each run) or a fixed custom window.
import { formatTime, SecOpsParamError } from './params';

export type TimePreset = '1h' | '24h' | '7d';

export type TimeRangeSpec = { kind: 'preset'; preset: TimePreset } | { kind: 'custom'; start: string; end: string };

export const PRESET_MS: Record<TimePreset, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 };
export const PRESET_LABELS: Record<TimePreset, string> = {
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
};

export interface ResolvedWindow {
  startMs: number;
  endMs: number;
  start: string;
  end: string;
}

/** Presets end at the next whole second after `now`, so an event that just happened is included. */
export function resolveTimeRange(spec: TimeRangeSpec, now: number): ResolvedWindow {
  let startMs: number;
  let endMs: number;
  if (spec.kind === 'preset') {
    endMs = Math.ceil((now + 1) / 1000) * 1000;
    startMs = endMs - PRESET_MS[spec.preset];
  } else {
    startMs = Date.parse(formatTime(spec.start, 'start'));
    endMs = Date.parse(formatTime(spec.end, 'end'));
    if (!(startMs < endMs))
      throw new SecOpsParamError(`The custom time range starts (${spec.start}) after it ends (${spec.end}).`, 'start');
  }
  return { startMs, endMs, start: formatTime(startMs, 'start'), end: formatTime(endMs, 'end') };
}

export function describeTimeRange(spec: TimeRangeSpec): string {
  return spec.kind === 'preset' ? PRESET_LABELS[spec.preset] : `${spec.start} – ${spec.end}`;
}

/**
 * Reads a time typed by a person: RFC 3339, "now", or an offset from now such as "-2h", "-30m",
 * "-7d". Returns the RFC 3339 text, or an error message for the input box.
 */
export function parseTimeInput(text: string, now: number): { value: string } | { error: string } {
  const t = text.trim();
  if (t === '') return { error: 'Enter a time: RFC 3339 (2024-05-01T12:00:00Z), "now", or an offset such as -2h.' };
  if (t.toLowerCase() === 'now') return { value: formatTime(Math.floor(now / 1000) * 1000, 'time') };
  const rel = /^-(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(t);
  if (rel) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }[
      rel[2].toLowerCase() as 's' | 'm' | 'h' | 'd' | 'w'
    ];
    return { value: formatTime(Math.floor((now - Number(rel[1]) * unit) / 1000) * 1000, 'time') };
  }
  try {
    return { value: formatTime(t, 'time') };
  } catch {
    return { error: `"${t}" is not a time. Use RFC 3339 (2024-05-01T12:00:00Z), "now", or an offset such as -2h.` };
  }
}

export function isTimeRangeSpec(value: unknown): value is TimeRangeSpec {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.kind === 'preset') return v.preset === '1h' || v.preset === '24h' || v.preset === '7d';
  return v.kind === 'custom' && typeof v.start === 'string' && typeof v.end === 'string';
}
