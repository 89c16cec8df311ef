// Shared by the timestamp.* functions and the time buckets of statistics. The results pages load
// the buckets, so this stays a module of its own that imports nothing.

/** The fields of a wall-clock reading, in 24-hour time, for Intl.DateTimeFormat. */
export const WALL_CLOCK = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
} as const satisfies Intl.DateTimeFormatOptions;
