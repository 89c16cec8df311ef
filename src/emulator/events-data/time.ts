// RFC 3339 timestamps as the Google JSON APIs write and accept them.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch, or undefined when the text is not a valid RFC 3339 timestamp. */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60)
    return undefined;
  const ms = Date.parse(text.toUpperCase());
  if (Number.isNaN(ms)) return undefined;
  // Date.parse accepts 2026-02-31 by rolling over; a real timestamp parser does not.
  if (new Date(Date.UTC(Number(y), month - 1, day)).getUTCDate() !== day) return undefined;
  return ms;
}

/** "2026-11-22T02:30:00.123Z", or without the fraction when it is zero (as Google writes them). */
export function formatRfc3339(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? iso.slice(0, -5) + 'Z' : iso;
}
