import assert from 'node:assert/strict';
import {
  SecOpsParamError,
  exactlyOne,
  formatTime,
  checkPageSize,
  checkHash,
  checkIp,
  checkMac,
} from '../../../src/core/secops/params';
import { SECOPS_REGIONS, resolveSecOpsBaseUrl, SecOpsConfigError } from '../../../src/core/secops/regions';
import { decodeLogBytes, withPreciseRetryDelay } from '../../../src/core/secops/client';
import { GoogleApiError } from '../../../src/core/google/errors';
import type * as SecopsHistoryModule from '../../../src/core/secops/history';

describe('SecOps parameters', () => {
  it('formats times as RFC 3339 UTC and converts offsets', () => {
    assert.equal(formatTime(new Date('2024-05-01T12:00:00Z'), 't'), '2024-05-01T12:00:00Z');
    assert.equal(formatTime(Date.UTC(2024, 4, 1, 12, 0, 0, 250), 't'), '2024-05-01T12:00:00.250Z');
    assert.equal(formatTime('2024-05-01T14:00:00+02:00', 't'), '2024-05-01T12:00:00Z');
    assert.equal(formatTime('2024-05-01t12:00:00.5z', 't'), '2024-05-01T12:00:00.500Z');
  });

  it('refuses times that are not RFC 3339, naming the parameter', () => {
    for (const bad of [
      '2024-05-01',
      '2024-05-01 12:00:00Z',
      'yesterday',
      '2024-13-01T00:00:00Z',
      '2024-05-01T25:00:00Z',
      '1714564800',
    ]) {
      assert.throws(
        () => formatTime(bad, 'start_time'),
        (err: unknown) => err instanceof SecOpsParamError && err.parameter === 'start_time',
        bad,
      );
    }
    assert.throws(() => formatTime(Number.NaN, 'end_time'), /end_time/);
  });

  it('requires exactly one indicator', () => {
    const fields = { hostname: 'asset.hostname', mac: 'asset.mac' };
    assert.deepEqual(exactlyOne({ hostname: 'host-1' }, fields, 'asset indicator'), {
      key: 'hostname',
      parameter: 'asset.hostname',
      value: 'host-1',
    });
    assert.throws(
      () => exactlyOne({}, fields, 'asset indicator'),
      /exactly one asset indicator: one of asset.hostname, asset.mac/,
    );
    assert.throws(() => exactlyOne({ hostname: ' ' }, fields, 'asset indicator'), /exactly one/);
    assert.throws(
      () => exactlyOne({ hostname: 'a', mac: '00:11:22:33:44:55' }, fields, 'asset indicator'),
      /not asset.hostname and asset.mac/,
    );
  });

  it('checks page-size ranges', () => {
    assert.equal(checkPageSize(undefined, 1, 100, 'page_size'), undefined);
    assert.equal(checkPageSize(100, 1, 100, 'page_size'), 100);
    assert.throws(() => checkPageSize(101, 1, 100, 'page_size'), /from 1 to 100, got 101/);
    assert.throws(() => checkPageSize(0, 1, 100, 'page_size'), /page_size/);
    assert.throws(() => checkPageSize(1.5, 1, 100, 'page_size'), /integer/);
  });

  it('checks hashes, IPs and MACs', () => {
    checkHash('md5', 'd41d8cd98f00b204e9800998ecf8427e', 'h');
    assert.throws(() => checkHash('sha1', 'd41d8cd98f00b204e9800998ecf8427e', 'artifact.hash_sha1'), /40 hexadecimal/);
    checkIp('10.0.0.1', 'ip');
    checkIp('2001:db8::1', 'ip');
    assert.throws(() => checkIp('10.0.0.300', 'ip'), /IPv4 or IPv6/);
    checkMac('00:1a:2b:3c:4d:5e', 'mac');
    assert.throws(() => checkMac('001a2b3c4d5e', 'asset.mac'), /MAC address/);
  });
});

describe('SecOps regions', () => {
  it('has the 19 regions with their hosts', () => {
    assert.equal(SECOPS_REGIONS.length, 19);
    assert.equal(resolveSecOpsBaseUrl({ region: 'us' }), 'https://backstory.googleapis.com');
    assert.equal(resolveSecOpsBaseUrl({ region: 'europe' }), 'https://europe-backstory.googleapis.com');
    assert.equal(resolveSecOpsBaseUrl({ region: 'europe-west2' }), 'https://europe-west2-backstory.googleapis.com');
    assert.equal(resolveSecOpsBaseUrl({}), 'https://backstory.googleapis.com');
    assert.equal(new Set(SECOPS_REGIONS.map((r) => r.baseUrl)).size, 19);
  });

  it('matches the region enum of the manifest', () => {
    const pkg = require('../../../package.json') as {
      contributes: { configuration: { properties: Record<string, { enum?: string[] }> } };
    };
    assert.deepEqual(
      pkg.contributes.configuration.properties['cloudbench.secops.region'].enum,
      SECOPS_REGIONS.map((r) => r.id),
    );
  });

  it('lets an endpoint override win and refuses bad values, naming the setting', () => {
    assert.equal(
      resolveSecOpsBaseUrl({ region: 'europe', endpointOverride: 'http://127.0.0.1:9000/' }),
      'http://127.0.0.1:9000',
    );
    assert.throws(
      () => resolveSecOpsBaseUrl({ endpointOverride: 'not a url' }),
      (e: unknown) => e instanceof SecOpsConfigError && e.setting === 'cloudbench.endpoints.secops',
    );
    assert.throws(() => resolveSecOpsBaseUrl({ endpointOverride: 'ftp://x' }), /http or https/);
    assert.throws(
      () => resolveSecOpsBaseUrl({ region: 'mars-1' }),
      (e: unknown) => e instanceof SecOpsConfigError && e.setting === 'cloudbench.secops.region',
    );
  });
});

describe('SecOps helpers', () => {
  it('decodes raw log bytes from base64 (standard and URL-safe)', () => {
    const text = 'GET /a?b=c+d HTTP/1.1 — ünïcode';
    assert.equal(decodeLogBytes(Buffer.from(text).toString('base64')), text);
    assert.equal(decodeLogBytes(Buffer.from(text).toString('base64url')), text);
    assert.equal(decodeLogBytes(undefined), '');
  });

  it('prefers the precise RetryInfo delay over the whole-second Retry-After', () => {
    const err = new GoogleApiError('RESOURCE_EXHAUSTED', 'slow down', {
      retryAfterMs: 1000,
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.012s' }],
    });
    assert.equal((withPreciseRetryDelay(err) as GoogleApiError).retryAfterMs, 12);
    const other = new GoogleApiError('INTERNAL', 'x');
    assert.equal(withPreciseRetryDelay(other), other);
  });
});

describe('query history and saved queries', () => {
  const h = require('../../../src/core/secops/history') as typeof SecopsHistoryModule;
  const entry = (query: string, i = 0) => ({
    query,
    ranAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
    timeRange: 'Last hour',
  });

  it('keeps the newest first, once per query (whitespace aside), capped at 100', () => {
    let list = h.addToHistory([], entry('a = 1'));
    list = h.addToHistory(list, entry('b = 2'));
    list = h.addToHistory(list, entry('a  =   1', 5));
    assert.deepEqual(
      list.map((e) => e.query),
      ['a  =   1', 'b = 2'],
    );
    for (let i = 0; i < 150; i++) list = h.addToHistory(list, entry(`q = ${i}`));
    assert.equal(list.length, h.HISTORY_LIMIT);
    assert.equal(list[0].query, 'q = 149');
    assert.deepEqual(h.addToHistory(list, entry('   ')), list);
  });

  it('keeps queries that hold a key string or token out of history and saved queries', () => {
    const secret = `principal.hostname = "AIza${'B'.repeat(35)}"`;
    assert.deepEqual(
      h.addToHistory([entry('a = 1')], entry(secret)).map((e) => e.query),
      ['a = 1'],
    );
    assert.throws(() => h.saveQuery([], 'leaky', secret, new Date()), /looks like a key string or token/);
  });

  it('saves under a unique name (case-insensitive), sorted, and removes', () => {
    const now = new Date(Date.UTC(2024, 0, 1));
    let saved = h.saveQuery([], 'Logins', 'metadata.event_type = "USER_LOGIN"', now);
    saved = h.saveQuery(saved, 'DNS', 'metadata.event_type = "NETWORK_DNS"', now);
    saved = h.saveQuery(saved, 'logins', 'metadata.event_type = "USER_LOGOUT"', now);
    assert.deepEqual(
      saved.map((s) => s.name),
      ['DNS', 'logins'],
    );
    assert.throws(() => h.saveQuery(saved, ' ', 'x', now), /needs a name/);
    assert.throws(() => h.saveQuery(saved, 'n', '  ', now), /no query/);
    assert.deepEqual(
      h.removeSaved(saved, 'DNS').map((s) => s.name),
      ['logins'],
    );
  });

  it('reads stored state defensively', () => {
    assert.deepEqual(h.readHistory('nope'), []);
    assert.deepEqual(
      h.readHistory([entry('a'), { query: 1 }, null]).map((e) => e.query),
      ['a'],
    );
    assert.deepEqual(h.readSaved([{ name: 'n', query: 'q', savedAt: 't', extra: '<script>' }]), [
      { name: 'n', query: 'q', savedAt: 't' },
    ]);
  });
});
