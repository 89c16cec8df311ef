// The "more data" banner of a cut answer (fetch the rest, search only the newest part, progress)
// and the run's one-line summary.
import {
  bannerText,
  exportButtons,
  fetchRestButton,
  narrowButton,
  runSummary,
  stopFetchButton,
  banner,
} from './layout';
import { restoredNote } from './persist';
import { state } from './state';

const EXPORT_TITLES = { csv: 'CSV', json: 'JSON', ndjson: 'NDJSON' } as const;

export function updateBanner(progressText?: string): void {
  // An export is of the whole answer: not while part of it is still on its way.
  for (const format of ['csv', 'json', 'ndjson'] as const) {
    const button = exportButtons[format];
    button.disabled = state.arriving;
    button.title = state.arriving
      ? 'The answer is still arriving: export once all of its events are in'
      : `Export every row to ${EXPORT_TITLES[format]}`;
  }
  const show = state.moreDataAvailable || state.fetching;
  banner.classList.toggle('visible', show);
  fetchRestButton.style.display = state.moreDataAvailable && !state.fetching ? '' : 'none';
  const covered = state.run?.covered;
  narrowButton.style.display =
    state.moreDataAvailable && !state.fetching && covered && state.run?.kind === 'udm' ? '' : 'none';
  stopFetchButton.style.display = state.fetching ? '' : 'none';
  const searches = state.run?.restSearches;
  fetchRestButton.textContent =
    searches !== undefined
      ? `Fetch the rest (about ${searches} ${searches === 1 ? 'search' : 'searches'})`
      : 'Fetch the rest';
  if (covered && state.run?.startTime && state.run.endTime) {
    const width = Date.parse(covered.end) - Date.parse(covered.start);
    narrowButton.textContent = `Search only the newest ${describeDuration(width)}`;
  }
  if (state.fetching)
    bannerText.textContent =
      progressText ?? `Fetching the rest… ${state.rowCount.toLocaleString('en-US')} events so far.`;
  else if (state.moreDataAvailable)
    bannerText.textContent = covered
      ? `The search stopped at its limit: these ${state.rowCount.toLocaleString('en-US')} rows cover only ${covered.start} – ${covered.end} of the range ${state.run?.startTime ?? '?'} – ${state.run?.endTime ?? '?'} (${coveredShare(covered)} of it). Fetch the rest, or search only the newest part.`
      : 'More events match than the search returned (it stopped at its limit). Narrow the time range, or fetch the rest in smaller windows.';
}

/** "3 h", "2 d 4 h", "45 min": a duration as a person says it. */
function describeDuration(ms: number): string {
  const min = Math.max(1, Math.round(ms / 60_000));
  if (min < 120) return `${min} min`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

function coveredShare(covered: { start: string; end: string }): string {
  const total =
    state.run?.startTime && state.run.endTime ? Date.parse(state.run.endTime) - Date.parse(state.run.startTime) : 0;
  const part = Date.parse(covered.end) - Date.parse(covered.start);
  if (!(total > 0) || !(part >= 0)) return 'part';
  const pct = (part / total) * 100;
  return `${pct < 1 ? pct.toFixed(1) : Math.round(pct)}%`;
}

export function updateSummary(): void {
  if (!state.run) return;
  if (state.partial) {
    runSummary.textContent = state.partial.message;
    runSummary.classList.toggle('error', !state.partial.cancelled);
    return;
  }
  runSummary.classList.remove('error');
  if (state.arriving) {
    runSummary.textContent = `Arriving… ${state.rowCount.toLocaleString('en-US')} ${state.rowCount === 1 ? 'event' : 'events'} so far, in arrival order`;
    return;
  }
  // The run's count from the first rows on, while the rest of them is on its way.
  const rows = Math.max(state.rowCount, state.runTotal);
  runSummary.textContent = [
    `${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}`,
    state.run.startTime && state.run.endTime ? `${state.run.startTime} – ${state.run.endTime}` : '',
    state.run.restored ? restoredNote(state.run) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}
