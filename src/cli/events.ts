// Events files as the results view exports them: a JSON array, or NDJSON (one event per line), or
// the Search API's own answer `{"events": […], "moreDataAvailable": …}` (udmSearch). Each event is
// the Search API's `{ "name": …, "udm": { … } }`, or a bare UDM event (with "metadata").
// Anything else is refused with the line it is on, so a broken export never yields a quiet table.
import { LineIndex } from '../udm/index';
import { elementSpans, rootSpan } from './json-spans';

export class EventsFileError extends Error {
  override readonly name = 'EventsFileError';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * JSON.parse's message without the text it quotes (an event can be long), its "at position N"
 * (counted from `base` in the file) as a line and column of the file.
 */
function reason(err: unknown, lines?: LineIndex, base = 0): string {
  let m = err instanceof Error ? err.message : String(err);
  const quoted = m.indexOf(', "');
  if (quoted > 0 && m.endsWith('is not valid JSON')) m = m.slice(0, quoted);
  return m.replace(/ at position (\d+)(?: \(line \d+ column \d+\))?/, (_all, pos: string) => {
    if (!lines) return ` at column ${Number(pos) + 1}`;
    const p = lines.position(base + Number(pos));
    return ` at line ${p.line + 1} column ${p.character + 1}`;
  });
}

/** The `udm` object of one event, or why it is not an event. */
function udmOf(value: unknown): unknown {
  if (!isObject(value))
    throw new Error(
      `is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an event object`,
    );
  if ('udm' in value) {
    if (!isObject(value.udm)) throw new Error('has a "udm" that is not an object');
    return value.udm;
  }
  if (isObject(value.metadata)) return value;
  throw new Error(
    'has no "udm" object (the results view exports events as {"name": …, "udm": {…}}) and is no UDM event (no "metadata")',
  );
}

/** The UDM events of a file's text; `file` names it in errors. */
export function readEvents(file: string, text: string): unknown[] {
  if (text.trim() === '')
    throw new EventsFileError(`${file}: the file is empty; export events from the results view as JSON or NDJSON`);
  const first = /\S/.exec(text);
  if (first?.[0] === '[') return readJsonArray(file, text);
  const answer = first?.[0] === '{' ? searchAnswer(text) : undefined;
  return answer ? readAnswer(file, answer) : readNdjson(file, text);
}

/** udmSearch's answer: an object whose `events` is an array (NDJSON of one line is an event, not this). */
function searchAnswer(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isObject(value) && Array.isArray(value.events) ? value : undefined;
}

function readAnswer(file: string, answer: Record<string, unknown>): unknown[] {
  return (answer.events as unknown[]).map((v, i) => {
    try {
      return udmOf(v);
    } catch (err) {
      throw new EventsFileError(`${file}: events[${i}] ${(err as Error).message}`);
    }
  });
}

function readJsonArray(file: string, text: string): unknown[] {
  const lines = new LineIndex(text);
  const lineOf = (offset: number): number => lines.position(offset).line + 1;
  const spans = elementSpans(text, rootSpan(text));
  let values: unknown[];
  try {
    values = JSON.parse(text) as unknown[];
  } catch (err) {
    // Name the first event that does not parse on its own; else the array itself is broken.
    for (let i = 0; i < spans.length; i++) {
      try {
        JSON.parse(text.slice(spans[i].start, spans[i].end));
      } catch (inner) {
        throw new EventsFileError(
          `${file}:${lineOf(spans[i].start)}: event ${i + 1} is not valid JSON (${reason(inner, lines, spans[i].start)})`,
        );
      }
    }
    throw new EventsFileError(`${file}: not a valid JSON array (${reason(err, lines)})`);
  }
  if (!Array.isArray(values)) throw new EventsFileError(`${file}: not a JSON array`);
  return values.map((v, i) => {
    try {
      return udmOf(v);
    } catch (err) {
      const at = spans[i] ? `:${lineOf(spans[i].start)}` : '';
      throw new EventsFileError(`${file}${at}: event ${i + 1} ${(err as Error).message}`);
    }
  });
}

function readNdjson(file: string, text: string): unknown[] {
  const out: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new EventsFileError(
        `${file}:${i + 1}: not a JSON value (${reason(err)}); an events file is a JSON array or NDJSON, one event per line`,
      );
    }
    try {
      out.push(udmOf(value));
    } catch (err) {
      throw new EventsFileError(`${file}:${i + 1}: the event ${(err as Error).message}`);
    }
  }
  return out;
}
