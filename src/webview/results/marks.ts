// Performance marks of a run's way onto the screen, which the editor benchmark reads after the fact:
// the page records them itself, so none is missed however early the page paints. A new run's first
// rows clear the previous run's marks, so they never pile up.
const NAMES = ['cloudbench:message', 'cloudbench:first-rows-painted', 'cloudbench:all-rows-painted'] as const;
type MarkName = (typeof NAMES)[number] | 'cloudbench:ready';

export function clearMarks(): void {
  for (const name of NAMES) performance.clearMarks(name);
}

export function mark(name: MarkName, detail: Record<string, unknown>): void {
  performance.mark(name, { detail });
}

/** The page's script has run and it asks for its rows (kept: it happens once per page). */
export function markReady(): void {
  performance.mark('cloudbench:ready');
}

/** Marks once what the current frame paints is on screen (the task after the next frame). */
export function markAfterPaint(name: MarkName, detail: Record<string, unknown>): void {
  requestAnimationFrame(() => setTimeout(() => mark(name, detail), 0));
}
