// Statistical search computed in the editor: `compileStatistics(text)` reads a query's match:,
// outcome:, condition:, dedup:, order: and limit: sections and returns an engine that turns
// fetched events (the `udm` objects) into a table.
import { Compiler } from '../evaluate';
import { analyze, type CompileOptions, type UdmDiagnostic } from '../index';
import { filterText, hasStatisticalSections, planFromQuery } from './ast-plan';
import { StatsEngine } from './engine';
import type { StatsPlan } from './plan';

export interface CompiledStatistics {
  /** The query's own diagnostics (the language service's). */
  diagnostics: UdmDiagnostic[];
  hasErrors: boolean;
  /** The filtering statements to send to udmSearch. */
  filter: string;
  plan: StatsPlan;
  engine: StatsEngine;
}

/** undefined when the query has no statistical section (a plain event search). */
export function compileStatistics(text: string, options: CompileOptions = {}): CompiledStatistics | undefined {
  const a = analyze(text, options);
  const query = a.parse.query;
  if (!hasStatisticalSections(query)) return undefined;
  const compiler = new Compiler({ check: a.check, referenceLists: options.referenceLists });
  const plan = planFromQuery(query);
  return {
    diagnostics: a.diagnostics,
    hasErrors: a.hasErrors,
    filter: filterText(text, query).trim(),
    plan,
    engine: new StatsEngine(plan, compiler),
  };
}

export { StatsEngine, BUCKET_COLUMN, eventSeconds, compareValues } from './engine';
export type { StatsColumn, StatsResult, StatsOptions, StatsRun, ColumnType, ColumnRole } from './engine';
export { ZoneOffsets, bucketStart, parseBucket, formatInZone } from './buckets';
export { ARRAY_LIMIT, createAccumulator } from '../functions/aggregates';
export type { StatsPlan, TimeBucketSpec, BucketUnit } from './plan';
