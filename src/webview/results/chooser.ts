// The column chooser: every field path of the rows (asked of the extension), a search over them,
// and the default columns back; the choice is kept per kind of result.
import { defaultColumns, fieldName, labelFor } from '../../core/secops/results/fields';
import { el } from '../shared/dom';
import { chooser, columnsButton } from './layout';
import { rememberColumns } from './persist';
import { state } from './state';
import { requestFields, setColumns } from './table';

export function openChooser(): void {
  chooser.replaceChildren();
  const search = el('input', {
    type: 'search',
    placeholder: 'Find a field',
    'aria-label': 'Find a field',
    id: 'chooser-filter',
  });
  const list = el('div', { id: 'chooser-list' });
  const chosen = new Set(state.columns.map((c) => c.id));
  requestFields();
  let paths: string[] = [];
  const fill = (): void => {
    paths = [...new Set([...state.columns.map((c) => c.id), ...(state.allFields ?? [])])];
    const q = search.value.toLowerCase();
    const kind = state.run?.kind ?? 'udm';
    list.replaceChildren(
      ...paths
        .filter((p) => fieldName(p, kind).toLowerCase().includes(q))
        .slice(0, 500)
        .map((p) => {
          // The UDM field name (`principal.ip`), not the path inside the API's answer (`udm.principal.ip`).
          const name = fieldName(p, kind);
          const label = el('label', { title: name });
          const box = el('input', { type: 'checkbox', 'data-column': p });
          box.checked = chosen.has(p);
          box.addEventListener('change', () => {
            if (box.checked) {
              chosen.add(p);
              setColumns([...state.columns, { id: p, label: labelFor(p) }]);
              if (state.run) rememberColumns(state.run.kind, state.columns);
            } else {
              chosen.delete(p);
              setColumns(state.columns.filter((c) => c.id !== p));
              if (state.run) rememberColumns(state.run.kind, state.columns);
            }
          });
          label.append(box, document.createTextNode(` ${name}`));
          return label;
        }),
    );
  };
  search.addEventListener('input', fill);
  state.refillChooser = fill;
  const reset = el('button', { type: 'button', id: 'chooser-reset' }, 'Default columns');
  reset.addEventListener('click', () => {
    if (state.run) {
      setColumns(defaultColumns(state.run.kind));
      rememberColumns(state.run.kind, undefined);
    }
    closeChooser();
  });
  chooser.append(search, reset, list);
  fill();
  chooser.classList.add('visible');
  columnsButton.setAttribute('aria-expanded', 'true');
  search.focus();
}

export function closeChooser(): void {
  state.refillChooser = undefined;
  chooser.classList.remove('visible');
  columnsButton.setAttribute('aria-expanded', 'false');
}
