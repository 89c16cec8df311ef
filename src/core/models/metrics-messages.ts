// The metrics panel's protocol: messages between the webview and the extension, as discriminated
// unions checked on arrival by both sides (a posted object's shape is never trusted).

/** One evaluation or slice: what the panel draws. `metrics` is the evaluation's JSON, read defensively. */
export interface MetricsSet {
  name: string;
  label: string;
  schemaUri: string;
  metrics: unknown;
}

export interface CompareCandidate {
  name: string;
  label: string;
}

export type MetricsToWebview =
  | {
      type: 'init';
      title: string;
      subject: MetricsSet;
      candidates: CompareCandidate[];
      compare: MetricsSet | undefined;
    }
  | { type: 'comparison'; compare: MetricsSet | undefined }
  | { type: 'error'; message: string }
  /** The evaluation or its model was deleted: the panel keeps what it shows, marked as gone. */
  | { type: 'stale'; message: string };

export type MetricsFromWebview =
  { type: 'ready' } | { type: 'compare'; name: string } | { type: 'exportCsv' } | { type: 'threshold'; value: number };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';

function isMetricsSet(v: unknown): v is MetricsSet {
  return isObject(v) && isString(v['name']) && isString(v['label']) && isString(v['schemaUri']) && 'metrics' in v;
}

function isCandidate(v: unknown): v is CompareCandidate {
  return isObject(v) && isString(v['name']) && isString(v['label']);
}

export function parseMetricsToWebview(raw: unknown): MetricsToWebview | undefined {
  if (!isObject(raw)) return undefined;
  switch (raw['type']) {
    case 'init':
      return isString(raw['title']) &&
        isMetricsSet(raw['subject']) &&
        Array.isArray(raw['candidates']) &&
        raw['candidates'].every(isCandidate) &&
        (raw['compare'] === undefined || isMetricsSet(raw['compare']))
        ? (raw as MetricsToWebview)
        : undefined;
    case 'comparison':
      return raw['compare'] === undefined || isMetricsSet(raw['compare']) ? (raw as MetricsToWebview) : undefined;
    case 'error':
    case 'stale':
      return isString(raw['message']) ? (raw as MetricsToWebview) : undefined;
    default:
      return undefined;
  }
}

export function parseMetricsFromWebview(raw: unknown): MetricsFromWebview | undefined {
  if (!isObject(raw)) return undefined;
  switch (raw['type']) {
    case 'ready':
    case 'exportCsv':
      return { type: raw['type'] };
    case 'compare':
      return isString(raw['name']) && raw['name'].length <= 1000 ? { type: 'compare', name: raw['name'] } : undefined;
    case 'threshold': {
      const value = raw['value'];
      return typeof value === 'number' && value >= 0 && value <= 1 ? { type: 'threshold', value } : undefined;
    }
    default:
      return undefined;
  }
}
