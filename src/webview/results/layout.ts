// The results page's elements, built once when the page loads. Every value shown later is inserted
// with textContent; nothing from an event is ever parsed as HTML.
import type { ExportFormat } from '../../core/secops/results/export';
import { el } from '../shared/dom';

// Read while this script runs: where the query bar's Monaco bundle is and the nonce to load it with.
const ownScript = document.currentScript as HTMLScriptElement | null;
export const queryBarScript = ownScript?.dataset.querybarScript;
export const queryBarStyle = ownScript?.dataset.querybarStyle;
export const pageNonce = ownScript?.nonce ?? '';

export const app = el('div', { id: 'app' });
export const header = el('header');
export const runTitle = el('div', { id: 'run-title', role: 'heading', 'aria-level': '1' }, 'No results yet');
export const runSummary = el(
  'div',
  { id: 'run-summary', role: 'status' },
  'Run a UDM query (Ctrl+Enter in a .udm file) to see events here.',
);
export const runSource = el('div', { id: 'run-source' });
/** Says the table's rows are an earlier run's, while a new search runs or after it failed; empty otherwise. */
export const earlierRun = el('div', { id: 'earlier-run', role: 'note' });
header.append(runTitle, runSource, runSummary, earlierRun);

// The query bar paints as a plain textarea; querybar.js replaces it with Monaco after the table's
// first paint and keeps the textarea's value in step, so Run here always reads the current text.
export const queryBar = el('div', { id: 'querybar' });
export const queryHost = el('div', { id: 'query-host' });
export const queryInput = el('textarea', {
  id: 'query-input',
  rows: '1',
  spellcheck: 'false',
  'aria-label': 'UDM query',
  placeholder: 'metadata.event_type = "NETWORK_DNS"',
});
export const queryRun = el(
  'button',
  {
    id: 'query-run',
    type: 'button',
    class: 'primary',
    title: 'Run this query with the current time range (Ctrl+Enter)',
  },
  'Run',
);
queryHost.append(queryInput);
queryBar.append(queryHost, queryRun);
if (!queryBarScript) queryBar.style.display = 'none';

export const toolbar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Results' });
export const filterInput = el('input', {
  id: 'filter',
  type: 'search',
  placeholder: 'Filter rows (words, hostname:x, principal.ip:10.1, "Event type":dns, -exclude)',
  autocomplete: 'off',
  'aria-label': 'Filter rows',
});
export const countLabel = el('span', { id: 'count', 'aria-live': 'polite' });
export const columnsButton = el(
  'button',
  { id: 'columns-button', type: 'button', 'aria-haspopup': 'true', 'aria-expanded': 'false' },
  'Columns…',
);
export const exportButtons: Record<ExportFormat, HTMLButtonElement> = {
  csv: el('button', { id: 'export-csv', type: 'button', title: 'Export every row to CSV' }, 'Export CSV'),
  json: el('button', { id: 'export-json', type: 'button', title: 'Export every row to JSON' }, 'JSON'),
  ndjson: el('button', { id: 'export-ndjson', type: 'button', title: 'Export every row to NDJSON' }, 'NDJSON'),
};
/** Export every field of the rows rather than the shown columns. */
export const exportAllColumns = el('input', {
  id: 'export-all-columns',
  type: 'checkbox',
  title: 'Export every field of the rows, not only the shown columns',
});
const exportAllLabel = el('label', { id: 'export-all-label' }, exportAllColumns, ' all columns');
export const consoleLink = el(
  'button',
  { id: 'open-console', type: 'button', class: 'link', title: 'Open this view in the SecOps console' },
  'Open in console',
);
export const rerunButton = el('button', { id: 'rerun', type: 'button', title: 'Run again' }, 'Run again');
toolbar.append(
  filterInput,
  countLabel,
  columnsButton,
  exportButtons.csv,
  exportButtons.json,
  exportButtons.ndjson,
  exportAllLabel,
  rerunButton,
  consoleLink,
);

export const banner = el('div', { id: 'banner', role: 'alert' });
export const bannerText = el('span', { id: 'banner-text' });
export const fetchRestButton = el('button', { id: 'fetch-rest', type: 'button', class: 'primary' }, 'Fetch the rest');
export const narrowButton = el(
  'button',
  { id: 'narrow-newest', type: 'button', title: 'Run the query again over only the newest part of the range' },
  'Search only the newest part',
);
export const stopFetchButton = el('button', { id: 'stop-fetch', type: 'button' }, 'Stop');
banner.append(bannerText, fetchRestButton, narrowButton, stopFetchButton);

export const suggestBox = el('div', { id: 'filter-suggest', role: 'listbox', 'aria-label': 'Fields' });
export const histogramWrap = el('div', { id: 'histogram-wrap' });
export const histogramScale = el('div', { id: 'histogram-scale', 'aria-hidden': 'true' });
export const histogramBox = el('div', {
  id: 'histogram',
  role: 'img',
  'aria-label': 'Events over time',
  title: 'Click a bar or drag across bars to show only that period',
});
export const histogramAxis = el('div', { id: 'histogram-axis', 'aria-hidden': 'true' });
export const periodBar = el('div', { id: 'period' });
export const periodText = el('span', { id: 'period-text' });
export const periodSearch = el(
  'button',
  { id: 'period-search', type: 'button', title: 'Run the query over only this period (one search)' },
  'Search only this period',
);
export const periodClear = el(
  'button',
  { id: 'period-clear', type: 'button', title: 'Show every period again' },
  'Clear',
);
periodBar.append(periodText, periodSearch, periodClear);
histogramWrap.append(histogramScale, histogramBox, histogramAxis, periodBar);

export const main = el('div', { id: 'main' });
// The table itself (shared/grid.ts) goes first in #grid, before the "No rows" note.
export const gridBox = el('div', { id: 'grid' });
export const empty = el('div', { id: 'empty' }, 'No rows.');
gridBox.append(empty);
export const detail = el('aside', { id: 'detail', 'aria-label': 'Event detail' });
main.append(gridBox, detail);

export const chooser = el('div', { id: 'chooser', role: 'dialog', 'aria-label': 'Choose columns' });

app.append(header, queryBar, toolbar, suggestBox, banner, histogramWrap, main, chooser);
document.body.append(app);
