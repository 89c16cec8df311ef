import type { SandboxClock } from './types';

/** A clock that starts at real time and moves only forward, by real time or by admin advances. */
export function createSandboxClock(start: number = Date.now()): SandboxClock {
  const realStart = Date.now();
  let offsetMs = start - realStart;
  const listeners: Array<() => void> = [];
  return {
    now: () => Date.now() + offsetMs,
    advance(seconds: number) {
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new RangeError('seconds must be a finite, non-negative number');
      offsetMs += seconds * 1000;
      for (const listener of listeners) listener();
    },
    onAdvance(listener) {
      listeners.push(listener);
    },
  };
}
