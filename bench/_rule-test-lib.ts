// Test Rule's computation over 10,000 events per variable: a two-variable join on a placeholder
// with a one-hour hop window, as the editor runs it after the searches return.
import { runRuleTest } from '../src/udm/rule/engine';

const RULE = `rule login_then_download {
  meta:
    author = "bench"
  events:
    $login.metadata.event_type = "USER_LOGIN"
    $login.principal.hostname = $host
    $dl.metadata.event_type = "NETWORK_HTTP"
    $dl.principal.hostname = $host
  match:
    $host over 1h
  outcome:
    $bytes = sum($dl.network.received_bytes)
    $risk_score = max(if($dl.network.received_bytes > 500000, 80, 40))
  condition:
    $login and #dl >= 3
}`;

function events(type: string, n: number, hosts: number): unknown[] {
  const t0 = Date.UTC(2026, 0, 1);
  return Array.from({ length: n }, (_, i) => ({
    udm: {
      metadata: {
        id: `${type}-${i}`,
        eventType: type,
        eventTimestamp: new Date(t0 + Math.floor((i * 2 * 86_400_000) / n) + (i % 13) * 1000).toISOString(),
      },
      principal: { hostname: `host-${(i * 7919) % hosts}` },
      network: { receivedBytes: String((i * 104729) % 1_000_000) },
    },
  }));
}

/** Milliseconds to compute the rule over 10,000 events per variable (median of 5), and the detections. */
export function testRule10k(): { ms: number; detections: number } {
  const byVariable = new Map([
    ['login', events('USER_LOGIN', 10_000, 100)],
    ['dl', events('NETWORK_HTTP', 10_000, 100)],
  ]);
  const samples: number[] = [];
  let detections = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = runRuleTest(RULE, byVariable, { maxDetections: 100_000 });
    samples.push(performance.now() - t0);
    detections = r.detections.length;
    // The one note expected: the window model the test computed.
    if (r.cut || r.notes.length !== 1 || !r.notes[0].startsWith('Hop windows of 1 h'))
      throw new Error(r.notes.join('\n'));
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[2], detections };
}

/** Events with 16 principal IPs each, a minute apart. */
function manyIps(n: number): unknown[] {
  const t0 = Date.UTC(2026, 0, 1);
  return Array.from({ length: n }, (_, i) => ({
    udm: {
      metadata: {
        id: `e${i}`,
        eventType: 'NETWORK_CONNECTION',
        eventTimestamp: new Date(t0 + i * 60_000).toISOString(),
      },
      principal: { hostname: 'h1', ip: Array.from({ length: 16 }, (_, k) => `10.0.${i}.${k}`) },
    },
  }));
}

/** `$p1`…`$pN = $e.principal.ip`, each equal to the next: 16^N combinations per event, almost none holding. */
function placeholderBomb(n: number): string {
  const ps = Array.from({ length: n }, (_, k) => `$p${k + 1}`);
  const binds = ps.map((p) => `    ${p} = $e.principal.ip\n`).join('');
  const chain = ps
    .slice(1)
    .map((p, k) => `    ${ps[k]} = ${p}\n`)
    .join('');
  return `rule placeholder_bomb {\n  meta:\n    author = "bench"\n  events:\n    $e.metadata.event_type = "NETWORK_CONNECTION"\n${binds}${chain}    $e.principal.hostname = $host\n  match:\n    $host over 1h\n  condition:\n    #e > 100\n}`;
}

/** Milliseconds until the engine's work limit stops a rule of 7 placeholders over one event of 16 IPs (median of 3). */
export function placeholderBomb7(): { ms: number; cut: string } {
  const byVariable = new Map([['e', manyIps(1)]]);
  const samples: number[] = [];
  let cut = '';
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = runRuleTest(placeholderBomb(7), byVariable);
    samples.push(performance.now() - t0);
    cut = r.cut?.reason ?? 'none';
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[1], cut };
}
