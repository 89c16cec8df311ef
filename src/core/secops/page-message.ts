// What every SecOps page protocol (results, statistics, Test Rule) checks first, on both sides.

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Throws `error` unless `data` is what every message is: an object with a string `type`. */
export function assertTypedMessage(
  data: unknown,
  error: new (message: string) => Error,
): asserts data is Record<string, unknown> & { type: string } {
  if (!isRecord(data) || typeof data.type !== 'string') throw new error('a message must be an object with a type');
}
