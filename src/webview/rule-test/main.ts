// The Test Rule page: a summary of the run (detections over the range, searches spent, events read,
// what was not tested), a banner when the engine was cut short, one row per detection (window
// [start, end), match values, outcomes, risk score, events per variable) that expands into a table
// of its events (variable, time, event), each of which opens as the search results open an event.
// Every value is inserted as text, control and bidi characters shown as markers the way the results
// table shows them (displayText). The page keeps its last result in its webview state, so a panel
// VS Code restores after a reload shows it again without a search.
import './style.css';
import {
  parseToRuleTestView,
  type DetectionView,
  type FromRuleTestView,
  type RuleTestRunInfo,
  type ToRuleTestView,
} from '../../core/secops/rule-test/protocol';
import { displayText } from '../../core/secops/results/export';
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
// A cut run is not a complete answer: said above everything else, not among the notes.
const cutBanner = el('div', { id: 'rt-cut', role: 'alert' });
const rerunButton = el(
  'button',
  { id: 'rt-rerun', type: 'button', title: 'Test the rule again over the same range (spends searches)' },
  'Run Again',
);
const noFireButton = el(
  'button',
  {
    id: 'rt-save-no-fire',
    type: 'button',
    class: 'secondary',
    title: 'Keep the events of this range as a test case that expects no detection',
  },
  'Save as No-Fire Case…',
);
const empty = el('div', { id: 'rt-empty' }, 'No detections in this range.');
/** A table's head: one row of column headers, each with its class where it has one. */
function tableHead(columns: ReadonlyArray<readonly [string, string?]>): HTMLTableSectionElement {
  const header = ([text, cls]: readonly [string, string?]) =>
    el('th', { scope: 'col', ...(cls ? { class: cls } : {}), role: 'columnheader' }, text);
  return el('thead', { role: 'rowgroup' }, el('tr', { role: 'row' }, ...columns.map(header)));
}
const head = tableHead([
  ['#', 'rt-col-index'],
  ['Window [start, end)', 'rt-col-window'],
  ['Match', 'rt-col-match'],
  ['Outcomes', 'rt-col-outcomes'],
  ['Risk', 'rt-col-risk'],
  ['Events', 'rt-col-events'],
]);
const rows = el('tbody', { id: 'rt-rows', role: 'rowgroup' });
// A treegrid: each detection row expands (Enter, Space, Right arrow) and collapses (Left arrow) into
// its events; Up and Down move between detections.
const table = el('table', { id: 'rt-table', role: 'treegrid', 'aria-label': 'Detections' }, head, rows);
document.body.replaceChildren(
  el(
    'div',
    { id: 'app' },
    el('header', {}, title, cutBanner, summary, notes, el('div', { class: 'toolbar' }, rerunButton, noFireButton)),
    el('main', {}, empty, table),
  ),
);
empty.hidden = true;
table.hidden = true;
cutBanner.hidden = true;
rerunButton.hidden = true;
noFireButton.hidden = true;

let run: RuleTestRunInfo | undefined;

const n = (v: number): string => v.toLocaleString('en-US');
const plural = (v: number, one: string, many: string): string => `${n(v)} ${v === 1 ? one : many}`;

function timeText(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.000Z$/, 'Z');
}

/** The window as the half-open interval it is: its start is in it, its end is not. */
function windowText(d: DetectionView): string {
  // Start and end on lines of their own, so a narrow panel leaves room for the values.
  return `[${timeText(d.windowStart)},\n ${timeText(d.windowEnd)})`;
}

/** A value from the events or the rule, as the results table shows one. */
const shown = (value: string, max?: number): string => displayText(value, max);

function pairsText(pairs: Array<[string, string]>): string {
  return pairs.map(([k, v]) => `$${shown(k)} = ${shown(v)}`).join(', ');
}

/** The detection's events, one row each: the event variable, the time and what the event is. */
function eventsTable(d: DetectionView, index: number): HTMLElement {
  const body = el('tbody', { role: 'rowgroup' });
  for (const v of d.variables) {
    v.events.forEach((e, i) => {
      const button = el('button', { type: 'button', class: 'rt-event', title: 'Open this event' }, shown(e.summary));
      button.addEventListener(
        'click',
        () => run && post({ type: 'openEvent', runId: run.runId, detection: index, variable: v.variable, index: i }),
      );
      body.append(
        el(
          'tr',
          { role: 'row' },
          el('td', { class: 'rt-event-variable', role: 'cell' }, `$${v.variable}`),
          el('td', { class: 'rt-event-time', role: 'cell' }, shown(e.time)),
          el('td', { class: 'rt-event-summary', role: 'cell' }, button),
        ),
      );
    });
    if (v.count > v.events.length)
      body.append(
        el(
          'tr',
          { class: 'rt-more', role: 'row' },
          el('td', { class: 'rt-event-variable', role: 'cell' }, `$${v.variable}`),
          el(
            'td',
            { colspan: '2', role: 'cell' },
            `… and ${n(v.count - v.events.length)} more (Open Events in a Table lists them all)`,
          ),
        ),
      );
  }
  const head = tableHead([['Variable'], ['Time'], ['Event']]);
  // Explicit roles: a narrow panel lays the rows out as blocks, and the table stays a table.
  return el(
    'table',
    { class: 'rt-events', role: 'table', 'aria-label': `Events of detection ${index + 1}` },
    head,
    body,
  );
}

function detailOf(d: DetectionView, index: number): HTMLElement {
  const parts: HTMLElement[] = [];
  if (d.outcomes.length)
    parts.push(
      el(
        'dl',
        { class: 'rt-outcomes' },
        ...d.outcomes.flatMap(([k, v]) => [el('dt', {}, `$${shown(k)}`), el('dd', {}, shown(v, 2000))]),
      ),
    );
  const openAll = el('button', { type: 'button', class: 'rt-open-all' }, 'Open Events in a Table');
  openAll.addEventListener('click', () => run && post({ type: 'openEvents', runId: run.runId, detection: index }));
  const save = el(
    'button',
    {
      type: 'button',
      class: 'rt-save-case secondary',
      title: "Keep this detection's events as a test case that expects it (beside the rule, in its .test.yaml)",
    },
    'Save as Test Case…',
  );
  save.addEventListener('click', () => run && post({ type: 'saveCase', runId: run.runId, detection: index }));
  parts.push(el('div', { class: 'rt-detail-actions' }, openAll, save));
  parts.push(
    el(
      'p',
      { class: 'rt-event-counts' },
      d.variables.map((v) => `$${v.variable}: ${plural(v.count, 'event', 'events')}`).join(' · '),
    ),
  );
  parts.push(eventsTable(d, index));
  return el('div', { class: 'rt-detail-body' }, ...parts);
}

/**
 * A detection row's cell. The roles are explicit so the table keeps its grid semantics in a narrow
 * panel, where the rows are laid out as blocks.
 */
function cell(cls: string, label: string, text: string): HTMLTableCellElement {
  return el('td', { class: cls, role: 'gridcell', 'data-label': label }, text);
}

function rowOf(d: DetectionView, index: number): HTMLTableRowElement[] {
  const row = el(
    'tr',
    {
      class: 'rt-row',
      role: 'row',
      tabindex: '0',
      'aria-expanded': 'false',
      'data-window-start': String(d.windowStart),
      'data-window-end': String(d.windowEnd),
    },
    // data-label names each cell where a narrow panel stacks a row's cells under one another.
    cell('rt-index', '#', String(index + 1)),
    cell('rt-window', 'Window', windowText(d)),
    cell('rt-match', 'Match', pairsText(d.match)),
    cell('rt-outcomes-cell', 'Outcomes', pairsText(d.outcomes)),
    cell('rt-risk', 'Risk', d.riskScore === undefined ? '' : String(d.riskScore)),
    cell('rt-counts', 'Events', d.variables.map((v) => `$${v.variable}: ${n(v.count)}`).join(', ')),
  );
  const detail = el('tr', { class: 'rt-detail', role: 'row' }, el('td', { colspan: '6', role: 'gridcell' }));
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
    } else if ((e.key === 'ArrowRight' && detail.hidden) || (e.key === 'ArrowLeft' && !detail.hidden)) {
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
  title.textContent = `Test Rule: ${shown(info.ruleName)}`;
  cutBanner.textContent = info.cut ? `Cut short: ${shown(info.cut.message, 2000)}` : '';
  cutBanner.hidden = !info.cut;
  const ranAt = new Date(info.ranAt);
  summary.className = '';
  summary.textContent =
    (info.restored
      ? `Restored from the test at ${Number.isNaN(ranAt.getTime()) ? 'an earlier time' : ranAt.toLocaleString()}. `
      : '') +
    `${plural(info.detectionsTotal, 'detection', 'detections')}${info.cut ? ' (cut short)' : ''} over ${shown(info.startTime)} – ${shown(info.endTime)}: ` +
    `${plural(info.searches, 'search', 'searches')} spent, ${plural(info.eventsRead, 'event', 'events')} read.`;
  notes.replaceChildren(...info.notes.map((t) => el('li', {}, shown(t, 2000))));
  rows.replaceChildren(...detections.flatMap((d, i) => rowOf(d, i)));
  empty.hidden = detections.length > 0;
  table.hidden = detections.length === 0;
  rerunButton.hidden = false;
  rerunButton.disabled = false;
  // A range without detections can be kept as a case that expects none (its events are held).
  noFireButton.hidden = info.detectionsTotal > 0 || info.restored === true || Boolean(info.cut);
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
      title.textContent = `Test Rule: ${shown(message.ruleName)}`;
      cutBanner.hidden = true;
      summary.className = '';
      summary.textContent = shown(message.message, 2000);
      rerunButton.disabled = true;
      return;
    case 'failed':
      title.textContent = `Test Rule: ${shown(message.ruleName)}`;
      cutBanner.hidden = true;
      summary.className = message.cancelled ? 'cancelled' : 'error';
      summary.textContent = shown(message.message, 2000);
      rerunButton.disabled = false;
      return;
    case 'result':
      showResult(message.run, message.detections);
      keep(message.run, message.detections);
      return;
  }
}

noFireButton.addEventListener('click', () => run && post({ type: 'saveNoFireCase', runId: run.runId }));
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
