// Checks a UDM event in the proto3 JSON mapping (lowerCamelCase names) against the generated UDM
// schema: every field must exist in its message, with the JSON type its proto type maps to.
import { ENUMS, MESSAGES, ROOT_MESSAGE } from '../../src/udm/generated/schema';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function camelToSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Problems found, each with its JSON path; empty when the event is valid. */
export function udmJsonProblems(value: unknown, message = ROOT_MESSAGE, path = 'udm'): string[] {
  const problems: string[] = [];
  const fields = MESSAGES[message];
  if (!fields) return [`${path}: unknown message ${message}`];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${path}: expected an object for ${message}`];
  for (const [key, v] of Object.entries(value)) {
    const field = fields.find((f) => f[0] === camelToSnake(key));
    const where = `${path}.${key}`;
    if (!field) {
      problems.push(`${where}: no field ${camelToSnake(key)} in ${message}`);
      continue;
    }
    const [, , type, flags] = field;
    if (flags & 1) {
      if (!Array.isArray(v)) problems.push(`${where}: repeated field must be an array`);
      else v.forEach((item, i) => problems.push(...valueProblems(item, type, `${where}[${i}]`)));
    } else {
      problems.push(...valueProblems(v, type, where));
    }
  }
  return problems;
}

function valueProblems(v: unknown, type: string, where: string): string[] {
  if (type.startsWith('m:')) return udmJsonProblems(v, type.slice(2), where);
  if (type.startsWith('e:')) {
    const names = ENUMS[type.slice(2)];
    return typeof v === 'string' && names?.some(([n]) => n === v) ? [] : [`${where}: not a ${type.slice(2)} name`];
  }
  if (type.startsWith('map:')) return typeof v === 'object' && v !== null ? [] : [`${where}: expected a map`];
  const ok = ((): boolean => {
    switch (type) {
      case 'string':
        return typeof v === 'string';
      case 'bool':
        return typeof v === 'boolean';
      case 'int32':
      case 'uint32':
      case 'sint32':
      case 'fixed32':
        return Number.isInteger(v);
      case 'int64':
      case 'uint64':
      case 'sint64':
      case 'fixed64':
        return typeof v === 'string' && /^-?\d+$/.test(v);
      case 'float':
      case 'double':
        return typeof v === 'number';
      case 'bytes':
        return typeof v === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(v);
      case 'timestamp':
        return typeof v === 'string' && RFC3339.test(v);
      case 'duration':
        return typeof v === 'string' && /^-?\d+(\.\d+)?s$/.test(v);
      case 'struct':
        return typeof v === 'object' && v !== null && !Array.isArray(v);
      case 'latlng':
        return typeof v === 'object' && v !== null && 'latitude' in v;
      default:
        return true;
    }
  })();
  return ok ? [] : [`${where}: ${JSON.stringify(v)} is not a valid ${type}`];
}
