// Writes src/udm/schema/udm-field-docs.json (run by hand when the proto changes, not by the build:
// the proto is not in this repository), the description of each UDM field and enum value,
// from the comments of Google's googleapis backstory/udm.proto: the `//` lines right above a field
// or an enum value, joined into one paragraph. Field hover and enum value hover show them.
//
//   node scripts/extract-udm-field-docs.mjs <path to udm.proto> <googleapis commit>
//
// The proto itself is not kept in this repository; the output names the commit it was read at.
// The well-known types a path can reach (`metadata.event_timestamp.seconds`) are described from
// the official google/protobuf protos that google-gax ships in node_modules.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [protoPath, commit] = process.argv.slice(2);
if (!protoPath || !/^[0-9a-f]{40}$/.test(commit ?? '')) {
  console.error('usage: node scripts/extract-udm-field-docs.mjs <udm.proto> <40-hex googleapis commit>');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const outFile = join(root, 'src/udm/schema/udm-field-docs.json');

/** @type {Record<string, Record<string, string>>} */
const fields = {};
/** @type {Record<string, Record<string, string>>} */
const enumValues = {};

/** Adds the descriptions of one proto file; `rename` maps its type names to the schema's. */
function read(file, rename = (name) => name) {
  /** Open blocks: { kind: 'message' | 'enum' | 'oneof', name } */
  const stack = [];
  let comment = [];
  const scopeName = () =>
    rename(
      stack
        .filter((s) => s.kind !== 'oneof')
        .map((s) => s.name)
        .join('.'),
    );
  const innermost = () => [...stack].reverse().find((s) => s.kind !== 'oneof');
  const take = () => {
    const text = comment.join(' ').replace(/\s+/g, ' ').trim();
    comment = [];
    return text;
  };
  for (const raw of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    let m;
    if (line.startsWith('//')) {
      comment.push(line.replace(/^\/\/\s?/, ''));
    } else if ((m = /^(message|enum|oneof)\s+(\w+)\s*\{/.exec(line))) {
      stack.push({ kind: m[1], name: m[2] });
      comment = [];
    } else if (line.startsWith('}')) {
      stack.pop();
      comment = [];
    } else if (
      innermost()?.kind === 'message' &&
      (m = /^(?:repeated\s+|optional\s+)?(?:map<[^>]+>|[\w.]+)\s+(\w+)\s*=\s*\d+/.exec(line))
    ) {
      const text = take();
      if (text) (fields[scopeName()] ??= {})[m[1]] = text;
    } else if (innermost()?.kind === 'enum' && (m = /^([A-Z][A-Z0-9_]*)\s*=\s*-?\d+/.exec(line))) {
      const text = take();
      if (text) (enumValues[scopeName()] ??= {})[m[1]] = text;
    } else {
      // a blank line, an option or a reserved name: the comment above belongs to none of these
      comment = [];
    }
  }
  if (stack.length) throw new Error(`${file}: unbalanced braces, ${stack.map((s) => s.name).join('.')} still open`);
}

read(protoPath);
// The schema names the well-known types' pseudo-messages in lower case (src/udm/schema.ts).
const wellKnown = join(root, 'node_modules/google-gax/build/protos/google/protobuf');
const gaxVersion = JSON.parse(readFileSync(join(root, 'node_modules/google-gax/package.json'), 'utf8')).version;
read(join(wellKnown, 'timestamp.proto'), (name) => (name === 'Timestamp' ? 'timestamp' : name));
read(join(wellKnown, 'duration.proto'), (name) => (name === 'Duration' ? 'duration' : name));

const out = {
  source: `googleapis/googleapis backstory/udm.proto @ ${commit}`,
  wellKnownTypes: `google/protobuf timestamp.proto and duration.proto of google-gax ${gaxVersion}`,
  fields,
  enumValues,
};
writeFileSync(outFile, `${JSON.stringify(out, null, 1)}\n`);
const nFields = Object.values(fields).reduce((n, f) => n + Object.keys(f).length, 0);
const nValues = Object.values(enumValues).reduce((n, f) => n + Object.keys(f).length, 0);
console.log(`extract-udm-field-docs: ${nFields} fields and ${nValues} enum values -> ${outFile}`);
