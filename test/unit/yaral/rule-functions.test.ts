// strings.starts_with is a rule function (reference/yaral-rules.md: Google's current rules call it,
// with strings.ends_with): Test Rule computes it with the rule's other statements, and earlier
// outcome variables in later outcome values, as Google's rules write them.
import * as assert from 'node:assert/strict';
import { runRuleTest } from '../../../src/udm/rule/engine';

const T0 = Date.UTC(2026, 5, 1, 12, 0);
const reg = (id: string, minutes: number, path: string, value: string): unknown => ({
  udm: {
    metadata: { id, eventType: 'REGISTRY_MODIFICATION', eventTimestamp: new Date(T0 + minutes * 60_000).toISOString() },
    principal: { hostname: 'h1', process: { file: { fullPath: path } } },
    target: {
      registry: { registryKey: 'HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Run', registryValueData: value },
    },
  },
});

const RULE = `rule run_key_into_user_folder {
  meta:
    author = "test"
  events:
    $reg.metadata.event_type = "REGISTRY_MODIFICATION"
    strings.ends_with(strings.to_lower($reg.target.registry.registry_key), \`\\currentversion\\run\`)
    strings.starts_with(strings.to_lower($reg.target.registry.registry_value_data), "c:\\\\users\\\\")
    not strings.starts_with(strings.to_lower($reg.principal.process.file.full_path), \`c:\\program files\\\`)
    $reg.principal.hostname = $host
  match:
    $host over 1h
  outcome:
    $count = count($reg.metadata.id)
    $doubled = $count * 2
  condition:
    $reg
}`;

describe('rule functions in Test Rule', () => {
  it('computes strings.starts_with and ends_with, and outcomes that read earlier outcomes', () => {
    const result = runRuleTest(
      RULE,
      new Map([
        [
          'reg',
          [
            reg('a', 0, 'C:\\Windows\\regedit.exe', 'C:\\Users\\ann\\evil.exe'),
            reg('b', 1, 'C:\\Program Files\\Tool\\tool.exe', 'C:\\Users\\ann\\tool.exe'),
            reg('c', 2, 'C:\\Windows\\regedit.exe', 'D:\\Users\\ann\\x.exe'),
            reg('d', 3, 'C:\\Windows\\regedit.exe', 'c:\\users\\bob\\y.exe'),
          ],
        ],
      ]),
    );
    // Hop windows overlap (reference/yaral-rules.md): the windows hold {a}, {a, d} and {d}; the one
    // holding both matching events is the burst's peak.
    const sets = result.detections.map((x) =>
      (x.events.reg ?? [])
        .map((e) => e.id)
        .sort()
        .join(),
    );
    assert.deepEqual(sets.sort(), ['a', 'a,d', 'd'], JSON.stringify(result.notes));
    const d = result.detections.find((x) => (x.events.reg ?? []).length === 2);
    assert.ok(d);
    assert.deepEqual((d.events.reg ?? []).map((e) => e.id).sort(), ['a', 'd']);
    assert.equal(d.outcomes.count, 2);
    assert.equal(d.outcomes.doubled, 4);
    assert.ok(!result.notes.some((n) => /starts_with/.test(n)), result.notes.join('\n'));
  });
});
