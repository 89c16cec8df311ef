// What "Test Rule" computes: the plan (one udmSearch per event variable, each with that
// variable's own filter statements) and the detections the rule gives over the events found.
// The engine (engine.ts) and the editor's Test Rule command both speak these types.

/** One udmSearch the test spends: the event variable and the search text for its events. */
export interface RuleTestSearch {
  /** the event variable, without `$` */
  variable: string;
  /** a UDM search over that variable's own statements (its `$e.` prefix removed) */
  query: string;
}

export interface RuleTestPlan {
  ruleName: string;
  /** one per event variable, in the order the events: section first names them */
  searches: RuleTestSearch[];
  /**
   * What the Search API cannot give and the test therefore leaves out, each said plainly
   * (entity `graph` variables, which need entity data; anything else not computed).
   */
  untestable: string[];
}

/** The events a detection holds for one variable: the UDM event and its metadata.id when set. */
export interface DetectionEvent {
  id?: string;
  /** the `udm` object of the Search API's camelCase JSON */
  udm: unknown;
}

export interface Detection {
  /** match: placeholders by name (without `$`) → value; empty for a rule without match: */
  match: Record<string, unknown>;
  /** milliseconds since the epoch, both inclusive */
  windowStart: number;
  windowEnd: number;
  /** outcome: variables by name (without `$`) → value */
  outcomes: Record<string, unknown>;
  /** `$risk_score` when the rule sets it */
  riskScore?: number;
  /** event variable (without `$`) → its events in the detection, in time order */
  events: Record<string, DetectionEvent[]>;
}

export interface RuleTestResult {
  detections: Detection[];
  /** notes on what was left out or cut short (the plan's untestable, a detection cap …) */
  notes: string[];
  cut?: { reason: 'work-limit' | 'time-limit'; message: string };
}
