// Test Rule's detections in the oracle's form (test/support/yaral-oracle.ts): `$`-keyed maps, match
// values as text, array outcomes as sorted text, the events as their ids. Kept apart from the
// oracle, which shares no code or types with src/udm.
import type { Detection } from '../../src/udm/rule/test-types';
import type { DemoRuleName, ExpectedDetection } from './yaral-oracle';

export function detectionAsOracle(rule: DemoRuleName, d: Detection): ExpectedDetection {
  const outcomes: ExpectedDetection['outcomes'] = {};
  for (const [k, v] of Object.entries(d.outcomes))
    outcomes[`$${k}`] = Array.isArray(v) ? v.map(String).sort() : (v as number | string);
  return {
    rule,
    match: Object.fromEntries(Object.entries(d.match).map(([k, v]) => [`$${k}`, String(v)])),
    windowStart: d.windowStart,
    windowEnd: d.windowEnd,
    outcomes,
    events: Object.fromEntries(Object.entries(d.events).map(([k, v]) => [`$${k}`, v.map((e) => e.id ?? '')])),
  };
}
