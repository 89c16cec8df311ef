// npm run bench -- sandbox: the sandbox's Search API at scale. Ingests 1,000,000 UDM events through
// the admin call, then times a selective udmSearch over all of them (goal: <= 1000 ms per query),
// and records the heap the events take and how long the demo data takes to generate. Then 10,000
// events of the realistic corpus (3-6 KB each) in one answer: its first and last byte, which the
// sandbox writes out piece by piece instead of as one string.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startSandbox } from '../src/emulator/sandbox';
import { EventStore } from '../src/emulator/events-data/store';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const TOTAL = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const BATCH = 25_000;
const DAY = 86_400_000;
const QUERIES = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function post(base: string, action: string, body: string): Promise<unknown> {
  const res = await fetch(`${base}/sandbox/v1/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${action}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A batch of events as JSON text: 2,000 hosts, five event types, one host in 20,000 is the needle. */
function batchJson(from: number, count: number, start: number): string {
  const types = ['NETWORK_DNS', 'NETWORK_HTTP', 'NETWORK_CONNECTION', 'USER_LOGIN', 'PROCESS_LAUNCH'];
  const parts: string[] = [];
  let x = (from * 2654435761) >>> 0;
  for (let i = from; i < from + count; i++) {
    x = (Math.imul(x ^ (x >>> 13), 1103515245) + 12345) >>> 0;
    const t = start + Math.floor((i / TOTAL) * 7 * DAY) + (x % 1000);
    const host = i % 20_000 === 7 ? 'needle-host' : `host-${x % 2000}`;
    const type = types[x % 5];
    const ev = {
      metadata: {
        eventTimestamp: new Date(t).toISOString(),
        eventType: type,
        vendorName: 'Bench',
        productName: 'Bench Sensor',
      },
      principal: {
        hostname: host,
        ip: [`10.${(x >>> 8) & 255}.${(x >>> 16) & 255}.${x & 255}`],
        port: 49152 + (x % 16000),
      },
      target: { hostname: `site-${x % 500}.example.com`, ip: [`203.0.113.${x % 250}`], port: 443 },
      network: { ipProtocol: 'TCP', sentBytes: String(x % 100_000), receivedBytes: String((x >>> 3) % 1_000_000) },
      securityResult: [{ action: [x % 50 === 0 ? 'BLOCK' : 'ALLOW'] }],
    };
    parts.push(JSON.stringify(ev));
  }
  return `{"events":[${parts.join(',')}]}`;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ seed: 'empty' });
  try {
    await post(sandbox.http, 'ratelimits', JSON.stringify({ enabled: false }));

    // The demo events are generated on first use after a reset; time exactly that.
    const demo = new EventStore(() => Date.now());
    demo.reset('demo');
    let t = performance.now();
    const cpu = process.cpuUsage();
    demo.count();
    const used = process.cpuUsage(cpu);
    console.log(`sandbox demo events generation ms: ${(performance.now() - t).toFixed(0)}`);
    // CPU time of this process alone: the wall time above grows with whatever else shares the cores.
    console.log(`sandbox demo events generation cpu ms: ${((used.user + used.system) / 1000).toFixed(0)}`);
    demo.reset('empty');

    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const now = Date.parse(((await (await fetch(`${sandbox.http}/sandbox/v1/state`)).json()) as { now: string }).now);
    const start = now - 7 * DAY;
    t = performance.now();
    for (let from = 0; from < TOTAL; from += BATCH)
      await post(sandbox.http, 'events:ingest', batchJson(from, BATCH, start));
    const ingestMs = performance.now() - t;
    console.log(`sandbox ingest 1M events s: ${(ingestMs / 1000).toFixed(1)}`);

    const search = async (query: string, limit = 10_000): Promise<{ ms: number; count: number }> => {
      const qs = `query=${encodeURIComponent(query)}&time_range.start_time=${encodeURIComponent(new Date(start).toISOString())}&time_range.end_time=${encodeURIComponent(new Date(now + 1).toISOString())}&limit=${limit}`;
      const t0 = performance.now();
      const res = await fetch(`${sandbox.http}/v1/events:udmSearch?${qs}`, {
        headers: { authorization: 'Bearer bench' },
      });
      const body = (await res.json()) as { events?: unknown[] };
      if (!res.ok) throw new Error(`udmSearch: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - t0, count: body.events?.length ?? 0 };
    };
    // The first search settles the store (sorting the ingested batches); time the steady state.
    const warm = await search('principal.hostname = "needle-host"');
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    console.log(`sandbox 1M events heap MB: ${((heapAfter - heapBefore) / 1048576).toFixed(0)}`);
    const times: number[] = [];
    for (let i = 0; i < QUERIES; i++) times.push((await search('principal.hostname = "needle-host"')).ms);
    console.log(`sandbox udmSearch 1M events ms: ${median(times).toFixed(0)}`);
    console.log(`sandbox udmSearch 1M events matches: ${warm.count}`);
    const compound: number[] = [];
    for (let i = 0; i < 3; i++)
      compound.push(
        (
          await search(
            'metadata.event_type = "NETWORK_HTTP" and target.port = 443 and security_result.action = "BLOCK" and principal.hostname = /^host-1[0-9]$/',
          )
        ).ms,
      );
    console.log(`sandbox udmSearch 1M events compound ms: ${median(compound).toFixed(0)}`);
  } finally {
    await sandbox.close();
  }
}

/** Times to the first and the last byte of one udmSearch answer, read as it arrives. */
async function timedSearch(base: string, query: string, startMs: number, endMs: number) {
  const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const qs = `query=${encodeURIComponent(query)}&time_range.start_time=${iso(startMs)}&time_range.end_time=${iso(endMs)}&limit=10000`;
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/events:udmSearch?${qs}`, { headers: { authorization: 'Bearer bench' } });
  if (!res.ok || !res.body) throw new Error(`udmSearch: ${res.status} ${await res.text()}`);
  let firstByte = NaN;
  let bytes = 0;
  for await (const chunk of res.body) {
    if (bytes === 0) firstByte = performance.now() - t0;
    bytes += (chunk as Uint8Array).byteLength;
  }
  return { firstByte, lastByte: performance.now() - t0, bytes };
}

async function realisticAnswer(): Promise<void> {
  const sandbox = await startSandbox({ seed: 'realistic' });
  try {
    await post(sandbox.http, 'ratelimits', JSON.stringify({ enabled: false }));
    const now = Date.parse(((await (await fetch(`${sandbox.http}/sandbox/v1/state`)).json()) as { now: string }).now);
    const run = () => timedSearch(sandbox.http, 'principal.hostname = /.*/', now - 30 * DAY, now);
    // The first search generates the corpus; time the steady state.
    await run();
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await run());
    const mb = median(runs.map((r) => r.bytes)) / 1048576;
    const last = median(runs.map((r) => r.lastByte));
    console.log(`sandbox udmSearch 10k realistic events MB: ${mb.toFixed(1)}`);
    console.log(
      `sandbox udmSearch 10k realistic events first byte ms: ${median(runs.map((r) => r.firstByte)).toFixed(0)}`,
    );
    console.log(`sandbox udmSearch 10k realistic events last byte ms: ${last.toFixed(0)}`);
    console.log(`sandbox udmSearch 10k realistic events MB/s: ${((mb * 1000) / last).toFixed(0)}`);
  } finally {
    await sandbox.close();
  }
}

main()
  .then(realisticAnswer)
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
