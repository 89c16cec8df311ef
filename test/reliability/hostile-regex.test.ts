// Attacks on the UDM regular-expression engine: the ReDoS corpus on 40-character inputs through
// the RE2 engine, the evaluator, the sandbox's udmSearch (over the real client), the statistics
// engine and a notebook cell's computation in its worker; patterns only JavaScript accepts become
// diagnostics that point inside the pattern and INVALID_ARGUMENT from udmSearch. Results are
// asserted here; how long they take is bench/hostile.ts's business.
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/emulator/sandbox';
import { SecOpsClient } from '../../src/core/secops/client';
import { GoogleApiError } from '../../src/core/google/errors';
import { sandboxTokenSource } from '../../src/core/google/credentials';
import { compileQuery } from '../../src/udm';
import { compileRegex } from '../../src/udm/regex';
import { compileStatistics } from '../../src/udm/stats';
import { FLOODS, NOT_RE2, REDOS_CORPUS } from './hostile-inputs';
import { computeTableOffThread, statsWorkerPath } from './stats-worker-host';

const HOUR = 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Every attack and matching input of the corpus once, as event hostnames. */
const HOSTNAMES = [...new Set(REDOS_CORPUS.flatMap((c) => [c.attack, c.match]))];
const expectedHosts = (c: (typeof REDOS_CORPUS)[number]): string[] =>
  HOSTNAMES.filter((h) => compileRegex(c.pattern).regex!.test(h)).sort();

/** A `/…/` literal of a pattern (a `/` inside is escaped). */
const literal = (pattern: string): string => `/${pattern.replace(/\//g, '\\/')}/`;
/** A double-quoted string holding `pattern` exactly. */
const quoted = (pattern: string): string => JSON.stringify(pattern);

const statsQuery = (pattern: string): string =>
  `metadata.event_type = "USER_LOGIN"\n$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $n = count(metadata.id)\ncondition:\n  $h = ${literal(pattern)}`;

const hostEvents = (now: number): Array<{ metadata: Record<string, string>; principal: { hostname: string } }> =>
  HOSTNAMES.map((hostname, i) => ({
    metadata: {
      id: Buffer.from(`redos-${i}`).toString('base64'),
      eventTimestamp: iso(now - (i + 1) * 60_000),
      eventType: 'USER_LOGIN',
    },
    principal: { hostname },
  }));

describe('hostile: regular expressions run with RE2 semantics', function () {
  this.timeout(60_000);

  describe('the ReDoS corpus on 40-character inputs', () => {
    for (const c of REDOS_CORPUS) {
      it(`${c.pattern}: the attack does not match, the matching input does`, () => {
        const { regex, problem } = compileRegex(c.pattern);
        assert.equal(problem, undefined);
        assert.equal(regex!.test(c.attack), false);
        assert.equal(regex!.test(c.match), true);
        for (const q of [
          `principal.hostname = ${literal(c.pattern)}`,
          `re.regex(principal.hostname, ${quoted(c.pattern)})`,
        ]) {
          const compiled = compileQuery(q);
          assert.equal(compiled.hasErrors, false, JSON.stringify(compiled.diagnostics));
          assert.equal(compiled.matches({ principal: { hostname: c.attack } }), false, q);
          assert.equal(compiled.matches({ principal: { hostname: c.match } }), true, q);
        }
        // nocase and a reference list of regex type go through the same engine
        const upper = compileQuery(`principal.hostname = ${literal(c.pattern)} nocase`);
        assert.equal(upper.matches({ principal: { hostname: c.attack.toUpperCase() } }), false);
        const listed = compileQuery('principal.hostname in regex %bad', { referenceLists: { bad: [c.pattern] } });
        assert.equal(listed.matches({ principal: { hostname: c.attack } }), false);
        assert.equal(listed.matches({ principal: { hostname: c.match } }), true);
      });
    }

    it('re.capture, re.capture_all and re.replace answer on the attacks', () => {
      const attack = `${'a'.repeat(39)}!`;
      const ev = { principal: { hostname: attack } };
      assert.equal(compileQuery(`re.capture(principal.hostname, "(a+)+!") = "${'a'.repeat(39)}"`).matches(ev), true);
      assert.equal(compileQuery('re.capture(principal.hostname, "(a|aa)+$") = ""').matches(ev), true);
      assert.equal(compileQuery(`re.replace(principal.hostname, "(a+)+$", "x") = "${attack}"`).matches(ev), true);
      assert.equal(compileQuery('re.replace(principal.hostname, "(a+)+(!)", "\\\\2\\\\1") = "!" ').hasErrors, false);
      assert.equal(
        compileQuery(`re.replace(principal.hostname, "(a+)+(!)", "\\\\2-\\\\1") = "!-${'a'.repeat(39)}"`).matches(ev),
        true,
      );
    });
  });

  describe('patterns RE2 refuses are errors that point inside the pattern', () => {
    for (const bad of NOT_RE2) {
      it(`${bad.pattern}: ${bad.says}`, () => {
        // An unclosed `[` keeps a `/…/` literal open (a class may hold `/`): that one is unterminated.
        const literalForms = bad.pattern.includes('[')
          ? []
          : [
              { q: `principal.hostname = ${literal(bad.pattern)}`, lit: literal(bad.pattern) },
              { q: statsQuery(bad.pattern), lit: literal(bad.pattern) },
            ];
        const queries = [
          ...literalForms,
          { q: `re.regex(principal.hostname, \`${bad.pattern}\`)`, lit: `\`${bad.pattern}\`` },
          { q: `re.regex(principal.hostname, ${quoted(bad.pattern)})`, lit: quoted(bad.pattern) },
          { q: `re.capture(principal.hostname, ${quoted(bad.pattern)}) = "x"`, lit: quoted(bad.pattern) },
          { q: `re.replace(principal.hostname, ${quoted(bad.pattern)}, "y") = "x"`, lit: quoted(bad.pattern) },
          {
            q: statsQuery(bad.pattern).replace(/\$h = \/.*$/, `re.regex($h, ${quoted(bad.pattern)})`),
            lit: quoted(bad.pattern),
          },
        ];
        for (const { q, lit } of queries) {
          const d = compileQuery(q).diagnostics.filter((x) => x.code === 're2');
          assert.equal(d.length, 1, `${q}: ${JSON.stringify(d)}`);
          assert.equal(d[0].severity, 'error');
          assert.match(d[0].message, /^Not a valid RE2 regular expression/);
          assert.match(d[0].message, bad.says, q);
          // the span is the offending part, as written in the document (escapes included)
          const at = q.indexOf(lit);
          const writtenAt = lit.startsWith('"') ? JSON.stringify(bad.at).slice(1, -1) : bad.at;
          assert.equal(q.slice(d[0].offset, d[0].offset + d[0].length), writtenAt, q);
          assert.ok(d[0].offset > at && d[0].offset < at + lit.length, q);
        }
      });
    }

    it('a reference list of regex type with an entry RE2 refuses is flagged on the list name', () => {
      const c = compileQuery('principal.hostname in regex %bad', { referenceLists: { bad: ['ok', 'x(?=y)'] } });
      assert.ok(c.diagnostics.some((d) => d.code === 'bad-list-entry' && /RE2/.test(d.message)));
      assert.equal(c.matches({ principal: { hostname: 'ok' } }), true);
    });
  });

  describe('through the sandbox udmSearch, the statistics engine and a notebook cell', () => {
    let sb: Sandbox;
    let client: SecOpsClient;
    let now: number;
    const events = (): ReturnType<typeof hostEvents> => hostEvents(now);

    before(async () => {
      sb = await startSandbox({ seed: 'empty' });
      now = Math.floor(sb.clock.now() / 1000) * 1000;
      const res = await fetch(`${sb.http}/sandbox/v1/events:ingest`, {
        method: 'POST',
        body: JSON.stringify({ events: events().map((udm) => ({ udm })) }),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 200, await res.text());
      client = new SecOpsClient({ baseUrl: sb.http, tokens: sandboxTokenSource() });
    });
    after(async () => {
      await sb?.close();
    });

    for (const c of REDOS_CORPUS) {
      it(`udmSearch answers ${c.pattern} with exactly the matching events`, async () => {
        for (const query of [
          `principal.hostname = ${literal(c.pattern)}`,
          `re.regex(principal.hostname, ${quoted(c.pattern)})`,
        ]) {
          const res = await client.udmSearch({ query, startTime: now - 2 * HOUR, endTime: now, limit: 1000 });
          const got = res.events.map((e) => e.udm.principal?.hostname ?? '').sort();
          assert.deepEqual(got, expectedHosts(c), query);
          assert.ok(got.includes(c.match) && !got.includes(c.attack));
        }
      });
    }

    it('udmSearch refuses a pattern RE2 refuses with 400 INVALID_ARGUMENT naming line and column', async () => {
      for (const bad of NOT_RE2) {
        const query = `metadata.event_type = "USER_LOGIN"\nre.regex(principal.hostname, \`${bad.pattern}\`)`;
        const column = query.split('\n')[1].indexOf(bad.at, 're.regex(principal.hostname, `'.length) + 1;
        await assert.rejects(
          client.udmSearch({ query, startTime: now - HOUR, endTime: now }),
          (err: unknown) =>
            err instanceof GoogleApiError &&
            err.status === 'INVALID_ARGUMENT' &&
            err.httpStatus === 400 &&
            err.message.includes(`line 2, column ${column}`) &&
            bad.says.test(err.message),
        );
      }
    });

    it('udmSearch refuses a flood of problems with the first one and no count beyond the listed', async () => {
      const query = FLOODS.quotes(4000);
      await assert.rejects(
        client.udmSearch({ query, startTime: now - HOUR, endTime: now }),
        (err: unknown) =>
          err instanceof GoogleApiError &&
          err.status === 'INVALID_ARGUMENT' &&
          /^Invalid UDM query at line 1, column 1: .*\(and more problems\)$/.test(err.message),
      );
    });

    it('the statistics engine keeps exactly the groups condition: matches', () => {
      for (const c of REDOS_CORPUS) {
        const stats = compileStatistics(statsQuery(c.pattern))!;
        assert.equal(stats.hasErrors, false, JSON.stringify(stats.diagnostics));
        const table = stats.engine.run(events(), { timeZone: 'UTC' });
        assert.deepEqual(table.rows.map((r) => r[0]).sort(), expectedHosts(c), c.pattern);
        assert.deepEqual(table.warnings, []);
      }
    });

    it("a notebook cell's table, computed in the statistics worker, is the same", async () => {
      const workerFile = statsWorkerPath();
      for (const c of REDOS_CORPUS) {
        const table = await computeTableOffThread(workerFile, statsQuery(c.pattern), events());
        assert.deepEqual(table.rows.map((r) => r[0]).sort(), expectedHosts(c), c.pattern);
      }
    });
  });
});
