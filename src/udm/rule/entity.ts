// Entity graph fields (`$g.graph.entity.hostname`): the path after `graph` is a field of the
// entity schema (Entity), not of a UDM event. Paths the schema does not describe are reported
// with a suggestion; free-form parts (struct, map, unknown) accept anything below them.
import type { FieldNode } from '../ast';
import { childFields, suggest, valueKind, type FieldInfo } from '../schema';

export interface EntityProblem {
  message: string;
  start: number;
  end: number;
  replacements?: string[];
}

export function isGraphField(node: FieldNode): boolean {
  return node.segments[0]?.name === 'graph';
}

/** The entity fields along `graph.…` (one per segment after `graph`), as far as they resolve. */
export function resolveEntityPath(node: FieldNode): { fields: FieldInfo[]; problem?: EntityProblem } {
  const fields: FieldInfo[] = [];
  let type = 'm:Entity';
  let where = 'an entity (graph)';
  for (let i = 1; i < node.segments.length; i++) {
    const seg = node.segments[i];
    const kind = valueKind(type);
    if (kind === 'struct' || kind === 'map' || kind === 'unknown') return { fields };
    const children = childFields(type);
    if (!children) {
      return {
        fields,
        problem: {
          message: `'${seg.name}' cannot follow ${where}: it is a ${kind} with no sub-fields`,
          start: seg.start,
          end: seg.end,
        },
      };
    }
    const f = children.get(seg.name);
    if (!f) {
      const candidates = suggest(seg.name, children.keys());
      return {
        fields,
        problem: {
          message: `Unknown field '${seg.name}' in ${where}${candidates.length ? `. Did you mean '${candidates[0]}'?` : ''}`,
          start: seg.start,
          end: seg.end,
          ...(candidates.length ? { replacements: candidates } : {}),
        },
      };
    }
    fields.push(f);
    type = f.type;
    where = `${f.type.replace(/^m:/, '')} (${node.segments
      .slice(0, i + 1)
      .map((s) => s.name)
      .join('.')})`;
  }
  return { fields };
}
