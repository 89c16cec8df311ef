// Validation of the JSON files users import (evaluations, slices, evaluated annotations): proto3
// JSON checked against the official message types, errors naming the file and the bad value at
// the path the user wrote it under ("metricsSchemaUri" for a single object, "[2].metricsSchemaUri"
// for a bare array, "modelEvaluationSlices[2]…" for an array under the request's field).
import { fromProto3Json, ProtoJsonError } from '../../core/models/wire';
import { lastSegment } from './presentation';

/** Where JSON.parse stopped, as people count: line and column from 1. */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  /** The parser's words without "in JSON at position …": "Expected ',' or '}' after property value". */
  reason: string;
}

/**
 * Parses `text`, or says where it stops being JSON by line and column (the parser gives only an
 * offset, or nothing at the end of the input).
 */
export function parseJsonText(text: string): { json: unknown } | { problem: JsonSyntaxProblem } {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (err) {
    const message = (err as Error).message;
    const at = /\bat position (\d+)/.exec(message);
    const offset = at ? Math.min(Number(at[1]), text.length) : text.length;
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - (before.lastIndexOf('\n') + 1) + 1;
    const reason = message.replace(/\s*in JSON at position \d+.*$/s, '').replace(/\s*\(line \d+ column \d+\)$/, '');
    return { problem: { line, column, reason } };
  }
}

/** The entries of an import file and where they sit in it: the array's key, or '' for a bare array. */
export interface ImportEntries {
  values: unknown[];
  /** How paths into the file start: '' (bare array) or the key holding the array, as spelled in the file. */
  arrayKey: string;
}

/** Accepts a bare array or an object holding the array under the request's field name (camelCase or snake_case). */
export function entriesFromFile(json: unknown, field: string, file: string): ImportEntries {
  if (Array.isArray(json)) return { values: json, arrayKey: '' };
  const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const obj = json as Record<string, unknown> | null;
  for (const key of [field, snake]) {
    const inner = obj?.[key];
    if (Array.isArray(inner)) return { values: inner, arrayKey: key };
  }
  throw new Error(`${lastSegment(file)} must hold a JSON array, or an object with a "${field}" array.`);
}

/** The array of entriesFromFile, for callers that do not report paths. */
export function arrayFromFile(json: unknown, field: string, file: string): unknown[] {
  return entriesFromFile(json, field, file).values;
}

/**
 * Checks every entry against `typeName`. `entries` is what entriesFromFile found, or a single
 * object (a file that holds one message), whose paths start at its own fields.
 */
export function parseImport<T>(typeName: string, entries: ImportEntries | { single: unknown }, file: string): T[] {
  const values = 'single' in entries ? [entries.single] : entries.values;
  if (values.length === 0) throw new Error(`${lastSegment(file)} holds no entries to import.`);
  return values.map((v, i) => {
    try {
      const path = 'single' in entries ? '' : `${entries.arrayKey}[${i}]`;
      return fromProto3Json(typeName, v, path) as T;
    } catch (err) {
      if (err instanceof ProtoJsonError) throw new Error(`${lastSegment(file)} ${err.message}`, { cause: err });
      throw err;
    }
  });
}
