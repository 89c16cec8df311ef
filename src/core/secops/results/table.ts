// Sorting, quick filtering and histogram bins over result rows, as index arrays so the table never
// copies 10,000 rows to reorder them.
import { cellText, scalarText, timeReader, valuesAt, type ColumnSpec } from './fields';

export type SortDirection = 'asc' | 'desc';

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Numbers compare as numbers, everything else with a natural (numeric-aware) collation; blanks last. */
export function compareCells(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const na = Number(a);
  const nb = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return collator.compare(a, b);
}

/**
 * The order of `indices` sorted by `column`, stable (ties keep their current order); blank cells
 * stay at the end in both directions.
 */
export function sortIndices(
  rows: readonly unknown[],
  indices: ArrayLike<number>,
  column: ColumnSpec,
  direction: SortDirection,
): Uint32Array {
  return sortByKeys((index) => cellText(rows[index], column), indices, direction);
}

/** `sortIndices` over keys read per row position (the results page sorts on the cell texts it holds). */
export function sortByKeys(
  keyOf: (index: number) => string,
  indices: ArrayLike<number>,
  direction: SortDirection,
): Uint32Array {
  const n = indices.length;
  // A column holds far fewer distinct values than rows, mostly (event types, hosts, users): each
  // distinct value is compared with the others once, and the rows sort by the rank of their value.
  const rankOf = new Map<string, number>();
  const keys = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const key = keyOf(indices[i]);
    keys[i] = key;
    rankOf.set(key, 0);
  }
  const distinct = [...rankOf.keys()].sort(compareCells);
  // Values that compare equal ("a" and "A", "1" and "1.0") share a rank; blanks sort last.
  let rank = 0;
  for (let j = 0; j < distinct.length; j++) {
    if (j > 0 && compareCells(distinct[j - 1], distinct[j]) !== 0) rank++;
    rankOf.set(distinct[j], rank);
  }
  // The rows go to their rank's bucket, buckets in the direction asked and blanks (in both
  // directions) last, each bucket's rows in their order in `indices`: a counting sort, no comparisons.
  const blank = rankOf.get('');
  const ranks = new Uint32Array(n);
  const starts = new Uint32Array(rank + 2);
  for (let i = 0; i < n; i++) {
    const r = rankOf.get(keys[i])!;
    const bucket = r === blank ? rank + 1 : direction === 'asc' ? r : rank - r;
    ranks[i] = bucket;
    starts[bucket]++;
  }
  for (let b = 0, at = 0; b < starts.length; b++) {
    const size = starts[b];
    starts[b] = at;
    at += size;
  }
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[starts[ranks[i]]++] = indices[i]!;
  return out;
}

/**
 * The rows of `indices` in the order `order` puts every row in. For rows picked in ascending
 * position (a filter's answer, a period of the timeline), that is the order sorting them alone
 * gives (ties keep their positions either way), found in one pass: a large table sorts once per
 * column and direction, and each filter or clear only picks from that order. Undefined when
 * `indices` are not ascending positions below `order.length` (then sort them alone).
 */
export function pickInOrder(order: ArrayLike<number>, indices: ArrayLike<number>): Uint32Array | undefined {
  const n = order.length;
  const picked = new Uint8Array(n);
  let last = -1;
  for (let i = 0; i < indices.length; i++) {
    const index = indices[i];
    if (!(index > last && index < n && Number.isInteger(index))) return undefined;
    picked[index] = 1;
    last = index;
  }
  const out = new Uint32Array(indices.length);
  let k = 0;
  for (let i = 0; i < n && k < out.length; i++) if (picked[order[i]] === 1) out[k++] = order[i];
  return k === out.length ? out : undefined;
}

/**
 * Search text of a row: every scalar anywhere in it, lower-cased, so the quick filter also finds
 * values in columns that are not shown.
 */
export function rowSearchText(row: unknown): string {
  // Each value once: an event repeats its host, IP and user in several places (a fifth of its
  // text), and a term never spans two values, so the repeats find nothing more. A large table holds
  // these texts for every row and each filter reads them all.
  const parts = new Set<string>();
  const walk = (value: unknown, depth: number): void => {
    if (depth > 12) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key], depth + 1);
    } else if (value !== undefined && value !== null) {
      parts.add(scalarText(value));
    }
  };
  walk(row, 0);
  return [...parts].join('\u0000').toLowerCase();
}

/** Builds (once) and keeps the search text per row. */
export class SearchIndex {
  private texts: Array<string | undefined> = [];
  /** Rows before this one all have their text (see buildUntil). */
  private built = 0;
  constructor(private rows: readonly unknown[]) {}

  setRows(rows: readonly unknown[]): void {
    if (rows !== this.rows) {
      // Appending keeps the texts already built.
      if (rows.length < this.texts.length) {
        this.texts = [];
        this.built = 0;
      }
      this.rows = rows;
    }
  }

  /** Whether every row has its search text. */
  get complete(): boolean {
    return this.built >= this.rows.length;
  }

  /**
   * Makes the search texts of the next rows until `deadline` (a performance.now() time), so that
   * the work of a large table is done in slices between other work instead of all at once in the
   * first filter. Answers whether every row has its text now.
   */
  buildUntil(deadline: number): boolean {
    const n = this.rows.length;
    while (this.built < n) {
      const stop = Math.min(n, this.built + 16);
      for (; this.built < stop; this.built++) this.text(this.built);
      if (performance.now() >= deadline) break;
    }
    return this.built >= n;
  }

  text(index: number): string {
    let text = this.texts[index];
    if (text === undefined) {
      text = rowSearchText(this.rows[index]);
      this.texts[index] = text;
    }
    return text;
  }
}

/**
 * Indices of the rows matching a quick filter: whitespace-separated terms that must all appear
 * (case-insensitive); a term "path:value" must appear in that field.
 */
export function filterIndices(
  rows: readonly unknown[],
  filter: string,
  index: SearchIndex = new SearchIndex(rows),
  fields?: FieldResolver,
): Uint32Array {
  const terms = parseFilter(filter).map((t) => (t.path && fields ? { ...t, paths: fields.resolve(t.path) } : t));
  const out: number[] = [];
  if (terms.every((t) => !t.path)) {
    // Words only (the common filter): each row's search text, read once, against each word.
    for (let i = 0; i < rows.length; i++) {
      const text = index.text(i);
      let hit = true;
      for (let k = 0; k < terms.length && hit; k++) hit = text.includes(terms[k].text) !== terms[k].negate;
      if (hit) out.push(i);
    }
    return Uint32Array.from(out);
  }
  for (let i = 0; i < rows.length; i++) {
    if (matchesTerms(rows[i], terms, () => index.text(i))) out.push(i);
  }
  return Uint32Array.from(out);
}

/** "event_type" → "eventType": UDM query paths are snake_case, the JSON rows camelCase. */
export function camelPath(path: string): string {
  return path.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * What a filter's "field:" names, in the words people use: a full row path, a UDM path without the
 * row's "udm." prefix (in snake_case or camelCase), a column title, or a short field name that ends
 * a known path ("hostname" → principal.hostname, target.hostname, …).
 */
const MAX_RESOLVED_FIELDS = 1_000;

export class FieldResolver {
  /** Answers per field name typed in the filter; the names typed in one panel's life stay few. */
  private readonly cache = new Map<string, string[]>();

  constructor(
    /** The prefix of the event inside a row ("udm." for search rows, "" otherwise). */
    private readonly root: string,
    private readonly columns: readonly ColumnSpec[],
    /** Leaf paths present in the rows (full row paths). */
    private readonly known: readonly string[],
  ) {}

  resolve(field: string): string[] {
    const key = field.toLowerCase();
    const hit = this.cache.get(key);
    if (hit) return hit;
    const paths = this.compute(field);
    if (this.cache.size >= MAX_RESOLVED_FIELDS) this.cache.clear();
    this.cache.set(key, paths);
    return paths;
  }

  private compute(field: string): string[] {
    const lower = field.toLowerCase().replace(/\s+/g, ' ').trim();
    const column = this.columns.find((c) => c.label.toLowerCase() === lower || c.id.toLowerCase() === lower);
    if (column) return [column.id, ...(column.fallbacks ?? [])];
    const camel = camelPath(field.trim());
    const knownLower = new Map(this.known.map((p) => [p.toLowerCase(), p]));
    for (const candidate of [camel, `${this.root}${camel}`]) {
      const exact = knownLower.get(candidate.toLowerCase());
      if (exact) return [exact];
    }
    const suffix = `.${camel.toLowerCase()}`;
    const ending = this.known.filter((p) => p.toLowerCase().endsWith(suffix));
    if (ending.length) return ending;
    // Not present in these rows: still the path the user most likely meant.
    return this.root && !camel.startsWith(this.root) ? [`${this.root}${camel}`, camel] : [camel];
  }

  /** Known paths (shown without the row prefix) containing what is typed, best matches first. */
  suggest(typed: string, max = 8): string[] {
    const q = camelPath(typed.trim()).toLowerCase();
    if (q === '') return [];
    const shown = this.known.map((p) => (this.root && p.startsWith(this.root) ? p.slice(this.root.length) : p));
    const scored = shown
      .map((p) => {
        const l = p.toLowerCase();
        const last = l.slice(l.lastIndexOf('.') + 1);
        const score = last === q ? 0 : last.startsWith(q) ? 1 : l.startsWith(q) ? 2 : l.includes(q) ? 3 : -1;
        return { p, score };
      })
      .filter((x) => x.score >= 0)
      .sort((a, b) => a.score - b.score); // stable: ties keep the order the rows show them in
    return [...new Set(scored.map((x) => x.p))].slice(0, max);
  }

  /** The paths a filter's field terms searched (shown without the row prefix), for "no rows match". */
  describe(filter: string): Array<{ field: string; paths: string[] }> {
    return parseFilter(filter)
      .filter((t) => t.path)
      .map((t) => ({
        field: t.path!,
        paths: this.resolve(t.path!).map((p) => (this.root && p.startsWith(this.root) ? p.slice(this.root.length) : p)),
      }));
  }
}

export interface FilterTerm {
  path?: string;
  /** The row paths the field stands for (set when a FieldResolver is given). */
  paths?: string[];
  text: string;
  negate: boolean;
}

export function parseFilter(filter: string): FilterTerm[] {
  const terms: FilterTerm[] = [];
  // A field is a path ("principal.hostname:") or a quoted column title ("Event type":).
  const re = /(-?)(?:(?:"([^"]+)"|([A-Za-z_][\w.]*)):)?(?:"([^"]*)"|(\S+))/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(filter)) !== null) {
    const path = m[2] ?? m[3];
    const text = (m[4] ?? m[5] ?? '').toLowerCase();
    if (text === '' && !path) continue;
    terms.push({ ...(path ? { path } : {}), text, negate: m[1] === '-' });
  }
  return terms;
}

function matchesTerms(row: unknown, terms: FilterTerm[], all: () => string): boolean {
  for (const term of terms) {
    let hit: boolean;
    if (term.path) {
      hit = false;
      for (const path of term.paths ?? [term.path]) {
        if (valuesAt(row, path).some((v) => scalarText(v).toLowerCase().includes(term.text))) {
          hit = true;
          break;
        }
      }
    } else {
      hit = all().includes(term.text);
    }
    if (hit === term.negate) return false;
  }
  return true;
}

export interface HistogramBin {
  start: number;
  end: number;
  count: number;
}

const NICE_STEPS = [
  1000,
  5000,
  10_000,
  30_000,
  60_000,
  300_000,
  600_000,
  900_000,
  1_800_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  86_400_000,
  7 * 86_400_000,
  30 * 86_400_000,
];

/**
 * Counts per time bin over [start, end): a "nice" bin width so that there are at most `maxBins`
 * bins, bins aligned to that width. Times outside the range or unreadable are skipped.
 */
export function histogram(times: ArrayLike<number>, start: number, end: number, maxBins = 60): HistogramBin[] {
  if (!(end > start)) return [];
  const span = end - start;
  const width = NICE_STEPS.find((s) => span / s <= maxBins) ?? Math.ceil(span / maxBins);
  const first = Math.floor(start / width) * width;
  const count = Math.ceil((end - first) / width);
  const bins: HistogramBin[] = [];
  for (let i = 0; i < count; i++) bins.push({ start: first + i * width, end: first + (i + 1) * width, count: 0 });
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (!(t >= start && t < end)) continue;
    const b = Math.floor((t - first) / width);
    if (b >= 0 && b < bins.length) bins[b].count++;
  }
  return bins;
}

/** Epoch ms of each row's timestamp at `path` (NaN when missing). */
export function timesOf(rows: readonly unknown[], path: string): Float64Array {
  const time = timeReader(path);
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = time(rows[i]);
  return out;
}

/**
 * Row positions newest first by the times given (stable; rows without a time at the end). The
 * order a results table opens in, whatever order the service returned.
 */
export function newestFirstOrder(times: ArrayLike<number>, indices?: ArrayLike<number>): Uint32Array {
  const n = indices ? indices.length : times.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = indices ? indices[i] : i;
  // A result that is already newest first (or a fresh ascending one) is common: skip the sort.
  let descending = true;
  for (let i = 1; i < n && descending; i++) {
    const a = times[order[i - 1]];
    const b = times[order[i]];
    if (Number.isNaN(b) ? false : Number.isNaN(a) || a < b) descending = false;
  }
  if (descending) return order;
  // Sorted by place in `order` (ties keep it), each place's time read once.
  const keys = new Float64Array(n);
  const places = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    keys[i] = times[order[i]];
    places[i] = i;
  }
  places.sort((x, y) => {
    const a = keys[x];
    const b = keys[y];
    const na = Number.isNaN(a);
    const nb = Number.isNaN(b);
    if (na || nb) return na === nb ? x - y : na ? 1 : -1;
    return b - a || x - y;
  });
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = order[places[i]];
  return out;
}

/** The rows reordered newest first by the timestamp at `path`. */
export function sortNewestFirst<T>(rows: readonly T[], path: string): T[] {
  const order = newestFirstOrder(timesOf(rows, path));
  const out = new Array<T>(rows.length);
  for (let i = 0; i < order.length; i++) out[i] = rows[order[i]]!;
  return out;
}
