// The Test Rule panel's protocol: what the extension sends the page (a run's detections, already
// turned into text) and what the page asks for (an event, a detection's events, Run Again). Both
// sides check every message on arrival. No vscode and no DOM here.
import { assertTypedMessage, isRecord } from '../page-message';

/** One event of a detection as the page lists it. */
export interface DetectionEventView {
  /** metadata.eventTimestamp as sent, or "" */
  time: string;
  /** what the event is: type, host, target (the same words the event documents' titles use) */
  summary: string;
}

export interface DetectionVariableView {
  /** the event variable, without `$` */
  variable: string;
  /** events the detection holds for it (the list below may be shorter) */
  count: number;
  events: DetectionEventView[];
}

export interface DetectionView {
  /** milliseconds since the epoch: the window [windowStart, windowEnd) */
  windowStart: number;
  windowEnd: number;
  /** [name without `$`, value as text] */
  match: Array<[string, string]>;
  outcomes: Array<[string, string]>;
  riskScore?: number;
  variables: DetectionVariableView[];
}

export interface RuleTestRunInfo {
  runId: string;
  ruleName: string;
  /** the rule file (a URI string), so Run Again after a reload finds it */
  uri: string;
  /** RFC 3339 range tested */
  startTime: string;
  endTime: string;
  searches: number;
  eventsRead: number;
  /** what was not tested, cut short or computed over part of the events, each said plainly */
  notes: string[];
  /** detections the engine found (the list may hold fewer) */
  detectionsTotal: number;
  ranAt: string;
  /** the engine stopped before the end (its work limit, or the time limit): why, and what is shown */
  cut?: RuleTestCut;
  /** shown from the page's own state after a reload: the events are no longer held */
  restored?: boolean;
}

export interface RuleTestCut {
  reason: 'work-limit' | 'time-limit';
  message: string;
}

export type ToRuleTestView =
  | { type: 'running'; ruleName: string; message: string }
  | { type: 'result'; run: RuleTestRunInfo; detections: DetectionView[] }
  | { type: 'failed'; ruleName: string; message: string; cancelled: boolean };

export type FromRuleTestView =
  | { type: 'ready' }
  | { type: 'openEvent'; runId: string; detection: number; variable: string; index: number }
  | { type: 'openEvents'; runId: string; detection: number }
  | { type: 'rerun'; runId: string }
  /** a detection's events kept as a test case that expects it */
  | { type: 'saveCase'; runId: string; detection: number }
  /** the events of a run without detections kept as a case that expects none */
  | { type: 'saveNoFireCase'; runId: string };

/** The page lists at most this many detections and this many events per variable of one. */
export const MAX_SHOWN_DETECTIONS = 1000;
export const MAX_SHOWN_EVENTS = 200;
const MAX_TEXT = 10_000;
const MAX_NOTES = 100;

export class RuleTestMessageError extends Error {
  override readonly name = 'RuleTestMessageError';
}

function text(o: Record<string, unknown>, key: string, max = MAX_TEXT): string {
  const v = o[key];
  if (typeof v !== 'string' || v.length > max)
    throw new RuleTestMessageError(`${key} must be a string of at most ${max} characters`);
  return v;
}

function count(o: Record<string, unknown>, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new RuleTestMessageError(`${key} must be a non-negative integer`);
  return v;
}

function list<T>(v: unknown, what: string, max: number, item: (x: unknown, i: number) => T): T[] {
  if (!Array.isArray(v) || v.length > max) throw new RuleTestMessageError(`${what} must be a list of at most ${max}`);
  return v.map(item);
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/** Checks a message from the page; throws RuleTestMessageError naming what is wrong. */
export function parseFromRuleTestView(data: unknown): FromRuleTestView {
  assertTypedMessage(data, RuleTestMessageError);
  switch (data.type) {
    case 'ready':
      return { type: 'ready' };
    case 'rerun':
      return { type: 'rerun', runId: text(data, 'runId', 100) };
    case 'openEvents':
      return { type: 'openEvents', runId: text(data, 'runId', 100), detection: count(data, 'detection') };
    case 'saveCase':
      return { type: 'saveCase', runId: text(data, 'runId', 100), detection: count(data, 'detection') };
    case 'saveNoFireCase':
      return { type: 'saveNoFireCase', runId: text(data, 'runId', 100) };
    case 'openEvent': {
      const variable = text(data, 'variable', 100);
      if (!VARIABLE.test(variable)) throw new RuleTestMessageError('openEvent.variable must be a variable name');
      return {
        type: 'openEvent',
        runId: text(data, 'runId', 100),
        detection: count(data, 'detection'),
        variable,
        index: count(data, 'index'),
      };
    }
    default:
      throw new RuleTestMessageError(`unknown message type ${JSON.stringify(data.type).slice(0, 60)}`);
  }
}

function pairs(v: unknown, what: string): Array<[string, string]> {
  return list(v, what, 1000, (p, i) => {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || typeof p[1] !== 'string')
      throw new RuleTestMessageError(`${what}[${i}] must be a [name, value] pair of strings`);
    if (p[0].length > 200 || p[1].length > MAX_TEXT) throw new RuleTestMessageError(`${what}[${i}] is too long`);
    return [p[0], p[1]];
  });
}

function detectionOf(d: unknown, i: number): DetectionView {
  if (!isRecord(d)) throw new RuleTestMessageError(`detections[${i}] must be an object`);
  const windowStart = count(d, 'windowStart');
  const windowEnd = count(d, 'windowEnd');
  if (windowEnd < windowStart) throw new RuleTestMessageError(`detections[${i}] ends before it starts`);
  const risk = d.riskScore;
  if (risk !== undefined && (typeof risk !== 'number' || !Number.isFinite(risk)))
    throw new RuleTestMessageError(`detections[${i}].riskScore must be a number`);
  return {
    windowStart,
    windowEnd,
    match: pairs(d.match, `detections[${i}].match`),
    outcomes: pairs(d.outcomes, `detections[${i}].outcomes`),
    ...(typeof risk === 'number' ? { riskScore: risk } : {}),
    variables: list(d.variables, `detections[${i}].variables`, 100, (v, j) => {
      if (!isRecord(v)) throw new RuleTestMessageError(`detections[${i}].variables[${j}] must be an object`);
      const variable = text(v, 'variable', 100);
      if (!VARIABLE.test(variable)) throw new RuleTestMessageError(`detections[${i}].variables[${j}] has a bad name`);
      return {
        variable,
        count: count(v, 'count'),
        events: list(v.events, 'events', MAX_SHOWN_EVENTS, (e) => {
          if (!isRecord(e)) throw new RuleTestMessageError('an event must be an object');
          return { time: text(e, 'time', 100), summary: text(e, 'summary', 1000) };
        }),
      };
    }),
  };
}

function cutOf(v: unknown): RuleTestCut {
  if (!isRecord(v) || (v.reason !== 'work-limit' && v.reason !== 'time-limit'))
    throw new RuleTestMessageError('run.cut must say why the run was cut (work-limit or time-limit)');
  return { reason: v.reason, message: text(v, 'message') };
}

/** Checks the run info (a message's, or the page's kept state after a reload). */
export function parseRunInfo(run: unknown): RuleTestRunInfo {
  if (!isRecord(run)) throw new RuleTestMessageError('run must be an object');
  return {
    runId: text(run, 'runId', 100),
    ruleName: text(run, 'ruleName', 300),
    uri: text(run, 'uri', 4096),
    startTime: text(run, 'startTime', 64),
    endTime: text(run, 'endTime', 64),
    searches: count(run, 'searches'),
    eventsRead: count(run, 'eventsRead'),
    notes: list(run.notes, 'run.notes', MAX_NOTES, (n) => {
      if (typeof n !== 'string' || n.length > MAX_TEXT) throw new RuleTestMessageError('a note must be a string');
      return n;
    }),
    detectionsTotal: count(run, 'detectionsTotal'),
    ranAt: text(run, 'ranAt', 64),
    ...(run.cut !== undefined ? { cut: cutOf(run.cut) } : {}),
    ...(run.restored === true ? { restored: true } : {}),
  };
}

/** Checks a message for the page (the page trusts the extension no more than the other way round). */
export function parseToRuleTestView(data: unknown): ToRuleTestView {
  if (!isRecord(data) || typeof data.type !== 'string') throw new RuleTestMessageError('a message must have a type');
  switch (data.type) {
    case 'running':
      return { type: 'running', ruleName: text(data, 'ruleName', 300), message: text(data, 'message') };
    case 'failed':
      return {
        type: 'failed',
        ruleName: text(data, 'ruleName', 300),
        message: text(data, 'message'),
        cancelled: data.cancelled === true,
      };
    case 'result':
      return {
        type: 'result',
        run: parseRunInfo(data.run),
        detections: list(data.detections, 'detections', MAX_SHOWN_DETECTIONS, detectionOf),
      };
    default:
      throw new RuleTestMessageError('unknown message type');
  }
}
