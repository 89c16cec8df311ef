// Reference lists end to end against the in-process sandbox: every call of the /v2/lists API over
// raw HTTP (shapes, paging, errors), then the SecOps client's five calls (validation, retries, the
// rate limiter), and a saved edit changing the next udmSearch that tests `in %list`.
import assert from 'node:assert/strict';
import type { Sandbox } from '../../../src/emulator/sandbox';
import { SecOpsClient } from '../../../src/core/secops/client';
import { SecOpsParamError } from '../../../src/core/secops/params';
import { GoogleApiError } from '../../../src/core/google/errors';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { RateLimiter } from '../../../src/core/ratelimit';
import { admin, call, expectError, freshSandbox, iso, qs } from '../sandbox-http/helpers';

const RETRY = {
  maxRetries: 3,
  initialBackoffMs: 2,
  maxBackoffMs: 10,
  multiplier: 2,
  retryable: ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED'] as const,
};

function client(sb: Sandbox, extra: Partial<ConstructorParameters<typeof SecOpsClient>[0]> = {}): SecOpsClient {
  return new SecOpsClient({
    baseUrl: sb.http,
    tokens: sandboxTokenSource(),
    retry: { ...RETRY, retryable: [...RETRY.retryable] },
    ...extra,
  });
}

describe('reference lists (sandbox /v2/lists and the SecOps client)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await freshSandbox('demo');
  });
  afterEach(async () => {
    await sb.close();
  });

  describe('raw HTTP', () => {
    it('lists in BASIC view by default (no lines) and FULL on request, in name order, of every content type', async () => {
      const basic = await call(sb, 'GET', '/v2/lists');
      assert.equal(basic.status, 200);
      const names = basic.body.lists.map((l: any) => l.name);
      assert.deepEqual(names, [...names].sort());
      assert.ok(
        names.includes('corp_networks') && names.includes('bad_process_paths') && names.includes('admin_users'),
      );
      assert.ok(basic.body.lists.every((l: any) => l.lines === undefined && typeof l.createTime === 'string'));
      const types = new Set(basic.body.lists.map((l: any) => l.contentType));
      assert.deepEqual([...types].sort(), ['CIDR', 'CONTENT_TYPE_DEFAULT_STRING', 'REGEX']);
      const full = await call(sb, 'GET', `/v2/lists${qs({ view: 'FULL' })}`);
      const threat = full.body.lists.find((l: any) => l.name === 'threat_ip_ranges');
      assert.equal(threat.contentType, 'CIDR');
      assert.ok(threat.lines.includes('198.51.100.0/24'));
      assert.ok(threat.lines[0].startsWith('//'), 'comment lines are kept');
    });

    it('pages with page_size and page_token, and refuses a bad token, size or view', async () => {
      const all = (await call(sb, 'GET', '/v2/lists')).body.lists.map((l: any) => l.name);
      const seen: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const r = await call(sb, 'GET', `/v2/lists${qs({ page_size: 3, page_token: token })}`);
        assert.equal(r.status, 200);
        assert.ok(r.body.lists.length <= 3);
        seen.push(...r.body.lists.map((l: any) => l.name));
        token = r.body.nextPageToken;
        pages++;
      } while (token);
      assert.deepEqual(seen, all);
      assert.equal(pages, Math.ceil(all.length / 3));
      expectError(
        await call(sb, 'GET', `/v2/lists${qs({ page_token: 'garbage' })}`),
        400,
        'INVALID_ARGUMENT',
        /page_token/,
      );
      expectError(await call(sb, 'GET', `/v2/lists${qs({ page_size: -1 })}`), 400, 'INVALID_ARGUMENT', /page_size/);
      expectError(await call(sb, 'GET', `/v2/lists${qs({ view: 'ALL' })}`), 400, 'INVALID_ARGUMENT', /BASIC or FULL/);
      expectError(await call(sb, 'GET', `/v2/lists${qs({ filter: 'x' })}`), 400, 'INVALID_ARGUMENT', /filter/);
    });

    it('gets one list (FULL by default, BASIC without lines); an unknown list is 404', async () => {
      const r = await call(sb, 'GET', '/v2/lists/phishing_domain_patterns');
      assert.equal(r.status, 200);
      assert.equal(r.body.contentType, 'REGEX');
      assert.ok(r.body.lines.includes('.*-login\\.test$'));
      const b = await call(sb, 'GET', `/v2/lists/phishing_domain_patterns${qs({ view: 'BASIC' })}`);
      assert.equal(b.body.lines, undefined);
      assert.equal(b.body.description, r.body.description);
      expectError(await call(sb, 'GET', '/v2/lists/no_such_list'), 404, 'NOT_FOUND', /no_such_list/);
    });

    it('creates a list; a second create of the name is 409 ALREADY_EXISTS and leaves the first alone', async () => {
      const body = {
        name: 'vip_users',
        description: 'Executives',
        lines: ['tara.singh'],
        contentType: 'CONTENT_TYPE_DEFAULT_STRING',
      };
      const r = await call(sb, 'POST', '/v2/lists', { body });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.lines, ['tara.singh']);
      assert.match(r.body.createTime, /^\d{4}-\d{2}-\d{2}T/);
      const again = await call(sb, 'POST', '/v2/lists', { body: { ...body, lines: ['other'] } });
      expectError(again, 409, 'ALREADY_EXISTS', /vip_users/);
      assert.deepEqual((await call(sb, 'GET', '/v2/lists/vip_users')).body.lines, ['tara.singh']);
    });

    it('refuses invalid lines with 400 naming the line, by content type', async () => {
      const bad = await call(sb, 'POST', '/v2/lists', {
        body: { name: 'bad_re', description: 'x', contentType: 'REGEX', lines: ['ok.*', '// note', 'a(b'] },
      });
      expectError(bad, 400, 'INVALID_ARGUMENT', /line 3 \("a\(b"\).*missing closing \)/);
      assert.deepEqual(
        bad.body.error.details[0].fieldViolations.map((v: any) => v.field),
        ['lines[2]'],
      );
      expectError(
        await call(sb, 'POST', '/v2/lists', {
          body: {
            name: 'bad_cidr',
            description: 'x',
            contentType: 'CIDR',
            lines: ['10.0.0.0/8', '10.0.0.0/33', 'fe80::/10'],
          },
        }),
        400,
        'INVALID_ARGUMENT',
        /line 2.*prefix length/,
      );
      expectError(
        await call(sb, 'POST', '/v2/lists', {
          body: { name: 'only_comments', description: 'x', lines: ['// nothing'] },
        }),
        400,
        'INVALID_ARGUMENT',
        /no entries/,
      );
      expectError(
        await call(sb, 'POST', '/v2/lists', { body: { name: 'bad-name', description: 'x', lines: ['a'] } }),
        400,
        'INVALID_ARGUMENT',
        /letters, digits and underscores/,
      );
      expectError(
        await call(sb, 'POST', '/v2/lists', { body: { name: 'no_desc', lines: ['a'] } }),
        400,
        'INVALID_ARGUMENT',
        /description/,
      );
      expectError(
        await call(sb, 'POST', '/v2/lists', {
          body: { name: 'x', description: 'x', lines: ['a'], contentType: 'GLOB' },
        }),
        400,
        'INVALID_ARGUMENT',
        /content_type/,
      );
      expectError(
        await call(sb, 'POST', '/v2/lists', { body: { name: 'x', description: 'x', lines: ['a'], colour: 'red' } }),
        400,
        'INVALID_ARGUMENT',
        /Unknown name "colour"/,
      );
      assert.equal((await call(sb, 'GET', '/v2/lists/bad_re')).status, 404, 'nothing of a refused create is stored');
    });

    it('updates the fields named by update_mask; unknown lists are 404 and bad lines 400', async () => {
      const before = (await call(sb, 'GET', '/v2/lists/admin_users')).body;
      const r = await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
        body: { name: 'admin_users', lines: ['hugo.silva'], description: 'ignored: not in the mask' },
      });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.lines, ['hugo.silva']);
      assert.equal(r.body.description, before.description);
      assert.ok(Date.parse(r.body.createTime) > Date.parse(before.createTime), 'the revision time moves');
      const d = await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.description' })}`, {
        body: { name: 'admin_users', description: 'Domain admins' },
      });
      assert.equal(d.body.description, 'Domain admins');
      assert.deepEqual(d.body.lines, ['hugo.silva']);
      expectError(
        await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
          body: { name: 'nope', lines: ['a'] },
        }),
        404,
        'NOT_FOUND',
        /nope/,
      );
      expectError(
        await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
          body: { name: 'corp_networks', lines: ['10.0.0.0/8', 'not-a-range'] },
        }),
        400,
        'INVALID_ARGUMENT',
        /line 2 \("not-a-range"\)/,
      );
      expectError(
        await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.name' })}`, { body: { name: 'corp_networks' } }),
        400,
        'INVALID_ARGUMENT',
        /update_mask/,
      );
      expectError(
        await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, { body: { lines: ['a'] } }),
        400,
        'INVALID_ARGUMENT',
        /name is required/,
      );
      // Changing the content type re-checks the lines under the new type.
      expectError(
        await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.content_type' })}`, {
          body: { name: 'admin_users', contentType: 'CIDR' },
        }),
        400,
        'INVALID_ARGUMENT',
        /CIDR/,
      );
      assert.deepEqual((await call(sb, 'GET', '/v2/lists/corp_networks')).body.lines, ['10.10.0.0/16', '10.20.0.0/16']);
    });

    it('verifies lines by content type with errors by line (-1 for the whole list), storing nothing', async () => {
      const ok = await call(sb, 'POST', '/v2/lists:verifyReferenceList', {
        body: { contentType: 'CIDR', lines: ['// ranges', '10.0.0.0/8', '2001:db8::/32'] },
      });
      assert.deepEqual(ok.body, { success: true });
      const bad = await call(sb, 'POST', '/v2/lists:verifyReferenceList', {
        body: { contentType: 'REGEX', lines: ['fine', '(?=lookahead)', '[unclosed'] },
      });
      assert.equal(bad.status, 200);
      assert.equal(bad.body.success, undefined, 'false is left out, as proto3 JSON does');
      assert.deepEqual(
        bad.body.errors.map((e: any) => e.lineNumber),
        [2, 3],
      );
      assert.match(bad.body.errors[1].errorMessage, /missing closing \]/);
      const empty = await call(sb, 'POST', '/v2/lists:verifyReferenceList', {
        body: { contentType: 'REGEX', lines: [] },
      });
      assert.equal(empty.body.errors[0].lineNumber, -1);
      const strings = await call(sb, 'POST', '/v2/lists:verifyReferenceList', { body: { lines: ['(anything'] } });
      assert.deepEqual(strings.body, { success: true }, 'a string list takes any text');
      expectError(
        await call(sb, 'POST', '/v2/lists:verifyReferenceList', { body: { contentType: 'X', lines: [] } }),
        400,
        'INVALID_ARGUMENT',
        /content_type/,
      );
    });

    it('needs credentials like the Search API', async () => {
      expectError(await call(sb, 'GET', '/v2/lists', { auth: false }), 401, 'UNAUTHENTICATED');
      expectError(
        await call(sb, 'POST', '/v2/lists', { auth: false, body: { name: 'a', description: 'a', lines: ['a'] } }),
        401,
        'UNAUTHENTICATED',
      );
    });

    it('a saved edit changes the next udmSearch that tests the list', async () => {
      const state = await admin(sb, 'state');
      assert.equal(state.status, 200);
      const now = sb.clock.now();
      const search = async (query: string): Promise<number> => {
        const r = await call(
          sb,
          'GET',
          `/v1/events:udmSearch${qs({ query, 'time_range.start_time': iso(now - 7 * 86_400_000), 'time_range.end_time': iso(now + 60_000), limit: 10_000 })}`,
        );
        assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
        return r.body.events?.length ?? 0;
      };
      const query = 'principal.hostname in %critical_servers';
      const before = await search(query);
      assert.ok(before > 0);
      await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
        body: { name: 'critical_servers', lines: ['// nothing watched'].concat(['no-such-host']) },
      });
      assert.equal(await search(query), 0);
      await call(sb, 'PATCH', `/v2/lists${qs({ update_mask: 'list.lines' })}`, {
        body: {
          name: 'critical_servers',
          lines: ['srv-dc-01', 'srv-db-01', 'srv-files-01', 'srv-mail-01', 'srv-web-01'],
        },
      });
      assert.ok((await search(query)) > before);
    });
  });

  describe('SecOps client', () => {
    it('lists (every page), gets, creates, updates and verifies', async () => {
      const c = client(sb);
      const basic = await c.listAllReferenceLists();
      assert.ok(basic.length >= 8);
      assert.ok(basic.every((l) => l.lines.length === 0 && l.description !== ''));
      const page = await c.listReferenceLists({ pageSize: 2, view: 'FULL' });
      assert.equal(page.lists.length, 2);
      assert.ok(page.nextPageToken);
      assert.ok(page.lists.every((l) => l.lines.length > 0));
      const full = await c.listAllReferenceLists('FULL');
      assert.deepEqual(
        full.map((l) => l.name),
        basic.map((l) => l.name),
      );

      const created = await c.createReferenceList({
        name: 'egress_allow',
        description: 'Hosts allowed to reach the internet directly',
        contentType: 'CIDR',
        lines: ['// proxies', '10.10.0.20/32'],
      });
      assert.equal(created.contentType, 'CIDR');
      const got = await c.getReferenceList('egress_allow');
      assert.deepEqual(got.lines, ['// proxies', '10.10.0.20/32']);
      assert.equal((await c.getReferenceList('egress_allow', undefined, { view: 'BASIC' })).lines.length, 0);

      const updated = await c.updateReferenceList({ name: 'egress_allow', lines: ['10.10.0.20/32', '10.10.0.21/32'] });
      assert.deepEqual(updated.lines, ['10.10.0.20/32', '10.10.0.21/32']);
      assert.equal(updated.description, 'Hosts allowed to reach the internet directly');

      const verdict = await c.verifyReferenceList('CIDR', ['10.0.0.0/8', '300.1.1.1/8']);
      assert.equal(verdict.success, false);
      assert.deepEqual(
        verdict.errors.map((e) => e.lineNumber),
        [2],
      );
      assert.deepEqual(await c.verifyReferenceList('REGEX', ['^a.*$']), { success: true, errors: [] });
    });

    it('reports the server errors as Google API errors: 404, ALREADY_EXISTS, bad lines', async () => {
      const c = client(sb);
      await assert.rejects(
        c.getReferenceList('missing_list'),
        (e) => e instanceof GoogleApiError && e.status === 'NOT_FOUND',
      );
      await assert.rejects(
        c.createReferenceList({
          name: 'admin_users',
          description: 'x',
          contentType: 'CONTENT_TYPE_DEFAULT_STRING',
          lines: ['a'],
        }),
        (e) => e instanceof GoogleApiError && e.status === 'ALREADY_EXISTS' && e.httpStatus === 409,
      );
      await assert.rejects(
        c.updateReferenceList({ name: 'bad_process_paths', lines: ['(?<=x)y'] }),
        (e) => e instanceof GoogleApiError && e.status === 'INVALID_ARGUMENT' && /line 1/.test(e.message),
      );
      await assert.rejects(
        c.updateReferenceList({ name: 'ghost', lines: ['a'] }),
        (e) => e instanceof GoogleApiError && e.status === 'NOT_FOUND',
      );
    });

    it('validates before sending anything', async () => {
      const c = client(sb);
      let sent = 0;
      await admin(sb, 'faults', [{ method: 'secops.*', errorRate: 1, codes: [500] }]);
      const rejectsLocally = async (p: Promise<unknown>, parameter: string): Promise<void> => {
        await assert.rejects(p, (e) => {
          if (!(e instanceof SecOpsParamError)) sent++;
          return e instanceof SecOpsParamError && e.parameter === parameter;
        });
      };
      await rejectsLocally(
        c.createReferenceList({ name: 'has space', description: 'd', contentType: 'REGEX', lines: ['a'] }),
        'name',
      );
      await rejectsLocally(
        c.createReferenceList({ name: 'ok', description: ' ', contentType: 'REGEX', lines: ['a'] }),
        'description',
      );
      await rejectsLocally(
        c.createReferenceList({ name: 'ok', description: 'd', contentType: 'GLOB' as never, lines: ['a'] }),
        'content_type',
      );
      await rejectsLocally(c.updateReferenceList({ name: 'ok' }), 'update_mask');
      await rejectsLocally(c.listReferenceLists({ pageSize: 5000 }), 'page_size');
      await rejectsLocally(c.getReferenceList('a/b'), 'name');
      await rejectsLocally(c.verifyReferenceList('CIDR', [1 as never]), 'lines');
      assert.equal(sent, 0);
    });

    it('retries a refused update (503) but never re-sends a create after a lost connection', async () => {
      const retries: string[] = [];
      const c = client(sb, { onRetry: (method) => retries.push(method) });
      await admin(sb, 'faults', [{ method: 'secops.updateReferenceList', errorRate: 1, codes: ['UNAVAILABLE'] }]);
      await assert.rejects(
        c.updateReferenceList({ name: 'admin_users', lines: ['x'] }),
        (e) => e instanceof GoogleApiError && e.status === 'UNAVAILABLE',
      );
      assert.equal(retries.filter((m) => m === 'UpdateReferenceList').length, RETRY.maxRetries);
      await admin(sb, 'faults', [{ method: 'secops.createReferenceList', resetRate: 1 }]);
      retries.length = 0;
      await assert.rejects(
        c.createReferenceList({
          name: 'fresh',
          description: 'd',
          contentType: 'CONTENT_TYPE_DEFAULT_STRING',
          lines: ['a'],
        }),
        (e) => e instanceof GoogleApiError && /may or may not have been applied/.test(e.message),
      );
      assert.deepEqual(retries, []);
      await admin(sb, 'faults', []);
      assert.deepEqual((await c.getReferenceList('admin_users')).lines, ['hugo.silva', 'ana.lima', 'dev.patel']);
    });

    it('passes every call through the shared rate limiter', async () => {
      const limiter = new RateLimiter({
        // Windows shorter than the longest wait a call accepts, so the next call waits instead of refusing.
        ListReferenceLists: { limit: 1, windowMs: 10_000 },
        VerifyReferenceList: { limit: 1, windowMs: 10_000 },
      });
      const c = client(sb, { limiter });
      await c.listReferenceLists();
      await c.verifyReferenceList('REGEX', ['a']);
      assert.equal(limiter.snapshot('ListReferenceLists').remaining, 0);
      assert.equal(limiter.snapshot('VerifyReferenceList').remaining, 0);
      const abort = new AbortController();
      const waiting = c.listReferenceLists({}, abort.signal);
      setTimeout(() => abort.abort(), 20);
      await assert.rejects(waiting, /cancel/i);
    });
  });
});
