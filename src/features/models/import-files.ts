// Validation of the JSON files users import (evaluations, slices, evaluated annotations): proto3
// JSON checked against the official message types, errors naming the file and the bad value.
import { fromProto3Json, ProtoJsonError } from '../../core/models/wire';
import { lastSegment } from './presentation';

/** Accepts a bare array or an object holding the array under the request's field name. */
export function arrayFromFile(json: unknown, field: string, file: string): unknown[] {
  if (Array.isArray(json)) return json;
  const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const inner = (json as Record<string, unknown> | null)?.[field] ?? (json as Record<string, unknown> | null)?.[snake];
  if (Array.isArray(inner)) return inner;
  throw new Error(`${lastSegment(file)} must hold a JSON array, or an object with a "${field}" array.`);
}

export function parseImport<T>(typeName: string, values: unknown[], file: string): T[] {
  if (values.length === 0) throw new Error(`${lastSegment(file)} holds no entries to import.`);
  return values.map((v, i) => {
    try {
      return fromProto3Json(typeName, v, `[${i}]`) as T;
    } catch (err) {
      if (err instanceof ProtoJsonError) throw new Error(`${lastSegment(file)} ${err.message}`, { cause: err });
      throw err;
    }
  });
}
