// The virtual grid of every page (results, statistics, notebook outputs): a fixed header, rows drawn
// only where they are in view from a pool of nodes, column widths from each column's minimum and
// share, sort clicks, keyboard selection and the ARIA grid roles. Cell text is inserted as text.
//
// The header row sits inside the element that scrolls the rows (sticky at its top), so the header and
// the rows share one horizontal scroll position: whatever scrolls one (a sort click that focuses a
// partly hidden header, a screen reader bringing a cell into view) scrolls the other with it.
import { el } from './dom';

export interface GridColumn {
  /** Kept as the header's data-column. */
  key: string;
  label: string;
  title?: string;
  /** Narrowest width in pixels; past the sum of these the grid scrolls sideways instead of squeezing. */
  min: number;
  /** Share of the width left over. */
  grow: number;
  /** Extra class of the header and its cells (say `num` for numbers aligned right). */
  className?: string;
}

export type GridSort = { column: number; direction: 'asc' | 'desc' } | undefined;

export interface GridOptions {
  /** Accessible name of the grid. */
  label: string;
  rowHeight: number;
  /** Rows drawn above and below those in view, so a quick scroll shows no blank. */
  overscan: number;
  ids?: { viewport?: string; head?: string; spacer?: string };
  classes: { viewport?: string; head: string; headCell: string; row: string; cell: string; selected: string };
  /** The display text of a cell (at a position of the rows shown). */
  text(pos: number, column: number): string;
  /** The full text of a cell, shown as its tooltip on hover (filled then, not on every render). */
  title?(pos: number, column: number): string;
  /** Page data on a row node when it is drawn for a position (say the row's index in the table). */
  decorate?(row: HTMLElement, pos: number): void;
  rowTitle?: string;
  onSort?(column: number): void;
  /** A row was picked by a click, or the selection moved by a key. */
  onSelect?(pos: number, how: 'click' | 'key'): void;
  /** Enter on the selected row. */
  onActivate?(pos: number): void;
  onEscape?(): void;
  onScroll?(): void;
}

/** Numbers the grids of a page, so the ids of their rows never collide. */
let gridCount = 0;

export class VirtualGrid {
  /** The scroll container, with role grid: the header and the rows are inside it. */
  readonly viewport: HTMLDivElement;
  readonly head: HTMLDivElement;
  readonly spacer: HTMLDivElement;
  private columns: GridColumn[] = [];
  private length = 0;
  private selectedPos = -1;
  private pool: HTMLDivElement[] = [];
  private queued = false;

  private readonly rowIdPrefix = `vgrid-${++gridCount}-row`;

  constructor(private readonly options: GridOptions) {
    const { ids = {}, classes } = options;
    this.viewport = el('div', {
      role: 'grid',
      'aria-label': options.label,
      'aria-rowcount': '1',
      tabindex: '0',
      class: `vgrid ${classes.viewport ?? ''}`.trim(),
    });
    this.head = el('div', { role: 'row', 'aria-rowindex': '1', class: `vgrid-head ${classes.head}` });
    this.spacer = el('div', { role: 'rowgroup', class: 'vgrid-spacer' });
    if (ids.viewport) this.viewport.id = ids.viewport;
    if (ids.head) this.head.id = ids.head;
    if (ids.spacer) this.spacer.id = ids.spacer;
    this.viewport.append(this.head, this.spacer);
    this.viewport.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.head.addEventListener('click', (event) => {
      const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-column]');
      const column = cell ? this.columns.findIndex((c) => c.key === cell.dataset.column) : -1;
      if (column >= 0) options.onSort?.(column);
    });
    this.spacer.addEventListener('click', (event) => {
      const pos = this.positionOf(event.target);
      if (pos === undefined) return;
      this.select(pos);
      this.viewport.focus({ preventScroll: true });
      options.onSelect?.(pos, 'click');
    });
    this.viewport.addEventListener('keydown', (event) => this.onKey(event));
    if (options.title) this.spacer.addEventListener('mouseover', (event) => this.onHover(event));
  }

  get selected(): number {
    return this.selectedPos;
  }

  get rowCount(): number {
    return this.length;
  }

  /** The position of the row a node belongs to, if it is a drawn row. */
  positionOf(target: EventTarget | null): number | undefined {
    const row = (target as HTMLElement | null)?.closest?.<HTMLElement>('[data-pos]');
    if (!row || !this.spacer.contains(row) || row.dataset.pos === '') return undefined;
    return Number(row.dataset.pos);
  }

  /** New columns (or the same with another sort): the header is drawn again and every row redrawn. */
  setColumns(columns: GridColumn[], sort?: GridSort): void {
    this.columns = columns;
    const template = columns.map((c) => `minmax(${c.min}px, ${c.grow}fr)`).join(' ') || '1fr';
    this.viewport.style.setProperty('--vgrid-cols', template);
    this.viewport.style.setProperty('--vgrid-min', `${columns.reduce((a, c) => a + c.min, 0)}px`);
    const { headCell } = this.options.classes;
    // A header sorted from the keyboard is drawn again: the keyboard stays on it.
    const focused = this.head.contains(document.activeElement)
      ? (document.activeElement as HTMLElement).dataset.column
      : undefined;
    this.head.replaceChildren(
      ...columns.map((c, i) => {
        const cell = el(
          'button',
          {
            type: 'button',
            class: `vgrid-head-cell ${headCell} ${c.className ?? ''}`.trim(),
            role: 'columnheader',
            'aria-colindex': String(i + 1),
            'data-column': c.key,
            title: c.title ?? c.label,
          },
          c.label,
        );
        if (sort?.column === i) cell.setAttribute('aria-sort', sort.direction === 'asc' ? 'ascending' : 'descending');
        return cell;
      }),
    );
    if (focused !== undefined)
      [...this.head.querySelectorAll<HTMLElement>('[data-column]')].find((c) => c.dataset.column === focused)?.focus();
    for (const row of this.pool) row.remove();
    this.pool = [];
    this.schedule();
  }

  /** How many rows are shown; positions past the new end lose the selection. */
  setLength(length: number): void {
    this.length = length;
    if (this.selectedPos >= length) this.selectedPos = -1;
    this.viewport.setAttribute('aria-rowcount', String(length + 1));
    this.spacer.style.height = `${length * this.options.rowHeight}px`;
    this.schedule();
  }

  /** Every drawn row shows other rows now (new order, filter or cells): they are drawn again. */
  invalidate(): void {
    for (const node of this.pool) node.dataset.pos = '';
    this.schedule();
  }

  /**
   * Selects a position (clamped) and, unless told not to, scrolls it into view under the header; -1
   * clears the selection.
   */
  select(pos: number, reveal = true): void {
    if (pos < 0 || this.length === 0) {
      this.selectedPos = -1;
      this.schedule();
      return;
    }
    this.selectedPos = Math.max(0, Math.min(this.length - 1, pos));
    if (!reveal) {
      this.schedule();
      return;
    }
    const h = this.options.rowHeight;
    const top = this.selectedPos * h;
    const inView = this.viewport.clientHeight - this.head.offsetHeight;
    if (top < this.viewport.scrollTop) this.viewport.scrollTop = top;
    else if (top + h > this.viewport.scrollTop + inView) this.viewport.scrollTop = top + h - inView;
    this.schedule();
  }

  schedule(): void {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.render();
    });
  }

  /** Draws the rows in view now (a page that needs them before the next frame). */
  render(): void {
    const { rowHeight: h, overscan, classes } = this.options;
    const top = this.viewport.scrollTop;
    const height = this.viewport.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / h) - overscan);
    const last = Math.min(this.length, Math.ceil((top + height) / h) + overscan);
    const needed = Math.max(0, last - first);
    while (this.pool.length < needed) {
      const row = el('div', { class: `vgrid-row ${classes.row}`, role: 'row', 'data-pos': '' });
      if (this.options.rowTitle) row.title = this.options.rowTitle;
      for (const c of this.columns)
        row.append(el('div', { class: `${classes.cell} ${c.className ?? ''}`.trim(), role: 'gridcell' }));
      this.spacer.append(row);
      this.pool.push(row);
    }
    // Rows past those needed leave the page, so what is in the page is what is shown.
    for (const row of this.pool.splice(needed)) row.remove();
    for (let i = 0; i < needed; i++) {
      const node = this.pool[i];
      const pos = first + i;
      if (node.dataset.pos !== String(pos)) {
        node.dataset.pos = String(pos);
        node.setAttribute('aria-rowindex', String(pos + 2));
        node.style.transform = `translateY(${pos * h}px)`;
        this.options.decorate?.(node, pos);
        const cells = node.children;
        for (let c = 0; c < this.columns.length; c++) (cells[c] as HTMLElement).textContent = this.options.text(pos, c);
      }
      const selected = pos === this.selectedPos;
      node.classList.toggle(classes.selected, selected);
      node.setAttribute('aria-selected', selected ? 'true' : 'false');
    }
    // The keyboard stays on the grid; a screen reader follows the selected row through
    // aria-activedescendant (when the row is drawn).
    const selectedNode = this.pool.find((node) => node.dataset.pos === String(this.selectedPos));
    if (selectedNode) {
      selectedNode.id = `${this.rowIdPrefix}-${this.selectedPos}`;
      this.viewport.setAttribute('aria-activedescendant', selectedNode.id);
    } else this.viewport.removeAttribute('aria-activedescendant');
    for (const node of this.pool) if (node !== selectedNode) node.removeAttribute('id');
  }

  private onHover(event: MouseEvent): void {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[role="gridcell"]');
    const pos = this.positionOf(target);
    if (!target || pos === undefined || !this.options.title) return;
    const column = Array.prototype.indexOf.call(target.parentElement?.children ?? [], target);
    if (column < 0 || column >= this.columns.length) return;
    const text = this.options.title(pos, column);
    target.title = text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
  }

  private onScroll(): void {
    this.schedule();
    this.options.onScroll?.();
  }

  private onKey(event: KeyboardEvent): void {
    if (event.target !== this.viewport) return;
    const page = Math.max(1, Math.floor(this.viewport.clientHeight / this.options.rowHeight) - 2);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    const from = this.selectedPos < 0 ? -1 : this.selectedPos;
    let to: number | undefined;
    if (event.key in moves) to = Math.max(0, from + moves[event.key]);
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = this.length - 1;
    if (to !== undefined) {
      event.preventDefault();
      if (this.length === 0) return;
      this.select(to);
      this.options.onSelect?.(this.selectedPos, 'key');
    } else if (event.key === 'Enter' && this.selectedPos >= 0) {
      event.preventDefault();
      this.options.onActivate?.(this.selectedPos);
    } else if (event.key === 'Escape') {
      this.options.onEscape?.();
    }
  }
}
