// Schema-aware diagnostics of a parsed query. One module per diagnostic family in check/: fields
// and paths (fields.ts), the filter walk (filter.ts), comparisons and values (values.ts), function
// calls (functions.ts), regular expressions (regex.ts), reference lists (lists.ts), placeholders
// and variable names (variables.ts), contradictions (contradictions.ts), the statistical sections
// (sections.ts, outcome.ts, condition.ts), all over one CheckContext (context.ts).
import type { Query } from './ast';
import { CheckContext, type CheckOptions, type CheckResult } from './check/context';
import { findContradictions } from './check/contradictions';
import { visit } from './check/filter';
import { checkSections } from './check/sections';
import { collectPlaceholders, collectRightPlaceholders } from './check/variables';

export { keepCheckerShape, type CheckOptions, type CheckResult, type FieldFacts } from './check/context';
export { fieldPathOf } from './check/fields';
export { MAX_LIMIT } from './check/sections';

export function check(query: Query, options: CheckOptions = {}): CheckResult {
  const c = new CheckContext(options);
  if (query.filter) {
    collectPlaceholders(c, query.filter);
    collectRightPlaceholders(c, query.filter);
    visit(c, query.filter);
    findContradictions(c, query.filter);
  }
  const sectionsByKind = checkSections(c, query.sections);
  return { diagnostics: c.diagnostics, facts: c.facts, placeholders: c.placeholders, sectionsByKind };
}
