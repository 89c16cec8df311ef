// Which enum values Google's documented examples compare fields with, and how often: completion
// offers those first (`metadata.event_type = ` lists USER_LOGIN before EVENTTYPE_UNSPECIFIED).
import { DOCUMENTED_SYNTAX_EXAMPLES, SEARCH_API_SAMPLE } from '../documented-examples';
import { FUNCTIONS } from '../functions';
import { analyze } from '../index';
import { enumName, enumValues } from '../schema';
import { fieldBefore } from './analysis';

let counts: Map<string, Map<string, number>> | undefined;

/** Enum name → value → how many documented comparisons name it; computed once, on first use. */
function documentedCounts(): Map<string, Map<string, number>> {
  if (counts) return counts;
  counts = new Map();
  const examples = [
    ...DOCUMENTED_SYNTAX_EXAMPLES.map(([, q]) => q),
    SEARCH_API_SAMPLE,
    ...FUNCTIONS.filter((f) => f.search && f.example).map((f) => f.example),
  ];
  for (const text of examples) {
    const a = analyze(text);
    const { tokens } = a.parse;
    for (let i = 1; i + 1 < tokens.length; i++) {
      const value = tokens[i + 1];
      if (tokens[i].kind !== 'op' || value.kind !== 'string') continue;
      const f = fieldBefore(a, i - 1);
      const en = f?.kind === 'enum' ? enumName(f.type) : undefined;
      if (!en) continue;
      const byValue = counts.get(en) ?? new Map<string, number>();
      byValue.set(value.value, (byValue.get(value.value) ?? 0) + 1);
      counts.set(en, byValue);
    }
  }
  return counts;
}

/**
 * The values of an enum in the order completion offers them: those Google's examples use, most
 * used first; then the others in schema order; the zero value (`EVENTTYPE_UNSPECIFIED`,
 * `UNKNOWN_ACTION`: "not set", which a query rarely asks for) last.
 */
export function rankedEnumValues(en: string): Array<readonly [string, number]> {
  const used = documentedCounts().get(en);
  const values = enumValues(en);
  const rank = (name: string, num: number): number => (used?.get(name) ? -used.get(name)! : num === 0 ? 1 : 0);
  return values
    .map((v, i) => ({ v, i, r: rank(v[0], v[1]) }))
    .sort((x, y) => x.r - y.r || x.i - y.i)
    .map((x) => x.v);
}
