// npm run bench -- stream-parse
// Reading a 10,000-event udmSearch answer (`principal.hostname = /.*/`) from the sandbox, for the demo
// corpus (compact events) and the realistic one (production-shaped, 3-6 KB each):
// 1. Parsing only, over the chunks as they came off the socket (CPU time, no network):
//    JSON.parse of the whole body, the events-array scanner of src/core/secops/udm-stream.ts, and the
//    @streamparser/json streaming parser (paths $.events.* and $.moreDataAvailable). For the two
//    streaming ones: time to the first event and to the last.
// 2. End to end through SecOpsClient: udmSearch (whole body, one JSON.parse) against
//    udmSearchStreaming (batches while the body arrives): first events and all events.
// 3. Keeping the answer for a window reload (the JSON text written to disk): parsing the events held
//    as text and serializing them, against writing each event's text as it came (rowsToKeep).
import { JSONParser } from '@streamparser/json';
import { cpus, loadavg } from 'node:os';
import { request } from 'undici';
import { startSandbox } from '../src/emulator/sandbox';
import type { SeedName } from '../src/emulator/types';
import { SecOpsClient } from '../src/core/secops/client';
import { sandboxTokenSource } from '../src/core/google/credentials';
import { UdmEventsScanner } from '../src/core/secops/udm-stream';
import { StreamedJson, jsonPieces } from '../src/core/json-pieces';
import { HeldRows, rowsToKeep } from '../src/features/search/held-rows';
import type { RunRecord } from '../src/features/search/run-store';

const DAY = 86_400_000;
const RUNS = 5;

function figure(name: string, value: number, unit: string, note = ''): void {
  process.stdout.write(`${name}: ${value.toFixed(1)} ${unit}${note ? `  (${note})` : ''}\n`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

interface Timing {
  first: number;
  all: number;
}

function parseWhole(chunks: Buffer[]): Timing {
  const t = performance.now();
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: unknown[] };
  if (body.events.length !== 10_000) throw new Error(`JSON.parse saw ${body.events.length} events`);
  const ms = performance.now() - t;
  return { first: ms, all: ms };
}

function parseScanner(chunks: Buffer[]): Timing {
  const t = performance.now();
  let first = -1;
  let n = 0;
  const s = new UdmEventsScanner();
  for (const c of chunks) {
    n += s.push(c).length;
    if (first < 0 && n > 0) first = performance.now() - t;
  }
  const fields = s.end();
  if (n !== 10_000 || fields.moreDataAvailable !== true) throw new Error(`scanner saw ${n} events`);
  return { first, all: performance.now() - t };
}

function parseStreamparser(chunks: Buffer[]): Timing {
  const t = performance.now();
  let first = -1;
  let n = 0;
  let more: unknown;
  const p = new JSONParser({ paths: ['$.events.*', '$.moreDataAvailable'], keepStack: false });
  p.onValue = ({ value, key }) => {
    if (key === 'moreDataAvailable') {
      more = value;
      return;
    }
    if (n++ === 0) first = performance.now() - t;
  };
  for (const c of chunks) p.write(c);
  if (!p.isEnded) p.end();
  if (n !== 10_000 || more !== true) throw new Error(`@streamparser/json saw ${n} events`);
  return { first, all: performance.now() - t };
}

async function corpus(seed: SeedName): Promise<void> {
  const sandbox = await startSandbox({ seed });
  try {
    await fetch(`${sandbox.http}/sandbox/v1/ratelimits`, { method: 'POST', body: '{"enabled":false}' });
    const now = sandbox.clock.now();
    const days = seed === 'realistic' ? 30 : 8;
    const req = {
      query: 'principal.hostname = /.*/',
      startTime: new Date(now - days * DAY).toISOString(),
      endTime: new Date(now).toISOString(),
    };
    const url = `${sandbox.http}/v1/events:udmSearch?query=${encodeURIComponent(req.query)}&time_range.start_time=${encodeURIComponent(req.startTime)}&time_range.end_time=${encodeURIComponent(req.endTime)}`;
    const res = await request(url, { headers: { authorization: 'Bearer bench' } });
    const chunks: Buffer[] = [];
    for await (const c of res.body) chunks.push(c as Buffer);
    const bytes = chunks.reduce((a, c) => a + c.length, 0);
    process.stdout.write(
      `# ${seed}: 10,000 events, ${(bytes / 1e6).toFixed(1)} MB in ${chunks.length} chunks (${Math.round(bytes / 10_000)} bytes per event)\n`,
    );

    const runs = { whole: [] as Timing[], scanner: [] as Timing[], streamparser: [] as Timing[] };
    parseWhole(chunks);
    parseScanner(chunks);
    parseStreamparser(chunks);
    for (let i = 0; i < RUNS; i++) {
      runs.whole.push(parseWhole(chunks));
      runs.scanner.push(parseScanner(chunks));
      runs.streamparser.push(parseStreamparser(chunks));
    }
    const m = (xs: Timing[], k: keyof Timing): number => median(xs.map((x) => x[k]));
    figure(
      `stream parse ${seed} JSON.parse whole ms`,
      m(runs.whole, 'all'),
      'ms',
      'first event only after the last byte',
    );
    figure(`stream parse ${seed} scanner first event ms`, m(runs.scanner, 'first'), 'ms');
    figure(`stream parse ${seed} scanner all events ms`, m(runs.scanner, 'all'), 'ms');
    figure(`stream parse ${seed} @streamparser/json first event ms`, m(runs.streamparser, 'first'), 'ms');
    figure(`stream parse ${seed} @streamparser/json all events ms`, m(runs.streamparser, 'all'), 'ms');
    figure(
      `stream parse ${seed} @streamparser/json / scanner x`,
      m(runs.streamparser, 'all') / m(runs.scanner, 'all'),
      'x',
    );

    const client = new SecOpsClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource() });
    const whole: number[] = [];
    const streamedFirst: number[] = [];
    const streamedAll: number[] = [];
    for (let i = 0; i < 3; i++) {
      let t = performance.now();
      const r = await client.udmSearch(req);
      whole.push(performance.now() - t);
      if (r.events.length !== 10_000) throw new Error('udmSearch: wrong count');
      t = performance.now();
      let first = -1;
      const s = await client.udmSearchStreaming(req, () => {
        if (first < 0) first = performance.now() - t;
      });
      streamedAll.push(performance.now() - t);
      streamedFirst.push(first);
      if (s.eventCount !== 10_000) throw new Error('udmSearchStreaming: wrong count');
    }
    figure(`stream parse ${seed} client udmSearch all events ms`, median(whole), 'ms', 'request to parsed answer');
    figure(`stream parse ${seed} client udmSearchStreaming first events ms`, median(streamedFirst), 'ms');
    figure(`stream parse ${seed} client udmSearchStreaming all events ms`, median(streamedAll), 'ms');

    const reparsed: number[] = [];
    const asText: number[] = [];
    for (let i = 0; i < 3; i++) {
      const held = new HeldRows('udm');
      const run = { info: { runId: 'r', kind: 'udm', title: req.query }, rows: [] } as unknown as RunRecord;
      held.attach(run);
      await client.udmSearchStreaming(req, (events, texts) => held.add(events, texts));
      let t = performance.now();
      const written = Array.from(jsonPieces(new StreamedJson({ version: 1, rows: rowsToKeep(run) }, 'rows'))).join('');
      asText.push(performance.now() - t);
      t = performance.now();
      const serialized = JSON.stringify({ version: 1, rows: run.rows });
      reparsed.push(performance.now() - t);
      if (serialized !== written) throw new Error('the texts kept differ from the events serialized');
    }
    figure(
      `stream parse ${seed} keep for reload, parse + stringify ms`,
      median(reparsed),
      'ms',
      'the events parsed again',
    );
    figure(`stream parse ${seed} keep for reload, texts as they came ms`, median(asText), 'ms');
  } finally {
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  const load = loadavg()[0];
  await corpus('demo');
  await corpus('realistic');
  process.stdout.write(
    `# load average ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; parse figures are medians of ${RUNS}, client ones of 3\n`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
