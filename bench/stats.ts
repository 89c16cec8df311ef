// Statistical search computed in the editor: 200,000 fetched events grouped by host and hour
// (about 10,000 groups) with five aggregates. Prints the median wall and CPU time of five runs.
// Then the table after the last of 10,000 events that arrive in five batches 60 ms apart (as a
// streamed answer does): counted in the worker as each batch comes, against all sent and counted
// after the last one.
import { cpus, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { generateDemo } from '../src/emulator/events-data/demo';
import { compileStatistics } from '../src/udm/stats';
import { StatsWorkerFeed, computeInWorker } from '../src/features/statistics/compute';
import { statsWorkerPath } from '../test/reliability/stats-worker-host';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const QUERY = `metadata.event_type != ""
match:
  principal.hostname by 1h
outcome:
  $event_count = count(metadata.id)
  $users = count_distinct(principal.user.userid)
  $bytes = sum(network.sent_bytes)
  $largest = max(network.sent_bytes)
  $first = earliest(metadata.event_timestamp)
order:
  $event_count desc`;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const events = generateDemo(Date.UTC(2026, 10, 1), 200_000).events.map((e) => e.udm);
const compiled = compileStatistics(QUERY);
if (!compiled || compiled.hasErrors) throw new Error('the bench query does not compile');

const wall: number[] = [];
const cpu: number[] = [];
let groups = 0;
for (let run = 0; run < 6; run++) {
  collectGarbage();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = compiled.engine.run(events, { timeZone: 'Europe/Berlin' });
  const t1 = performance.now();
  const c1 = process.cpuUsage(c0);
  groups = result.rows.length;
  if (run === 0) continue; // warm-up
  wall.push(t1 - t0);
  cpu.push((c1.user + c1.system) / 1000);
}
console.log(
  `stats 200k events ms: ${median(cpu).toFixed(0)} ms  (CPU, median of ${cpu.length}; wall ${median(wall).toFixed(0)} ms; ${events.length.toLocaleString('en-US')} events into ${groups.toLocaleString('en-US')} groups; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; goal ≤ 1000 ms)`,
);

async function afterTheLastEvent(): Promise<void> {
  const workerFile = statsWorkerPath();
  const arriving = events.slice(0, 10_000);
  const request = { query: QUERY, referenceLists: {}, timeZone: 'Europe/Berlin' };
  const gap = (): Promise<void> => new Promise((r) => setTimeout(r, 60));
  const fed: number[] = [];
  const atEnd: number[] = [];
  let rows = 0;
  for (let run = 0; run < 6; run++) {
    const feed = new StatsWorkerFeed(workerFile, request);
    for (let i = 0; i < arriving.length; i += 2000) {
      feed.add(arriving.slice(i, i + 2000));
      await gap();
    }
    let t = performance.now();
    const counted = await feed.compute();
    const a = performance.now() - t;
    t = performance.now();
    const whole = await computeInWorker(request, arriving, { workerFile });
    const b = performance.now() - t;
    if (JSON.stringify(counted.rows) !== JSON.stringify(whole.rows)) throw new Error('the two tables differ');
    rows = whole.rows.length;
    if (run === 0) continue; // warm-up
    fed.push(a);
    atEnd.push(b);
  }
  console.log(
    `stats 10k arriving events, table after the last, counted as they came ms: ${median(fed).toFixed(0)} ms  (median of ${fed.length}; ${rows} groups)`,
  );
  console.log(
    `stats 10k arriving events, table after the last, all counted at the end ms: ${median(atEnd).toFixed(0)} ms  (a fresh worker sent every event after the last one)`,
  );
}

void afterTheLastEvent().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
