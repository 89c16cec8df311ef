// The Test Rule page: a summary of the run (detections over the range, searches spent, events read,
// what was not tested), one row per detection (window, match values, outcomes, risk score, events
// per variable) that expands into its events, each of which opens as the search results open an
// event. Every value is inserted as text. The page keeps its last result in its webview state, so a
// panel VS Code restores after a reload shows it again without a search.
import './style.css';
import {
  parseToRuleTestView,
  type DetectionView,
  type FromRuleTestView,
  type RuleTestRunInfo,
  type ToRuleTestView,
} from '../../core/secops/rule-test/protocol';
import { el } from '../shared/dom';
import { onHostMessage, pageApi } from '../shared/page-api';

interface KeptState {
  run: RuleTestRunInfo;
  detections: DetectionView[];
}

/** The state VS Code keeps is bounded: a larger result is kept without its event lists. */
const MAX_KEPT_CHARS = 2_000_000;

const vscode = pageApi<FromRuleTestView, KeptState>();
const post = (message: FromRuleTestView): void => vscode.postMessage(message);

const title = el('h1', { id: 'rt-title' }, 'Test Rule');
const summary = el('div', { id: 'rt-summary', role: 'status' }, 'Run Test Rule from a .yaral file.');
const notes = el('ul', { id: 'rt-notes' });
const rerunButton = el(
  'button',
  { id: 'rt-rerun', type: 'button', title: 'Test the rule again over the same range (spends searches)' },
  'Run Again',
);
const empty = el('div', { id: 'rt-empty' }, 'No detections in this range.');
const head = el(
  'thead',
  {},
  el('tr', {}, ...['#', 'Window', 'Match', 'Outcomes', 'Risk', 'Events'].map((h) => el('th', { scope: 'col' }, h))),
);
const rows = el('tbody', { id: 'rt-rows' });
const table = el('table', { id: 'rt-table', 'aria-label': 'Detections' }, head, rows);
document.body.replaceChildren(
  el(
    'div',
    { id: 'app' },
    el('header', {}, title, summary, notes, el('div', { class: 'toolbar' }, rerunButton)),
    el('main', {}, empty, table),
  ),
);
empty.hidden = true;
table.hidden = true;
rerunButton.hidden = true;

let run: RuleTestRunInfo | undefined;

const n = (v: number): string => v.toLocaleString('en-US');
const plural = (v: number, one: string, many: string): string => `${n(v)} ${v === 1 ? one : many}`;

function timeText(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.000Z$/, 'Z');
}

function windowText(d: DetectionView): string {
  return d.windowStart === d.windowEnd
    ? timeText(d.windowStart)
    : // Start and end on lines of their own, so a narrow panel leaves room for the values.
      `${timeText(d.windowStart)}\n– ${timeText(d.windowEnd)}`;
}

function pairsText(pairs: Array<[string, string]>): string {
  return pairs.map(([k, v]) => `$${k} = ${v}`).join(', ');
}

function detailOf(d: DetectionView, index: number): HTMLElement {
  const parts: HTMLElement[] = [];
  if (d.outcomes.length)
    parts.push(
      el('dl', { class: 'rt-outcomes' }, ...d.outcomes.flatMap(([k, v]) => [el('dt', {}, `$${k}`), el('dd', {}, v)])),
    );
  const openAll = el('button', { type: 'button', class: 'rt-open-all' }, 'Open Events in a Table');
  openAll.addEventListener('click', () => run && post({ type: 'openEvents', runId: run.runId, detection: index }));
  parts.push(openAll);
  for (const v of d.variables) {
    parts.push(el('h3', {}, `$${v.variable}: ${plural(v.count, 'event', 'events')}`));
    const list = el('ul', { class: 'rt-events' });
    v.events.forEach((e, i) => {
      const button = el(
        'button',
        { type: 'button', class: 'rt-event', title: 'Open this event' },
        el('span', { class: 'rt-event-time' }, e.time),
        ' ',
        e.summary,
      );
      button.addEventListener(
        'click',
        () => run && post({ type: 'openEvent', runId: run.runId, detection: index, variable: v.variable, index: i }),
      );
      list.append(el('li', {}, button));
    });
    if (v.count > v.events.length)
      list.append(
        el(
          'li',
          { class: 'rt-more' },
          `… and ${n(v.count - v.events.length)} more (Open Events in a Table lists them all)`,
        ),
      );
    parts.push(list);
  }
  return el('div', { class: 'rt-detail-body' }, ...parts);
}

function rowOf(d: DetectionView, index: number): HTMLTableRowElement[] {
  const row = el(
    'tr',
    {
      class: 'rt-row',
      tabindex: '0',
      'aria-expanded': 'false',
      'data-window-start': String(d.windowStart),
      'data-window-end': String(d.windowEnd),
    },
    el('td', { class: 'rt-index' }, String(index + 1)),
    el('td', { class: 'rt-window' }, windowText(d)),
    el('td', { class: 'rt-match' }, pairsText(d.match)),
    el('td', { class: 'rt-outcomes-cell' }, pairsText(d.outcomes)),
    el('td', { class: 'rt-risk' }, d.riskScore === undefined ? '' : String(d.riskScore)),
    el('td', { class: 'rt-counts' }, d.variables.map((v) => `$${v.variable}: ${n(v.count)}`).join(', ')),
  );
  const detail = el('tr', { class: 'rt-detail' }, el('td', { colspan: '6' }));
  detail.hidden = true;
  const toggle = (): void => {
    const open = detail.hidden;
    if (open && detail.cells[0].childElementCount === 0) detail.cells[0].append(detailOf(d, index));
    detail.hidden = !open;
    row.setAttribute('aria-expanded', String(open));
  };
  row.addEventListener('click', toggle);
  row.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      toggle();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const all = [...rows.querySelectorAll<HTMLTableRowElement>('tr.rt-row')];
      all[all.indexOf(row) + (e.key === 'ArrowDown' ? 1 : -1)]?.focus();
    }
  });
  return [row, detail];
}

function showResult(info: RuleTestRunInfo, detections: DetectionView[]): void {
  run = info;
  title.textContent = `Test Rule: ${info.ruleName}`;
  const ranAt = new Date(info.ranAt);
  summary.className = '';
  summary.textContent =
    (info.restored
      ? `Restored from the test at ${Number.isNaN(ranAt.getTime()) ? 'an earlier time' : ranAt.toLocaleString()}. `
      : '') +
    `${plural(info.detectionsTotal, 'detection', 'detections')} over ${info.startTime} – ${info.endTime}: ` +
    `${plural(info.searches, 'search', 'searches')} spent, ${plural(info.eventsRead, 'event', 'events')} read.`;
  notes.replaceChildren(...info.notes.map((t) => el('li', {}, t)));
  rows.replaceChildren(...detections.flatMap((d, i) => rowOf(d, i)));
  empty.hidden = detections.length > 0;
  table.hidden = detections.length === 0;
  rerunButton.hidden = false;
  rerunButton.disabled = false;
}

function keep(info: RuleTestRunInfo, detections: DetectionView[]): void {
  let state: KeptState = { run: info, detections };
  if (JSON.stringify(state).length > MAX_KEPT_CHARS)
    state = {
      run: info,
      detections: detections.map((d) => ({ ...d, variables: d.variables.map((v) => ({ ...v, events: [] })) })),
    };
  vscode.setState(state);
}

function onMessage(message: ToRuleTestView): void {
  switch (message.type) {
    case 'running':
      title.textContent = `Test Rule: ${message.ruleName}`;
      summary.className = '';
      summary.textContent = message.message;
      rerunButton.disabled = true;
      return;
    case 'failed':
      title.textContent = `Test Rule: ${message.ruleName}`;
      summary.className = message.cancelled ? '' : 'error';
      summary.textContent = message.message;
      rerunButton.disabled = false;
      return;
    case 'result':
      showResult(message.run, message.detections);
      keep(message.run, message.detections);
      return;
  }
}

rerunButton.addEventListener('click', () => {
  if (!run) return;
  rerunButton.disabled = true;
  post({ type: 'rerun', runId: run.runId });
});
onHostMessage(parseToRuleTestView, onMessage);

// After a reload: the result this page showed, checked like any message.
const kept = vscode.getState();
if (kept) {
  try {
    const restored = parseToRuleTestView({ type: 'result', run: kept.run, detections: kept.detections });
    if (restored.type === 'result') showResult({ ...restored.run, restored: true }, restored.detections);
  } catch {
    // A state from another version: start empty.
  }
}
post({ type: 'ready' });
