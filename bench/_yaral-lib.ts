// YARA-L rule benchmarks, run by bench/udm.ts: diagnostics of a 2,000-line rule file and
// completion latency inside a rule over the LSP wire.
import { RuleAnalysis } from '../src/udm/rule/analyze';
import { toLspDiagnostics } from '../src/udm/service';
import { LspClient } from '../test/integration/server/lsp-client';

const STATEMENTS = [
  (v: string) => `$${v}.metadata.event_type = "NETWORK_CONNECTION"`,
  (v: string, i: number) => `$${v}.principal.hostname = "workstation-${i}" nocase`,
  (v: string) => `$${v}.target.port >= 1024`,
  (v: string, i: number) => `$${v}.principal.ip = "10.1.2.${i % 256}" or $${v}.target.ip = "10.1.2.3"`,
  (v: string) => `$${v}.network.http.user_agent = /curl|wget/ nocase`,
  (v: string) => `not $${v}.security_result.action = "ALLOW"`,
  (v: string) => `net.ip_in_range_cidr($${v}.principal.ip, "192.168.0.0/16")`,
  (v: string) => `re.regex($${v}.target.url, \`\\.exe$\`)`,
];

/** A rule of about `lines` lines: 8 event variables joined on $host, statements, outcomes. */
export function ruleText(lines: number): string {
  const vars = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8'];
  const out = ['rule bench_rule {', '  meta:', '    author = "bench"', '  events:'];
  for (const v of vars) out.push(`    $${v}.principal.hostname = $host`);
  const outcomes = 40;
  const body = lines - out.length - outcomes - 8;
  for (let i = 0; i < body; i++) out.push(`    ${STATEMENTS[i % STATEMENTS.length](vars[i % vars.length], i)}`);
  out.push('  match:', '    $host over 1h', '  outcome:');
  for (let i = 0; i < outcomes; i++) out.push(`    $o${i} = count_distinct($${vars[i % vars.length]}.metadata.id)`);
  out.push('  condition:', `    ${vars.map((v) => `$${v}`).join(' and ')}`, '}');
  return out.join('\n');
}

export function yaralDiagnostics(
  lines: number,
  median: (v: number[]) => number,
  gc: () => void,
): { wall: number; cpu: number } {
  const text = ruleText(lines);
  const first = new RuleAnalysis(text);
  const errors = first.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`the bench rule has errors: ${errors[0].message}`);
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 9; i++) {
    gc();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    toLspDiagnostics(new RuleAnalysis(text));
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: median(times.slice(2)), cpu: median(cpu.slice(2)) };
}

export async function yaralCompletionP95(percentile: (v: number[], p: number) => number): Promise<number> {
  const { client } = await LspClient.start({});
  try {
    const uri = 'file:///bench/rule.yaral';
    const base = ruleText(300).split('\n');
    // The cursor line: a statement being typed in events:, alternately `$` and `$e1.`.
    const at = 10;
    let version = 1;
    await client.open(uri, base.join('\n'), version, 'yaral');
    const samples: number[] = [];
    for (let i = 0; i < 260; i++) {
      const lines = [...base];
      const typed = i % 2 ? '    $e1.principal.' : '    $';
      lines.splice(at, 0, typed);
      lines[20 + (i % 200)] += ' ';
      await client.change(uri, lines.join('\n'), ++version);
      const t0 = performance.now();
      const items = await client.request<unknown[]>('textDocument/completion', {
        textDocument: { uri },
        position: { line: at, character: typed.length },
      });
      const dt = performance.now() - t0;
      if (!Array.isArray(items) || items.length === 0) throw new Error('rule completion returned nothing');
      if (i >= 20) samples.push(dt);
    }
    return percentile(samples, 95);
  } finally {
    await client.stop();
  }
}
