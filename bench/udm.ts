// UDM language benchmarks: completion latency over the LSP wire against dist/server.js, full
// parse + diagnostics of a 10,000-line document, lexer throughput and filter throughput; then the
// same for YARA-L rule files (bench/_yaral-lib.ts); then typing in 2,000-line files replayed over the
// wire (bench/_typing-replay.ts).
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { analyze, compileQuery, lex } from '../src/udm/index';
import { toLspDiagnostics } from '../src/udm/service';
import { placeholderBomb7, testRule10k } from './_rule-test-lib';
import { LspClient, serverPath } from '../test/integration/server/lsp-client';
import { yaralCompletionP95, yaralDiagnostics } from './_yaral-lib';
import { printTypingReplay } from './_typing-replay';

const CONDITIONS = [
  'metadata.event_type = "NETWORK_CONNECTION"',
  'principal.hostname = "workstation-42" nocase',
  'target.port >= 1024 AND target.port <= 65535',
  'principal.ip = "10.1.2.3" OR target.ip = "10.1.2.3"',
  'network.http.user_agent = /curl|wget/ nocase',
  'NOT security_result.action = "ALLOW"',
  'net.ip_in_range_cidr(principal.ip, "192.168.0.0/16")',
  'metadata.event_timestamp.seconds > 1700000000',
  're.regex(target.url, `\\.exe$`)',
  'principal.user.userid != ""',
];

function query(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(CONDITIONS[i % CONDITIONS.length].replace('42', String(i)));
  return out.join('\n');
}

// Collect garbage between timed runs, so one run does not pay for the previous one's heap.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function median(values: number[]): number {
  return percentile(values, 50);
}

async function completionP95(): Promise<number> {
  const { client } = await LspClient.start({});
  try {
    const uri = 'file:///bench/query.udm';
    let text = `${query(300)}\nmetadata.`;
    let version = 1;
    await client.open(uri, text, version);
    const samples: number[] = [];
    for (let i = 0; i < 260; i++) {
      // Each request follows an edit, as when typing: the server re-analyses the document.
      const line = i % 300;
      const lines = text.split('\n');
      lines[line] = `${lines[line]} `;
      text = lines.join('\n');
      await client.change(uri, text, ++version);
      const position = i % 2 ? { line: 300, character: 9 } : { line, character: lines[line].length };
      const t0 = performance.now();
      const items = await client.request<unknown[]>('textDocument/completion', { textDocument: { uri }, position });
      const dt = performance.now() - t0;
      if (!Array.isArray(items) || items.length === 0) throw new Error('completion returned nothing');
      if (i >= 20) samples.push(dt); // the first requests warm up the JIT
    }
    return percentile(samples, 95);
  } finally {
    await client.stop();
  }
}

function diagnostics10k(): { wall: number; cpu: number } {
  const text = query(10000);
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 7; i++) {
    collectGarbage();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const a = analyze(text);
    toLspDiagnostics(a);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: median(times.slice(2)), cpu: median(cpu.slice(2)) };
}

function lexerMBs(): number {
  const text = query(40000);
  const bytes = Buffer.byteLength(text);
  lex(text);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    collectGarbage();
    const t0 = performance.now();
    lex(text);
    times.push((performance.now() - t0) / 1000);
  }
  return bytes / 1e6 / median(times);
}

function filterMillion(): number {
  const types = ['NETWORK_CONNECTION', 'USER_LOGIN', 'PROCESS_LAUNCH', 'NETWORK_DNS'];
  const events = Array.from({ length: 1_000_000 }, (_, i) => ({
    metadata: { eventType: types[i % 4], eventTimestamp: '2024-01-01T00:00:00Z', id: String(i) },
    principal: { hostname: `h${i % 1000}`, ip: [`10.0.${i % 256}.1`] },
    target: { port: i % 65536 },
  }));
  const c = compileQuery(
    'metadata.event_type = "USER_LOGIN" and principal.hostname = "h1" and net.ip_in_range_cidr(principal.ip, "10.0.0.0/8")',
  );
  const t0 = performance.now();
  let n = 0;
  for (const e of events) if (c.matches(e)) n++;
  const dt = performance.now() - t0;
  if (n !== 1000) throw new Error(`expected 1000 matches, got ${n}`);
  return dt;
}

async function main(): Promise<void> {
  if (serverPath() !== join(__dirname, '..', 'dist', 'server.js')) {
    console.log(
      '# dist/server.js is missing or older than its sources (run `npm run build`); measuring a fresh bundle of src/server/main.ts',
    );
  }
  const p95 = await completionP95();
  console.log(`udm completion p95 ms: ${p95.toFixed(2)} ms`);
  const d = diagnostics10k();
  // On a shared machine wall time includes waiting for a core; the CPU time shows the work itself.
  console.log(
    `udm diagnostics 10k lines ms: ${d.wall.toFixed(1)} ms  (CPU ${d.cpu.toFixed(1)} ms, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
  );
  console.log(`udm lexer MB/s: ${lexerMBs().toFixed(1)} MB/s`);
  console.log(`udm filter 1M events ms: ${filterMillion().toFixed(0)} ms`);
  const y = yaralDiagnostics(2000, median, collectGarbage);
  console.log(
    `yaral diagnostics 2k-line rule file ms: ${y.wall.toFixed(1)} ms  (CPU ${y.cpu.toFixed(1)} ms, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
  );
  console.log(`yaral completion p95 ms: ${(await yaralCompletionP95(percentile)).toFixed(2)} ms`);
  // Typing replayed over the wire (bench/_typing-replay.ts): the server's CPU per key press.
  await printTypingReplay();
  const rule = testRule10k();
  console.log(
    `udm test rule 10k events ms: ${rule.ms.toFixed(0)} ms  (10,000 events per variable, two variables joined over 1h, ${rule.detections} detections)`,
  );
  const bomb = placeholderBomb7();
  console.log(
    `udm test rule 7-placeholder bomb ms: ${bomb.ms.toFixed(0)} ms  (16^7 combinations per event, stopped by ${bomb.cut})`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
