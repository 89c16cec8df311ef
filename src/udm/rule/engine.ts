// Test Rule's computation: a rule's detections over the events the plan's searches returned.
// Each variable's events are filtered by its own statements with the search evaluator, joined on
// placeholders and cross-variable statements (join.ts), grouped and windowed (windows.ts), and
// each candidate gets its outcomes and is kept when the condition holds (outcomes.ts). All of it
// spends one work budget (work.ts); a run the budget or the deadline stops says where, in `cut`.
import type { Expr, Operand } from '../ast';
import { ruleCompiler } from './compile';
import { joinRows, type Row } from './join';
import { refsOf, ruleModel, type RuleModel } from './model';
import { DetectionEvaluator, type Candidate, type Evaluation } from './outcomes';
import { firstRule } from './plan';
import { prepareVariable, type PrepareStats, type PreparedEvent, type PreparedVariable } from './prepare';
import type { Detection, DetectionEvent, RuleTestResult } from './test-types';
import { groupRows, windowModelNote, windowsOfGroup, type WindowCandidate } from './windows';
import { DEFAULT_WORK_LIMITS, WorkBudget, type CutReason, type WorkLimits } from './work';

export interface RuleTestOptions {
  /** reference lists by name (without `%`) with their lines */
  referenceLists?: Record<string, string[]>;
  /** only events whose time lies in [start, end) (ms) */
  timeRange?: { start: number; end: number };
  /** stop after this many detections (default 1,000) */
  maxDetections?: number;
  /**
   * the run's one work limit and its row cap (tests lower them); a run they stop returns what it
   * found with `cut` set (reason 'work-limit'), its message also the last note, in the same words
   */
  limits?: Partial<WorkLimits>;
  /** epoch ms: stop when Date.now() passes it and return what was found, with cut set */
  deadline?: number;
}

export const DEFAULT_MAX_DETECTIONS = 1000;
/** How many detections Test Rule (the panel, the CLI, the agents' tool) keeps before it says it stopped. */
export const TEST_RULE_MAX_DETECTIONS = 10_000;

const BIG = 1e9;

/**
 * Whether a condition can hold with one variable missing and every other plentiful: true, false,
 * or undefined where it depends on outcomes (three-valued, so `not` of an unknown stays unknown).
 */
function holdsWithout(e: Expr | null, missing: string): boolean | undefined {
  if (!e) return false;
  const count = (name: string): number => (name === missing ? 0 : BIG);
  const value = (op: Operand): number | undefined =>
    op.type === 'count' ? count(op.name) : op.type === 'number' ? op.value : undefined;
  switch (e.type) {
    case 'and': {
      const parts = e.items.map((i) => holdsWithout(i, missing));
      return parts.includes(false) ? false : parts.includes(undefined) ? undefined : true;
    }
    case 'or': {
      const parts = e.items.map((i) => holdsWithout(i, missing));
      return parts.includes(true) ? true : parts.includes(undefined) ? undefined : false;
    }
    case 'not': {
      const inner = holdsWithout(e.expr, missing);
      return inner === undefined ? undefined : !inner;
    }
    case 'exists':
      return count(e.variable.name) > 0;
    case 'compare': {
      const a = value(e.left);
      const b = e.right ? value(e.right) : undefined;
      if (a === undefined || b === undefined) return undefined;
      const ops = { '=': a === b, '!=': a !== b, '>': a > b, '>=': a >= b, '<': a < b, '<=': a <= b };
      return ops[e.op];
    }
    default:
      return undefined;
  }
}

/** Variables the condition lets be missing (`!$e`, `#e = 0`). */
function optionalVariables(model: RuleModel): Set<string> {
  return new Set(model.eventVars.filter((v) => model.condition && holdsWithout(model.condition, v) !== false));
}

/** The reference lists the computed statements name. */
function listNames(model: RuleModel): Set<string> {
  const names = new Set<string>();
  const visit = (e: Expr): void => {
    if (e.type === 'in' && e.list) names.add(e.list.name);
    else if (e.type === 'and' || e.type === 'or') e.items.forEach(visit);
    else if (e.type === 'not') visit(e.expr);
  };
  for (const list of model.filters.values()) list.forEach(visit);
  model.cross.forEach((c) => visit(c.expr));
  return names;
}

function byVariable(events: Map<string, unknown[]>): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const [k, v] of events) out.set(k.replace(/^\$/, ''), v);
  return out;
}

function candidateOf(w: WindowCandidate, order: string[]): Candidate {
  const sets = order.map(() => new Set<PreparedEvent>());
  for (const r of w.rows) r.events.forEach((e, i) => e && sets[i].add(e));
  const events = new Map<string, PreparedEvent[]>();
  order.forEach((v, i) => {
    if (sets[i].size)
      events.set(
        v,
        [...sets[i]].sort((a, b) => a.t - b.t || ((a.id ?? '') < (b.id ?? '') ? -1 : 1)),
      );
  });
  return { rows: w.rows, events, match: w.group };
}

function detectionOf(w: WindowCandidate, c: Candidate, outcomes: Record<string, unknown>): Detection {
  const events: Record<string, DetectionEvent[]> = {};
  for (const [v, list] of c.events)
    events[v] = list.map((e) => ({ ...(e.id !== undefined ? { id: e.id } : {}), udm: e.udm }));
  const d: Detection = { match: { ...w.group }, windowStart: w.start, windowEnd: w.end, outcomes, events };
  const risk = outcomes.risk_score;
  if (typeof risk === 'number' && Number.isFinite(risk)) d.riskScore = risk;
  else if (typeof risk === 'string' && risk.trim() !== '' && Number.isFinite(Number(risk))) d.riskScore = Number(risk);
  return d;
}

function prepareAll(
  model: RuleModel,
  compiler: ReturnType<typeof ruleCompiler>,
  given: Map<string, unknown[]>,
  options: RuleTestOptions,
  notes: string[],
): PreparedVariable[] {
  const stats: PrepareStats = { withoutTime: 0, outsideRange: 0, valuesCut: false };
  const vars: PreparedVariable[] = [];
  for (const v of model.eventVars) {
    const raw = given.get(v);
    if (!raw) {
      notes.push(`No events were given for $${v}.`);
      continue;
    }
    vars.push(prepareVariable(model, compiler, v, raw, options.timeRange, stats));
  }
  if (stats.withoutTime) notes.push(`${stats.withoutTime} events without metadata.event_timestamp were left out.`);
  if (stats.valuesCut) notes.push('Some events give a placeholder more than 16 values: only the first 16 were joined.');
  return vars;
}

/**
 * options: suppression_window, a tumbling window as Google documents it: at most one detection per
 * scope in each window of that length aligned on the epoch (by the detection's window start). The
 * scope is the `$suppression_key` outcome of a rule without match: (every detection when it has
 * none) and the match values otherwise.
 */
function suppress(model: RuleModel, detections: Detection[], notes: string[]): Detection[] {
  const window = model.suppressionWindow;
  if (!window) return detections;
  const taken = new Set<string>();
  const kept = detections.filter((d) => {
    const scope = model.hasMatch ? JSON.stringify(d.match) : JSON.stringify(d.outcomes.suppression_key ?? null);
    const key = `${Math.floor(d.windowStart / window)} ${scope}`;
    if (taken.has(key)) return false;
    taken.add(key);
    return true;
  });
  if (kept.length < detections.length)
    notes.push(
      `options: suppression_window suppressed ${(detections.length - kept.length).toLocaleString('en-US')} detections.`,
    );
  return kept;
}

/** The window model's note: a sliding window whose pivot the test cannot read is computed as hop. */
function modelNote(model: RuleModel, order: string[]): string | undefined {
  const w = model.window;
  if (w?.kind === 'sliding' && w.pivot && !order.includes(w.pivot.variable))
    return windowModelNote({ kind: 'hop', duration: w.duration });
  return model.hasMatch ? windowModelNote(w) : undefined;
}

/** What a cut run shows: where it stopped, why, and what the detections listed are. */
function cutMessage(where: string, reason: CutReason, shown: number): string {
  const why = reason === 'time-limit' ? 'time limit' : 'work limit';
  const what =
    shown === 0
      ? 'no detection was found before it'
      : `the ${shown.toLocaleString('en-US')} detection${shown === 1 ? ' shown is the one' : 's shown are those'} found before it`;
  return `${where} (${why}): ${what}; narrow the time range or the rule's statements.`;
}

interface Decided {
  detections: Detection[];
  capped: boolean;
  /** where the windows or the outcomes stopped, when the budget stopped them */
  cut?: string;
}

/** Windows every group and keeps the candidates whose condition holds. */
function decideAll(
  model: RuleModel,
  compiler: ReturnType<typeof ruleCompiler>,
  order: string[],
  rows: Row[],
  max: number,
  work: WorkBudget,
  notComputed: Set<string>,
): Decided {
  const evaluator = new DetectionEvaluator(model, compiler, order);
  const out: Decided = { detections: [], capped: false };
  const outcomeNames = new Set(model.outcomes.map((o) => o.variable.name));
  const conditionReadsOutcomes = [...refsOf(model.condition).placeholders].some((p) => outcomeNames.has(p));
  const decide = (w: WindowCandidate): void => {
    if (out.capped || out.cut) return;
    if (out.detections.length >= max) {
      out.capped = true;
      return;
    }
    if (!work.spend(w.rows.length)) return;
    const c = candidateOf(w, order);
    const ev: Evaluation = { outcomes: {}, notComputed };
    // Most windows fail a count condition: decide those before computing any outcome.
    if (!conditionReadsOutcomes && !evaluator.holds(model.condition, c, { ...c.match }, ev)) return;
    const outcomes = evaluator.outcomes(c, ev);
    if (!evaluator.holds(model.condition, c, { ...c.match, ...outcomes }, ev)) return;
    out.detections.push(detectionOf(w, c, outcomes));
  };
  const groups = groupRows(model, rows);
  for (let g = 0; g < groups.length && !out.capped; g++) {
    if (!windowsOfGroup(model, order, groups[g], decide, work) || work.reason) {
      const n = (x: number): string => x.toLocaleString('en-US');
      out.cut = `The windows stopped in match group ${n(g + 1)} of ${n(groups.length)}`;
      break;
    }
  }
  return out;
}

/** The detections of the first rule of `text` over each event variable's events. */
export function runRuleTest(
  text: string,
  eventsByVariable: Map<string, unknown[]>,
  options: RuleTestOptions = {},
): RuleTestResult {
  const found = firstRule(text);
  if ('error' in found) return { detections: [], notes: [found.error] };
  const model = ruleModel(found.rule, text);
  const notes = [...model.untestable];
  const names = new Set<string>([
    ...model.bindings.map((b) => b.placeholder),
    ...model.match.map((m) => m.placeholder),
    ...model.outcomes.map((o) => o.variable.name),
  ]);
  const compiler = ruleCompiler(found.rule, text, names, options.referenceLists);
  for (const name of listNames(model))
    if (!options.referenceLists || !Object.hasOwn(options.referenceLists, name))
      notes.push(`The reference list %${name} was not given: no value is taken to be in it.`);
  const vars = prepareAll(model, compiler, byVariable(eventsByVariable), options, notes);
  const limits = { ...DEFAULT_WORK_LIMITS, ...options.limits };
  const work = new WorkBudget(limits.maxWork, options.deadline);
  const joined = joinRows(model, compiler, vars, optionalVariables(model), work, limits.maxRows);
  const note = modelNote(model, joined.order);
  if (note) notes.push(note);
  const max = options.maxDetections ?? DEFAULT_MAX_DETECTIONS;
  const notComputed = new Set<string>();
  const decided = decideAll(model, compiler, joined.order, joined.rows, max, work, notComputed);
  if (decided.capped) notes.push(`Only the first ${max.toLocaleString('en-US')} detections are listed.`);
  notes.push(...notComputed);
  const sorted = decided.detections.sort(
    (a, b) => a.windowStart - b.windowStart || JSON.stringify(a.match).localeCompare(JSON.stringify(b.match)),
  );
  const detections = suppress(model, sorted, notes);
  const where = joined.cut ?? decided.cut;
  if (where === undefined) return { detections, notes };
  // The row cap stops the join without the budget: it counts as the work limit.
  const reason = work.reason ?? 'work-limit';
  const cut = { reason, message: cutMessage(where, reason, detections.length) };
  // The notes say it too, in the same words, for a reader that shows notes only.
  notes.push(cut.message);
  return { detections, notes, cut };
}
