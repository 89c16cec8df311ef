// The detail pane: the whole event of a row (fetched from the extension) as a tree, with the
// pivots its values offer and links that open in the browser.
import { scalarText } from '../../core/secops/results/fields';
import { displayText, isOpenableLink } from '../../core/secops/results/export';
import { PIVOT_LABELS, pivotsFor } from '../../core/secops/results/pivots';
import { el } from '../shared/dom';
import { detail } from './layout';
import { nextRequest, post, state } from './state';

const MAX_TREE_NODES = 5000;

export function showDetail(pos: number): void {
  const rowIndex = state.view[pos];
  if (rowIndex === undefined || !state.run) {
    detail.classList.remove('visible');
    return;
  }
  if (state.eventCache.has(rowIndex)) {
    state.pendingDetail = undefined;
    renderDetail(rowIndex, state.eventCache.get(rowIndex));
    return;
  }
  if (state.reordering) {
    detailMessage('The rows are taking their final order; select the row again in a moment.');
    return;
  }
  // The event comes from the extension; the pane says so until it is here.
  state.pendingDetail = { id: nextRequest(), pos, index: rowIndex };
  post({ type: 'rows.event', runId: state.run.runId, id: state.pendingDetail.id, index: rowIndex });
  detailMessage('Loading the event…');
}

export function detailMessage(text: string): void {
  const close = el('button', { type: 'button', id: 'detail-close', title: 'Close the detail pane' }, 'Close');
  close.addEventListener('click', () => detail.classList.remove('visible'));
  detail.replaceChildren(el('div', { id: 'detail-actions' }, close), el('div', { class: 'leaf' }, text));
  detail.classList.add('visible');
}

export function renderDetail(rowIndex: number, row: unknown): void {
  if (!state.run) return;
  const runId = state.run.runId;
  // The row's number names the pivot's origin; once the rows took their final order it names
  // another row, so it is left out (the pivot itself goes by its value).
  const generation = state.orderGeneration;
  const origin = (): { row?: number } =>
    state.reordering || state.orderGeneration !== generation ? {} : { row: rowIndex };
  detail.replaceChildren();
  const actions = el('div', { id: 'detail-actions' });
  const root = state.run.kind === 'udm' ? (row as { udm?: unknown })?.udm : row;
  const eventId = scalarText((root as { metadata?: { id?: unknown } } | undefined)?.metadata?.id);
  if (eventId && (state.run.kind === 'udm' || state.run.kind === 'assetEvents')) {
    for (const action of ['fullEvent', 'rawLog'] as const) {
      const b = el('button', { type: 'button', 'data-pivot': action, id: `detail-${action}` }, PIVOT_LABELS[action]);
      b.addEventListener('click', () => post({ type: 'pivot', runId, action, value: eventId, ...origin() }));
      actions.append(b);
    }
  }
  const close = el('button', { type: 'button', id: 'detail-close', title: 'Close the detail pane' }, 'Close');
  close.addEventListener('click', () => detail.classList.remove('visible'));
  actions.append(close);
  // Native disclosure widgets (details/summary): each opens with Enter or Space and sits in the Tab
  // order, which a screen reader announces as such; a role="tree" would promise arrow-key moves.
  const tree = el('div', { class: 'tree', role: 'group', 'aria-label': 'Fields of the event', id: 'detail-tree' });
  let budget = MAX_TREE_NODES;
  const build = (value: unknown, key: string, path: string, parent: HTMLElement, depth: number): void => {
    if (--budget < 0) {
      if (budget === -1)
        parent.append(
          el('div', { class: 'leaf' }, '… (more fields not shown; export the row as JSON to see everything)'),
        );
      return;
    }
    if (value !== null && typeof value === 'object' && depth < 64) {
      const box = el('details');
      if (depth < 3) box.open = true;
      const summary = el('summary');
      summary.append(
        el('span', { class: 'key' }, key),
        document.createTextNode(Array.isArray(value) ? ` [${value.length}]` : ''),
      );
      box.append(summary);
      if (Array.isArray(value)) value.forEach((v, i) => build(v, String(i), path, box, depth + 1));
      else for (const [k, v] of Object.entries(value)) build(v, k, path ? `${path}.${k}` : k, box, depth + 1);
      parent.append(box);
      return;
    }
    const leaf = el('div', { class: 'leaf', 'data-path': path });
    const text = typeof value === 'object' ? '…' : scalarText(value);
    leaf.append(
      el('span', { class: 'key' }, `${key}: `),
      el('span', { class: typeof value === 'string' ? 'str' : 'num' }, displayText(text, 4000)),
    );
    if (typeof value === 'string') {
      const fieldPath = state.run!.kind === 'udm' && path.startsWith('udm.') ? path.slice(4) : path;
      for (const action of pivotsFor(fieldPath, value)) {
        if (action === 'rawLog' || action === 'fullEvent') continue;
        const b = el(
          'button',
          { type: 'button', class: 'pivot', 'data-pivot': action, title: PIVOT_LABELS[action] },
          PIVOT_LABELS[action],
        );
        b.addEventListener('click', () => post({ type: 'pivot', runId, action, value, ...origin() }));
        leaf.append(b);
      }
      if (
        (key === 'uri' || (/^\d+$/.test(key) && path.endsWith('uri')) || key === 'url' || key === 'sourceUrl') &&
        isOpenableLink(value)
      ) {
        const b = el(
          'button',
          { type: 'button', class: 'pivot', 'data-action': 'open-link', title: 'Open in the browser' },
          'Open link',
        );
        b.addEventListener('click', () => post({ type: 'openLink', url: value }));
        leaf.append(b);
      }
    }
    parent.append(leaf);
  };
  if (root !== null && typeof root === 'object')
    for (const [k, v] of Object.entries(row as object)) build(v, k, k, tree, 1);
  else build(row, 'value', '', tree, 1);
  detail.append(actions, tree);
  detail.classList.add('visible');
}
