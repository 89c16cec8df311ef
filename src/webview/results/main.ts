// Results panel: a virtualized table for up to tens of thousands of rows, quick filter, sort, column
// chooser, detail pane with the JSON tree and pivots, timeline histogram and the "more data" banner.
// Every value is inserted with textContent; nothing from an event is ever parsed as HTML.
// This module wires the page's controls; the parts live beside it (state, layout, table, histogram,
// detail, chooser, banner, query bar, messages).
import '../shared/table-page.css';
import './style.css';
import { RESULT_KINDS } from '../../core/secops/messages';
import { isPivotAction } from '../../core/secops/results/pivots';
import { isOpenableLink } from '../../core/secops/results/export';
import {
  chooser,
  columnsButton,
  consoleLink,
  detail,
  exportButtons,
  exportAllColumns,
  fetchRestButton,
  filterInput,
  narrowButton,
  queryInput,
  queryRun,
  rerunButton,
  runSource,
  runTitle,
  stopFetchButton,
  suggestBox,
} from './layout';
import { post, state } from './state';
import { markReady } from './marks';
import { grid, recompute, requestFields, updateSuggestions } from './table';
import { renderHistogram } from './histogram';
import { closeChooser, openChooser } from './chooser';
import { updateBanner } from './banner';
import { runQueryBar, setQueryText, upgradeQueryBar } from './query-bar';
import { NOT_KEPT, restoredSummary, takeEarlyMessages } from './messages';
import { chosenColumns, rememberRun, savedRun } from './persist';

window.addEventListener('resize', () => grid.schedule());

const timers = { filter: undefined as ReturnType<typeof setTimeout> | undefined };
filterInput.addEventListener('input', () => {
  updateSuggestions();
  // At once (the keys of one task together): the extension answers one filter at a time and the
  // latest waits for the answer before it (see filterAnswer), so no pause after typing is needed.
  clearTimeout(timers.filter);
  timers.filter = setTimeout(() => {
    grid.select(-1);
    grid.invalidate();
    recompute();
    renderHistogram();
    if (state.run) rememberRun(state.run, filterInput.value.trim(), grid.viewport.scrollTop);
  }, 0);
});
filterInput.addEventListener('blur', () => suggestBox.replaceChildren());
filterInput.addEventListener('focus', requestFields);

columnsButton.addEventListener('click', () => (chooser.classList.contains('visible') ? closeChooser() : openChooser()));
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  if (chooser.classList.contains('visible')) closeChooser();
  else if (detail.classList.contains('visible') && detail.contains(document.activeElement)) {
    // Escape from anywhere in the detail pane closes it and gives the keyboard back to the table.
    detail.classList.remove('visible');
    grid.viewport.focus();
  }
});

for (const format of ['csv', 'json', 'ndjson'] as const) {
  exportButtons[format].addEventListener('click', () => {
    if (!state.run) return;
    // The file holds what the table shows: its sort, its columns (or, when asked, every field).
    const { sort } = state;
    post({
      type: 'export',
      runId: state.run.runId,
      format,
      columns: state.columns,
      ...(sort ? { sort: { column: sort.column, direction: sort.direction } } : {}),
      ...(exportAllColumns.checked ? { allColumns: true } : {}),
    });
  });
}
fetchRestButton.addEventListener('click', () => {
  if (!state.run) return;
  state.fetching = true;
  updateBanner();
  post({ type: 'fetchRest', runId: state.run.runId });
});
narrowButton.addEventListener('click', () => state.run && post({ type: 'narrowToNewest', runId: state.run.runId }));
stopFetchButton.addEventListener('click', () => state.run && post({ type: 'stopFetch', runId: state.run.runId }));
rerunButton.addEventListener('click', () => {
  if (state.run?.restored && state.run.kind !== 'udm' && state.run.pivot)
    post({ type: 'pivot', runId: 'restored', action: state.run.pivot.action, value: state.run.pivot.value });
  else if (state.run) post({ type: 'rerun', runId: state.run.runId });
  else if (state.restored?.query && state.restored.startTime && state.restored.endTime)
    post({
      type: 'runQuery',
      query: state.restored.query,
      startTime: state.restored.startTime,
      endTime: state.restored.endTime,
    });
  else if (state.restored?.query) post({ type: 'runQuery', query: state.restored.query });
  else if (state.restored?.pivot && isPivotAction(state.restored.pivot.action))
    post({ type: 'pivot', runId: 'restored', action: state.restored.pivot.action, value: state.restored.pivot.value });
});
consoleLink.addEventListener('click', () => {
  const url = state.run?.uri?.find(isOpenableLink);
  if (url) post({ type: 'openLink', url });
});

queryRun.addEventListener('click', runQueryBar);
queryInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    runQueryBar();
  }
});
// Someone who starts typing before any results arrive gets the full editor right away.
queryInput.addEventListener('focus', upgradeQueryBar, { once: true });

consoleLink.style.display = 'none';
rerunButton.style.display = 'none';
updateBanner();
state.restored = savedRun();
if (state.restored) {
  runTitle.textContent = state.restored.title;
  runTitle.title = state.restored.title;
  runSource.textContent = state.restored.source ?? '';
  restoredSummary(state.restored.runId ? 'Restored after a reload; loading its kept rows…' : NOT_KEPT);
  if (state.restored.filter) filterInput.value = state.restored.filter;
  if (state.restored.kind === 'udm' && state.restored.query) setQueryText(state.restored.query);
  if (state.restored.query || state.restored.pivot) {
    rerunButton.style.display = '';
    rerunButton.textContent = 'Run again';
  }
  document.body.dataset.restored = 'true';
}
markReady();
post({ type: 'ready' });
// The columns chosen here before (kept across reloads), so the extension sends their cells.
for (const kind of RESULT_KINDS) {
  const chosen = chosenColumns(kind);
  if (chosen) post({ type: 'columns', kind, columns: chosen });
}
// What the extension posted while this page loaded (the first rows of the run that opened it, often)
// is shown now rather than after the round trip of "ready".
takeEarlyMessages();
