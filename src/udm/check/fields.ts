import type { FieldNode, NumberNode } from '../ast';
import {
  childFields,
  type FieldInfo,
  pathsThroughChild,
  type ResolvedPath,
  resolvePath,
  suggest,
  typeLabel,
  valueKind,
} from '../schema';
import type { CheckContext, FieldFacts } from './context';
import { article } from './describe';

export interface SharedResolution {
  facts: FieldFacts;
  r: ResolvedPath;
  anyDeprecated: boolean;
}

/**
 * The schema never changes, so resolutions are shared by every node (and document) with the same
 * path. A trie keyed by segment name finds them without building the dotted path per node.
 */
export interface ResolutionNode {
  resolution?: SharedResolution;
  children?: Map<string, ResolutionNode>;
}
let resolutionRoot: ResolutionNode = {};
let resolutionCount = 0;
export const RESOLUTION_CACHE_SIZE = 20000;

export function resolveShared(node: FieldNode): SharedResolution {
  const segs = node.segments;
  const first = segs[0]?.name === 'udm' && segs.length > 1 ? 1 : 0;
  let at = resolutionRoot;
  for (let i = first; i < segs.length; i++) {
    const name = segs[i].name;
    let child = at.children?.get(name);
    if (!child) {
      child = {};
      (at.children ??= new Map()).set(name, child);
    }
    at = child;
  }
  if (at.resolution) return at.resolution;
  const path = fieldPathOf(node);
  const r = resolvePath(path);
  const last = r.fields[r.fields.length - 1];
  const facts: FieldFacts = {
    fields: r.fields,
    path,
    key: path.join('.'),
    kind: r.freeForm || r.errorIndex >= 0 ? 'unknown' : last ? valueKind(last.type) : 'message',
    type: last ? last.type : 'm:UDM',
    repeated: r.fields.some((f) => f.repeated),
    unknown: r.errorIndex >= 0,
  };
  const shared = { facts, r, anyDeprecated: r.fields.some((f) => f.deprecated) };
  if (resolutionCount >= RESOLUTION_CACHE_SIZE) {
    // Unbounded input (fuzzing, pasted garbage) must not grow the cache forever; start over.
    resolutionRoot = {};
    resolutionCount = 0;
    return shared;
  }
  resolutionCount++;
  at.resolution = shared;
  return shared;
}

export function fieldPathOf(node: FieldNode): string[] {
  const names = node.segments.map((s) => s.name);
  return names.length > 1 && names[0] === 'udm' ? names.slice(1) : names;
}

export function resolveField(c: CheckContext, node: FieldNode): FieldFacts {
  const cached = c.facts.get(node);
  if (cached) return cached;
  const shared = resolveShared(node);
  let facts = shared.facts;
  const { r } = shared;
  const path = facts.path;
  const offset = node.segments.length - path.length;
  if (r.errorIndex >= 0) {
    const seg = node.segments[r.errorIndex + offset];
    if (seg.name !== '') {
      const parentType = r.errorParentType!;
      const children = childFields(parentType);
      const where =
        r.errorIndex === 0 ? 'a UDM event' : `${typeLabel(parentType)} (${path.slice(0, r.errorIndex).join('.')})`;
      if (!children) {
        c.report(
          'error',
          `${path.slice(0, r.errorIndex).join('.')} is ${article({ kind: valueKind(parentType), type: parentType })} and has no field '${seg.name}'`,
          seg.start,
          seg.end,
          'unknown-field',
        );
      } else {
        const byJson = [...children.values()].find((f) => f.jsonName === seg.name && f.name !== seg.name);
        const candidates = byJson ? [byJson.name] : suggest(seg.name, children.keys());
        if (!candidates.length && reportNotInSchema(c, node, r.errorIndex + offset, path, r.errorIndex, parentType))
          return keep(c, node, facts);
        const hint = candidates.length ? `. Did you mean '${candidates[0]}'?` : '';
        const msg = byJson
          ? `Use the snake_case name '${byJson.name}' (the API's JSON spells it ${seg.name})`
          : `Unknown field '${seg.name}' in ${where}${hint}`;
        c.report(
          'error',
          msg,
          seg.start,
          seg.end,
          'unknown-field',
          candidates.length ? { replacements: candidates } : undefined,
        );
      }
    }
  } else {
    if (shared.anyDeprecated) {
      for (let i = 0; i < r.fields.length; i++) {
        const f = r.fields[i];
        if (f.deprecated) {
          const seg = node.segments[i + offset];
          c.report('warning', `${f.name} is deprecated`, seg.start, seg.end, 'deprecated');
        }
      }
    }
    for (let i = 0; i < r.fields.length; i++) {
      const index = node.segments[i + offset].index;
      if (index) checkIndex(c, index, r.fields[i], path.slice(0, i + 1).join('.'));
    }
    if (node.key) {
      // Keyed access changes the value's kind, so this node gets its own facts.
      facts = { ...facts };
      if (!r.freeForm) {
        const lastField = r.fields[r.fields.length - 1];
        const isLabels = lastField && lastField.type === 'm:Label' && lastField.repeated;
        if (!(isLabels || facts.kind === 'struct' || facts.kind === 'map')) {
          c.report(
            'error',
            `${facts.key} is ${article(facts)}; ["key"] applies to labels, maps and structs`,
            node.key.start,
            node.key.end,
            'bad-key',
          );
        } else if (isLabels) {
          facts.kind = 'string';
          facts.type = 'string';
        }
      }
      if (facts.kind === 'struct' || facts.kind === 'map') facts.kind = 'unknown';
    }
  }
  return keep(c, node, facts);
}

export function keep(c: CheckContext, node: FieldNode, facts: FieldFacts): FieldFacts {
  c.facts.set(node, facts);
  return facts;
}

/**
 * A segment that is no field of its message but is one a level or two further down
 * (`network.tls.certificate.not_after`, written so on Google's functions page, where the schema
 * reference has `network.tls.server.certificate` and `network.tls.client.certificate`): Google's
 * schema grows faster than the reference, so this is a warning that names the known paths, not
 * an error. The sandbox finds no value there. Returns false when there is no such path.
 */
export function reportNotInSchema(
  c: CheckContext,
  node: FieldNode,
  segIndex: number,
  path: string[],
  errorIndex: number,
  parentType: string,
): boolean {
  // A bare first segment (`hostname`) stays an error: it is no field path at all.
  if (errorIndex === 0) return false;
  const seg = node.segments[segIndex];
  const paths = pathsThroughChild(parentType, seg.name, path.slice(errorIndex + 1)).map((p) => {
    const full = [...path.slice(0, errorIndex), ...p];
    // a timestamp is compared and computed with as epoch seconds
    const leaf = resolvePath(full).fields.at(-1);
    return leaf?.type === 'timestamp' ? `${full.join('.')}.seconds` : full.join('.');
  });
  if (!paths.length) return false;
  const first = node.segments[segIndex - errorIndex];
  const last = node.segments[node.segments.length - 1];
  const plain = !node.key && !node.segments.some((s) => s.index);
  const shown = paths.slice(0, 3);
  c.report(
    'warning',
    `${path.join('.')} is not in the UDM schema reference (${typeLabel(parentType)} has no field '${seg.name}'); the sandbox finds no value for it. Did you mean ${shown.join(' or ')}?`,
    plain ? first.start : seg.start,
    plain ? last.end : seg.end,
    'not-in-schema',
    plain ? { replacements: shown } : undefined,
  );
  return true;
}

/** `principal.ip[0]`: a whole number from 0, on a repeated field. */
export function checkIndex(c: CheckContext, index: NumberNode, field: FieldInfo, key: string): void {
  if (!Number.isInteger(index.value) || index.value < 0)
    c.report(
      'error',
      `An index counts elements from 0: write a whole number such as [0], not [${index.raw}]`,
      index.start,
      index.end,
      'bad-index',
    );
  else if (!field.repeated)
    c.report(
      'error',
      `${key} holds one value; [${index.raw}] applies to repeated fields: remove it`,
      index.start,
      index.end,
      'bad-index',
    );
}
