#!/usr/bin/env node
// Fuzzes the UDM language library: `node scripts/fuzz-udm.mjs [--count 1000000] [--seed 1]`.
// Inputs are mutations of the documented query corpus, random token soup, random characters and
// hostile documents (the ReDoS corpus, floods of quotes, nested calls, parentheses and arithmetic,
// test/reliability/hostile-inputs.ts). Every input must compile without throwing, evaluate against
// sample events (some with 40-character ReDoS attack values), keep every diagnostic inside the
// document and at most 1,001 of them, answer completion/hover/formatting at a random position, and
// finish within the per-input CPU budget. Failures are printed with their seed index so they replay.
import { join } from 'node:path';
import { fuzzOptions, loadBundled, mulberry32, root } from './fuzz-lib.mjs';

const { count: COUNT, seed: SEED, budgetMs: BUDGET_MS } = fuzzOptions();
const udm = loadBundled(undefined, {
  source: `export { compileQuery, analyze } from ${JSON.stringify(join(root, 'src/udm/index.ts'))};
export { complete, hover, format, semanticTokens, signatureHelp, foldingRanges } from ${JSON.stringify(join(root, 'src/udm/service.ts'))};
export { VALID_QUERIES, BROKEN_QUERIES } from ${JSON.stringify(join(root, 'test/unit/udm/corpus.ts'))};
export { REDOS_CORPUS, FLOODS } from ${JSON.stringify(join(root, 'test/reliability/hostile-inputs.ts'))};
export { UDM_FRAGMENTS } from ${JSON.stringify(join(root, 'test/reliability/fuzz-fragments.ts'))};
`,
});

const FRAGMENTS = udm.UDM_FRAGMENTS;
const EVENTS = [
  {},
  {
    metadata: { eventType: 'USER_LOGIN', eventTimestamp: '2024-01-01T00:00:00Z', id: 'x' },
    principal: { hostname: 'h', ip: ['10.0.0.1', 'fe80::1'] },
  },
  { principal: { ip: [null, 5, {}] }, securityResult: 'oops', network: { sentBytes: 'NaN' } },
  ...udm.REDOS_CORPUS.slice(0, 4).map((c) => ({
    metadata: { eventType: 'USER_LOGIN', eventTimestamp: '2024-01-01T00:00:00Z', id: c.attack },
    principal: { hostname: c.attack, user: { userid: c.attack } },
    target: { hostname: c.attack, url: c.attack },
  })),
];
const LISTS = { list: ['a', '10.0.0.0/8'], redos: udm.REDOS_CORPUS.map((c) => c.pattern) };
const FLOOD_NAMES = Object.keys(udm.FLOODS);

/** A flood of up to ~60,000 characters, sometimes with a ReDoS pattern in it. */
function flood(rand, pick) {
  const kind = pick(FLOOD_NAMES);
  const size = 1 + Math.floor(rand() * (kind === 'quotes' ? 60_000 : 5_000));
  const text = udm.FLOODS[kind](size);
  if (rand() < 0.5) return text;
  const at = Math.floor(rand() * text.length);
  return text.slice(0, at) + pick(FRAGMENTS) + text.slice(at);
}

function generate(rand) {
  const pick = (arr) => arr[Math.floor(rand() * arr.length)];
  const mode = rand();
  if (mode < 0.002) return flood(rand, pick);
  if (mode < 0.4) {
    // mutate a documented query: delete, duplicate, insert or swap a slice
    let s = pick(rand() < 0.8 ? udm.VALID_QUERIES : udm.BROKEN_QUERIES.map((b) => b.query));
    const edits = 1 + Math.floor(rand() * 4);
    for (let e = 0; e < edits; e++) {
      const i = Math.floor(rand() * (s.length + 1));
      const j = Math.min(s.length, i + Math.floor(rand() * 8));
      const op = rand();
      if (op < 0.3) s = s.slice(0, i) + s.slice(j);
      else if (op < 0.6) s = s.slice(0, i) + pick(FRAGMENTS) + s.slice(i);
      else if (op < 0.8) s = s.slice(0, i) + s.slice(i, j) + s.slice(i);
      else s = s.slice(0, i) + String.fromCharCode(Math.floor(rand() * 0x300)) + s.slice(j);
    }
    return s;
  }
  if (mode < 0.85) {
    const n = Math.floor(rand() * 40);
    let s = '';
    for (let k = 0; k < n; k++) s += pick(FRAGMENTS);
    return s;
  }
  const n = Math.floor(rand() * 80);
  let s = '';
  for (let k = 0; k < n; k++)
    s += String.fromCharCode(rand() < 0.9 ? 32 + Math.floor(rand() * 95) : Math.floor(rand() * 0xffff));
  return s;
}

function checkOne(text, rand) {
  const c = udm.compileQuery(text, { referenceLists: LISTS });
  if (c.diagnostics.length > 1001)
    throw new Error(`${c.diagnostics.length} diagnostics: more than 1,000 and a summary`);
  for (const ev of EVENTS)
    if (typeof c.matches(ev) !== 'boolean') throw new Error('matches() did not return a boolean');
  if (c.aggregate && !Array.isArray(c.aggregate(EVENTS))) throw new Error('aggregate() did not return rows');
  const lines = text.split('\n');
  for (const d of c.diagnostics) {
    if (d.offset < 0 || d.length < 0 || d.offset + d.length > text.length)
      throw new Error(`diagnostic offset outside: ${JSON.stringify(d)}`);
    for (const p of [d.range.start, d.range.end]) {
      if (p.line < 0 || p.line >= lines.length || p.character < 0 || p.character > lines[p.line].length)
        throw new Error(`diagnostic range outside: ${JSON.stringify(d)}`);
    }
  }
  const a = udm.analyze(text);
  const pos = a.lines.position(Math.floor(rand() * (text.length + 1)));
  udm.complete(a, pos, ['list']);
  udm.hover(a, pos, {});
  udm.signatureHelp(a, pos);
  udm.foldingRanges(a);
  const tokens = udm.semanticTokens(a);
  if (tokens.length % 5 !== 0) throw new Error('semantic tokens not in groups of five');
  if (tokens.length > 250_000) throw new Error(`${tokens.length / 5} semantic tokens: more than the bound`);
  udm.format(a, { tabSize: 2, insertSpaces: true });
}

const started = Date.now();
let failures = 0;
let slowest = 0;
for (let i = 0; i < COUNT; i++) {
  const rand = mulberry32(SEED * 1_000_003 + i);
  const text = generate(rand);
  // CPU time, not wall time: on a busy machine a process can wait a long time for a core.
  const c0 = process.cpuUsage();
  try {
    checkOne(text, rand);
  } catch (err) {
    failures++;
    console.error(
      `FAIL input #${i} (seed ${SEED}): ${JSON.stringify(text)}\n  ${err && err.stack ? err.stack.split('\n').slice(0, 3).join('\n  ') : err}`,
    );
    if (failures >= 20) break;
  }
  const used = process.cpuUsage(c0);
  const dt = (used.user + used.system) / 1000;
  if (dt > slowest) slowest = dt;
  if (dt > BUDGET_MS) {
    failures++;
    console.error(`SLOW input #${i} (seed ${SEED}): ${dt.toFixed(0)} ms: ${JSON.stringify(text).slice(0, 200)}`);
  }
  if ((i + 1) % 100_000 === 0)
    console.log(
      `${i + 1} inputs, ${failures} failures, slowest ${slowest.toFixed(1)} ms, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
}
console.log(
  `fuzz-udm: ${COUNT} inputs, ${failures} failures, slowest ${slowest.toFixed(1)} ms, ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(failures ? 1 : 0);
