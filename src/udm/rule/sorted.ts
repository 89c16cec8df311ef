/** The first index whose time (`timeOf`) is not before `t`, in items sorted by that time. */
export function lowerBound<T>(items: readonly T[], t: number, timeOf: (item: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (timeOf(items[mid]) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
