// Confusion matrices as HTML tables that are also the heatmap: every cell says its count and its
// share of the row (the true class) in text, so the numbers are read, announced by screen readers
// through the table's headers, and never carried by colour alone. The cell's shade comes from the
// theme's chart colour over the editor background; its text colour is whichever of the theme's
// foreground and background contrasts more with that shade, so it stays readable in light, dark and
// high-contrast themes.
import type { ConfusionMatrix } from '../../core/models/metrics';
import { el } from '../shared/dom';

/** The theme colours a matrix is drawn with (CSS colour strings from VS Code's variables). */
export interface MatrixColors {
  heat: string;
  background: string;
  foreground: string;
}

type Rgb = [number, number, number];

/** #rgb, #rgba, #rrggbb, #rrggbbaa or rgb()/rgba(); undefined for anything else. */
export function parseColor(text: string): Rgb | undefined {
  const t = text.trim();
  const hex = /^#([0-9a-f]{3,8})$/i.exec(t)?.[1];
  if (hex && [3, 4, 6, 8].includes(hex.length)) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(t);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  return undefined;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number): number => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function mix(top: Rgb, bottom: Rgb, alpha: number): Rgb {
  return top.map((c, i) => Math.round(c * alpha + bottom[i] * (1 - alpha))) as Rgb;
}

const css = ([r, g, b]: Rgb): string => `rgb(${r}, ${g}, ${b})`;

/** WCAG AA for normal text. */
const MIN_CONTRAST = 4.5;

/**
 * The cell's shade for a share of its row, and the more readable of the theme's foreground and
 * background on it. Where neither reaches AA contrast (a mid-tone chart colour), the shade is made
 * lighter until one does: the count must stay readable, the shade only helps to scan.
 */
export function cellColors(share: number, colors: MatrixColors): { background: string; color: string } | undefined {
  const heat = parseColor(colors.heat);
  const bg = parseColor(colors.background);
  const fg = parseColor(colors.foreground);
  if (!heat || !bg || !fg) return undefined;
  let alpha = 0.06 + 0.74 * Math.min(1, Math.max(0, share));
  for (;;) {
    const shade = mix(heat, bg, alpha);
    const [onFg, onBg] = [contrastRatio(fg, shade), contrastRatio(bg, shade)];
    const text = onFg >= onBg ? fg : bg;
    if (Math.max(onFg, onBg) >= MIN_CONTRAST || alpha <= 0) return { background: css(shade), color: css(text) };
    alpha = Math.max(0, alpha - 0.04);
  }
}

const hidden = (text: string): HTMLElement => el('span', { class: 'visually-hidden' }, text);
const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;
const count = (n: number): string => n.toLocaleString('en-US');

function signed(n: number, text: string): string {
  return n > 0 ? `+${text}` : n < 0 ? `−${text.replace(/^-/, '')}` : text;
}

function header(m: ConfusionMatrix, corner: string): HTMLTableSectionElement {
  return el(
    'thead',
    {},
    el(
      'tr',
      {},
      el('th', { scope: 'col' }, corner),
      // "Predicted" and "True" are spoken with each header but not printed in every one.
      ...m.labels.map((l) => el('th', { scope: 'col' }, hidden('Predicted '), l)),
      el('th', { scope: 'col' }, 'Total'),
    ),
  );
}

/** One matrix: counts and row shares in every cell, shaded by share. */
export function matrixTable(m: ConfusionMatrix, caption: string, colors: MatrixColors, id?: string): HTMLTableElement {
  const table = el('table', { class: 'matrix-table', ...(id ? { id } : {}) });
  table.append(el('caption', {}, caption), header(m, 'True \\ predicted'));
  const body = el('tbody');
  m.rows.forEach((row, i) => {
    const total = row.reduce((a, b) => a + b, 0);
    const cells = row.map((v, j) => {
      const share = total > 0 ? v / total : 0;
      const td = el(
        'td',
        { class: i === j ? 'cell diagonal' : 'cell', 'data-count': String(v) },
        el('span', { class: 'count' }, count(v)),
        el('span', { class: 'share' }, percent(share)),
        hidden(` of true ${m.labels[i]}`),
      );
      const shade = cellColors(share, colors);
      if (shade) {
        // CSSOM properties, not a style attribute: the page's CSP allows no inline styles.
        td.style.setProperty('background-color', shade.background);
        td.style.setProperty('color', shade.color);
      }
      return td;
    });
    body.append(
      el('tr', {}, el('th', { scope: 'row' }, hidden('True '), m.labels[i]), ...cells, el('td', {}, count(total))),
    );
  });
  table.append(body);
  return table;
}

/**
 * `after` minus `before`, cell by cell: the count difference and the change of the row share in
 * percentage points. Undefined when the two matrices do not have the same classes in the same order.
 */
export function differenceTable(
  before: ConfusionMatrix,
  after: ConfusionMatrix,
  caption: string,
  id?: string,
): HTMLTableElement | undefined {
  if (before.labels.length !== after.labels.length || before.labels.some((l, i) => l !== after.labels[i]))
    return undefined;
  const table = el('table', { class: 'matrix-table difference', ...(id ? { id } : {}) });
  table.append(el('caption', {}, caption), header(before, 'True \\ predicted'));
  const body = el('tbody');
  before.rows.forEach((row, i) => {
    const other = after.rows[i];
    const totalA = row.reduce((a, b) => a + b, 0);
    const totalB = other.reduce((a, b) => a + b, 0);
    const cells = row.map((v, j) => {
      const w = other[j] ?? 0;
      const points = ((totalB > 0 ? w / totalB : 0) - (totalA > 0 ? v / totalA : 0)) * 100;
      const better = i === j ? points > 0 : points < 0;
      return el(
        'td',
        {
          class: `cell${i === j ? ' diagonal' : ''}${points === 0 ? '' : better ? ' better' : ' worse'}`,
          'data-count': String(w - v),
        },
        el('span', { class: 'count' }, signed(w - v, count(w - v))),
        el('span', { class: 'share' }, `${signed(points, Math.abs(points).toFixed(1))} pp`),
      );
    });
    body.append(
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, hidden('True '), before.labels[i]),
        ...cells,
        el('td', {}, signed(totalB - totalA, count(totalB - totalA))),
      ),
    );
  });
  table.append(body);
  return table;
}
