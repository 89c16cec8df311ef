// The timeline over the results: bars of the rows (following the quick filter), a labelled axis
// and scale, and a period picked by a click or a drag that hides the rows outside it.
import { timeField } from '../../core/secops/results/fields';
import { histogram } from '../../core/secops/results/table';
import { el } from '../shared/dom';
import {
  filterInput,
  histogramAxis,
  histogramBox,
  histogramScale,
  histogramWrap,
  periodBar,
  periodClear,
  periodSearch,
  periodText,
} from './layout';
import { post, state } from './state';
import { filterAnswer, grid, recompute } from './table';

/** The bars drawn (for a click or drag to pick a period) and where a drag started. */
const bars = {
  bins: [] as Array<{ start: number; end: number; count: number }>,
  dragFrom: undefined as number | undefined,
};

export function renderHistogram(): void {
  // The bars follow the quick filter (not the period, which they are for picking); with a filter the
  // extension has not answered yet, they are drawn when its answer arrives.
  const filter = filterInput.value.trim();
  const shown = state.run && filter !== '' ? filterAnswer(filter)?.indices : undefined;
  if (state.run && filter !== '' && !shown) return;
  histogramBox.replaceChildren();
  histogramAxis.replaceChildren();
  histogramScale.replaceChildren();
  bars.bins = [];
  histogramWrap.classList.toggle('visible', false);
  if (!state.run) return;
  const path = timeField(state.run.kind);
  if (!path || state.rowCount === 0) return;
  let start = state.run.startTime ? Date.parse(state.run.startTime) : Number.POSITIVE_INFINITY;
  let end = state.run.endTime ? Date.parse(state.run.endTime) : Number.NEGATIVE_INFINITY;
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    start = Number.POSITIVE_INFINITY;
    end = Number.NEGATIVE_INFINITY;
    for (const t of state.rowTimes) {
      if (Number.isNaN(t)) continue;
      if (t < start) start = t;
      if (t + 1 > end) end = t + 1;
    }
  }
  if (!Number.isFinite(start) || !Number.isFinite(end)) return;
  let times: Float64Array = state.rowTimes;
  if (shown) {
    times = new Float64Array(shown.length);
    for (let i = 0; i < shown.length; i++) times[i] = state.rowTimes[shown[i]]!;
  }
  const bins = histogram(times, start, end, 80);
  bars.bins = bins;
  const max = bins.reduce((m, b) => Math.max(m, b.count), 0);
  const frag = document.createDocumentFragment();
  bins.forEach((bin, i) => {
    const picked = state.period && bin.start < state.period.end && bin.end > state.period.start;
    const bar = el('div', {
      class: `bar${bin.count ? '' : ' empty'}${picked ? ' picked' : ''}`,
      'data-bin': String(i),
    });
    const fill = el('div', { class: 'fill' });
    fill.style.height = `${max ? Math.max(bin.count ? 2 : 0, Math.round((bin.count / max) * 100)) : 0}%`;
    bar.append(fill);
    bar.title = `${formatTick(bin.start, end - start, true)} – ${formatTick(bin.end, end - start, true)}: ${bin.count.toLocaleString('en-US')} ${bin.count === 1 ? 'event' : 'events'}`;
    frag.append(bar);
  });
  histogramBox.append(frag);
  histogramScale.append(el('span', { class: 'max' }, max.toLocaleString('en-US')), el('span', { class: 'zero' }, '0'));
  // Up to nine labelled ticks along the time axis, thinned to those that fit the width.
  for (let k = 0; k <= TICK_STEPS; k++) {
    const t = start + ((end - start) * k) / TICK_STEPS;
    const tick = el('span', { class: 'tick' }, formatTick(t, end - start, false));
    tick.style.left = `${(k * 100) / TICK_STEPS}%`;
    histogramAxis.append(tick);
  }
  histogramWrap.classList.toggle('visible', true);
  thinTicks();
  histogramBox.setAttribute(
    'aria-label',
    `Events over time from ${new Date(start).toISOString()} to ${new Date(end).toISOString()}, ${bins.length} bars, the busiest ${max}`,
  );
}

const TICK_STEPS = 8;
const TICK_GAP_PX = 10;

/**
 * Shows every tick, every second, fourth or only the ends: the densest that leaves TICK_GAP_PX
 * between labels (a narrow panel wrote "11-30 03h12-01 21h" with all five). Run on every resize.
 */
function thinTicks(): void {
  const ticks = Array.from(histogramAxis.children) as HTMLElement[];
  if (ticks.length === 0 || histogramAxis.clientWidth === 0) return;
  for (const step of [1, 2, 4, TICK_STEPS, TICK_STEPS * 2]) {
    let previousRight = Number.NEGATIVE_INFINITY;
    let fits = true;
    ticks.forEach((tick, k) => {
      tick.hidden = step > TICK_STEPS ? k !== 0 : k % step !== 0;
    });
    for (const tick of ticks) {
      if (tick.hidden) continue;
      const box = tick.getBoundingClientRect();
      if (box.left < previousRight + TICK_GAP_PX) fits = false;
      previousRight = box.right;
    }
    if (fits) return;
  }
}

new ResizeObserver(() => thinTicks()).observe(histogramAxis);

/** A tick label: the time of day for short spans, the date (and hour) for long ones, in UTC. */
function formatTick(ms: number, span: number, full: boolean): string {
  const iso = new Date(ms).toISOString();
  if (full) return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  if (span <= 36 * 3_600_000) return iso.slice(11, 16);
  if (span <= 10 * 86_400_000) return `${iso.slice(5, 10)} ${iso.slice(11, 13)}h`;
  return iso.slice(0, 10);
}

function setPeriod(next: { start: number; end: number } | undefined): void {
  state.period = next;
  periodBar.classList.toggle('visible', state.period !== undefined);
  periodSearch.style.display = state.period && state.run?.kind === 'udm' ? '' : 'none';
  if (state.period) {
    const span = state.period.end - state.period.start;
    periodText.textContent = `Showing ${formatTick(state.period.start, span, true)} – ${formatTick(state.period.end, span, true)}`;
  }
  grid.select(-1);
  grid.invalidate();
  recompute();
  for (const bar of Array.from(histogramBox.children) as HTMLElement[]) {
    const bin = bars.bins[Number(bar.dataset.bin)];
    bar.classList.toggle(
      'picked',
      !!(state.period && bin && bin.start < state.period.end && bin.end > state.period.start),
    );
  }
}

histogramBox.addEventListener('mousedown', (event) => {
  const bar = (event.target as HTMLElement).closest<HTMLElement>('.bar');
  if (!bar) return;
  bars.dragFrom = Number(bar.dataset.bin);
  event.preventDefault();
});
window.addEventListener('mouseup', (event) => {
  if (bars.dragFrom === undefined) return;
  const bar = (event.target as HTMLElement | null)?.closest?.<HTMLElement>('#histogram .bar');
  const to = bar ? Number(bar.dataset.bin) : bars.dragFrom;
  const a = bars.bins[Math.min(bars.dragFrom, to)];
  const b = bars.bins[Math.max(bars.dragFrom, to)];
  bars.dragFrom = undefined;
  if (a && b) setPeriod({ start: a.start, end: b.end });
});
periodClear.addEventListener('click', () => setPeriod(undefined));
periodSearch.addEventListener('click', () => {
  if (state.run && state.period)
    post({
      type: 'searchPeriod',
      runId: state.run.runId,
      startTime: new Date(state.period.start).toISOString(),
      endTime: new Date(state.period.end).toISOString(),
    });
});
