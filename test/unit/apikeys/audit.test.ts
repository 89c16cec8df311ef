// The key audit against the CIS Google Cloud Platform Foundation Benchmark's own words (items
// 1.13-1.15, audit procedures "From Console"), each quoted above the cases it decides.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import {
  ALL_CLOUD_APIS_SERVICE,
  auditKey,
  auditKeys,
  isAnyHostIp,
  isWideReferrer,
  parseCreateTime,
  parseMaxAgeDays,
  successorKeyIds,
  updateReport,
  type AuditRule,
} from '../../../src/core/apikeys/audit';
import { formatAuditJson, formatAuditMarkdown } from '../../../src/core/apikeys/audit-report';
import type { ApiKey, Restrictions } from '../../../src/core/apikeys/types';

const NOW = Date.parse('2026-12-07T09:00:00Z');
const DAY = 86_400_000;
const OPTIONS = { now: NOW, maxAgeDays: 90 };
const PROJECT = 'audit-project';

function key(id: string, restrictions?: Restrictions, daysOld = 10, extra: Partial<ApiKey> = {}): ApiKey {
  return {
    name: `projects/${PROJECT}/locations/global/keys/${id}`,
    displayName: id,
    createTime: new Date(NOW - daysOld * DAY).toISOString(),
    ...(restrictions ? { restrictions } : {}),
    ...extra,
  };
}

function rules(k: ApiKey, options = OPTIONS): AuditRule[] {
  return auditKey(k, options).findings.map((f) => f.rule);
}

const API = { apiTargets: [{ service: 'translate.googleapis.com' }] };

describe('key audit: CIS 1.13 application restrictions', () => {
  // "For every API Key, ensure the section Key restrictions parameter Application restrictions is
  // not set to None." Remediation: "set the application restrictions to any of HTTP referrers, IP
  // Adresses, Android Apps, iOs Apps."
  it('finds a key whose application restriction is None, and none for each of the four kinds', () => {
    assert.deepEqual(rules(key('none', API)), ['application-restriction-missing']);
    const kinds: Restrictions[] = [
      { browserKeyRestrictions: { allowedReferrers: ['https://www.example.com/*'] } },
      { serverKeyRestrictions: { allowedIps: ['203.0.113.17'] } },
      {
        androidKeyRestrictions: {
          allowedApplications: [
            { packageName: 'com.example', sha1Fingerprint: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709' },
          ],
        },
      },
      { iosKeyRestrictions: { allowedBundleIds: ['com.example.app'] } },
    ];
    for (const r of kinds) assert.deepEqual(rules(key('k', { ...r, ...API })), [], JSON.stringify(r));
  });

  it('treats a restriction kind that lists nothing as None', () => {
    const r = rules(key('empty', { browserKeyRestrictions: { allowedReferrers: [] }, ...API }));
    assert.deepEqual(r, ['application-restriction-missing']);
    assert.deepEqual(rules(key('empty-ip', { serverKeyRestrictions: {}, ...API })), [
      'application-restriction-missing',
    ]);
  });

  // "Ensure Application restrictions is set to HTTP referrers and the referrer is not set to
  // wild-cards (* or *.[TLD] or *.[TLD]/*) allowing access to any/wide HTTP referrer(s)"
  it('finds the benchmark\'s wild-card referrers "*", "*.[TLD]" and "*.[TLD]/*"', () => {
    for (const wide of ['*', '*.com', '*.com/*', '*.org/*', 'https://*.net/*', '*.io:8443/*']) {
      assert.ok(isWideReferrer(wide), wide);
      const r = rules(
        key('wide', { browserKeyRestrictions: { allowedReferrers: ['https://www.example.com/*', wide] }, ...API }),
      );
      assert.deepEqual(r, ['application-restriction-wide'], wide);
    }
    for (const narrow of ['*.example.com/*', 'www.example.com/*', 'example.com', 'https://*.example.co.uk/*'])
      assert.equal(isWideReferrer(narrow), false, narrow);
  });

  // "Ensure Application restrictions is set to IP addresses and referrer is not set to any host
  // (0.0.0.0 or 0.0.0.0/0 or ::0)"
  it('finds the benchmark\'s any-host addresses "0.0.0.0", "0.0.0.0/0" and "::0" (and their other spellings)', () => {
    for (const any of ['0.0.0.0', '0.0.0.0/0', '::0', '::', '::/0', '0:0:0:0:0:0:0:0', '10.0.0.0/0']) {
      assert.ok(isAnyHostIp(any), any);
      assert.deepEqual(
        rules(key('any', { serverKeyRestrictions: { allowedIps: ['203.0.113.17', any] }, ...API })),
        ['application-restriction-wide'],
        any,
      );
    }
    for (const one of ['203.0.113.17', '198.51.100.0/24', '2001:db8::/32', '::1', '10.0.0.0/8'])
      assert.equal(isAnyHostIp(one), false, one);
  });
});

describe('key audit: CIS 1.14 API restrictions', () => {
  // "For every API Key, ensure the section Key restrictions parameter API restrictions is not set
  // to None."
  it('finds a key without API targets (absent or empty)', () => {
    const app = { serverKeyRestrictions: { allowedIps: ['203.0.113.17'] } };
    assert.deepEqual(rules(key('no-api', app)), ['api-restriction-missing']);
    assert.deepEqual(rules(key('empty-api', { ...app, apiTargets: [] })), ['api-restriction-missing']);
    assert.deepEqual(rules(key('api', { ...app, ...API })), []);
  });

  // "Or, Ensure API restrictions is not set to Google Cloud APIs. Note: Google Cloud APIs represents
  // the API collection of all cloud services/APIs offered by Google cloud."
  it('finds a key whose API targets include Google Cloud APIs (cloudapis.googleapis.com, any case)', () => {
    const app = { iosKeyRestrictions: { allowedBundleIds: ['com.example.app'] } };
    for (const service of [ALL_CLOUD_APIS_SERVICE, 'CloudAPIs.googleapis.com', ` ${ALL_CLOUD_APIS_SERVICE} `]) {
      const k = key('all', { ...app, apiTargets: [{ service: 'translate.googleapis.com' }, { service }] });
      assert.deepEqual(rules(k), ['api-restriction-all'], service);
    }
    // A method-restricted target of one service is a restriction to that service.
    assert.deepEqual(
      rules(key('m', { ...app, apiTargets: [{ service: 'translate.googleapis.com', methods: ['Get*'] }] })),
      [],
    );
  });
});

describe('key audit: CIS 1.15 rotation', () => {
  // "In the section API Keys, for every key ensure the creation date is less than 90 days."
  const app = { serverKeyRestrictions: { allowedIps: ['203.0.113.17'] }, ...API };
  it('passes a key created less than 90 days ago and finds one created 90 days ago or more', () => {
    assert.deepEqual(rules(key('young', app, 89.99)), []);
    assert.deepEqual(rules(key('ninety', app, 90)), ['rotation-overdue']);
    const old = auditKey(key('old', app, 400), OPTIONS);
    assert.equal(old.ageDays, 400);
    assert.match(old.findings[0].detail, /400 days ago/);
    assert.equal(old.findings[0].fix, 'rotate');
  });

  it('uses the chosen age instead of 90 days', () => {
    assert.deepEqual(rules(key('k', app, 31), { now: NOW, maxAgeDays: 30 }), ['rotation-overdue']);
    assert.deepEqual(rules(key('k', app, 120), { now: NOW, maxAgeDays: 365 }), []);
  });

  it('cannot show a key with a missing, malformed or future createTime is young enough', () => {
    for (const createTime of [undefined, '', 'yesterday', '2026-13-01T00:00:00Z', '2026', '1e12', 'x'.repeat(10_000)]) {
      const k = key('bad-time', app, 1, {});
      if (createTime === undefined) delete k.createTime;
      else k.createTime = createTime;
      const entry = auditKey(k, OPTIONS);
      assert.deepEqual(
        entry.findings.map((f) => f.rule),
        ['rotation-unknown'],
        String(createTime).slice(0, 40),
      );
      assert.equal(entry.ageDays, undefined);
      assert.ok(entry.findings[0].detail.length < 400, 'a huge createTime is not quoted whole');
    }
    // A number where a string belongs (a server answer that is not the documented shape).
    assert.deepEqual(rules({ ...key('n', app), createTime: 12 as unknown as string }), ['rotation-unknown']);
    assert.deepEqual(rules(key('future', app, -3)), ['rotation-unknown']);
    assert.equal(parseCreateTime('2026-01-02T03:04:05.123456789+01:00'), Date.parse('2026-01-02T03:04:05.123+01:00'));
  });

  it('accepts a maximum age of 1 to 3650 whole days only', () => {
    assert.deepEqual(parseMaxAgeDays(90), { days: 90 });
    assert.deepEqual(parseMaxAgeDays(' 30 '), { days: 30 });
    for (const bad of [0, -1, 1.5, 3651, '9e9', '', 'ninety', null, undefined, Number.NaN, '90days'])
      assert.ok('problem' in parseMaxAgeDays(bad), String(bad));
  });
});

describe('key audit: the report', () => {
  const keys: ApiKey[] = [
    key('clean', { serverKeyRestrictions: { allowedIps: ['203.0.113.17'] }, ...API }, 10),
    key('open', undefined, 200),
    key('gone', undefined, 500, { deleteTime: new Date(NOW - DAY).toISOString() }),
  ];

  it('leaves out deleted keys, counts findings by rule and orders findings 1.13, 1.14, 1.15', () => {
    const report = auditKeys(PROJECT, keys, OPTIONS);
    assert.equal(report.deletedSkipped, 1);
    assert.deepEqual(
      report.keys.map((k) => k.keyId),
      ['clean', 'open'],
    );
    assert.deepEqual(
      report.keys[1].findings.map((f) => f.cis),
      ['1.13', '1.14', '1.15'],
    );
    assert.deepEqual(report.summary, {
      keys: 2,
      keysWithFindings: 1,
      findings: 3,
      byRule: {
        'application-restriction-missing': 1,
        'application-restriction-wide': 0,
        'api-restriction-missing': 1,
        'api-restriction-all': 0,
        'rotation-overdue': 1,
        'rotation-unknown': 0,
      },
    });
  });

  it('audits a changed key again: a fixed finding goes, a deleted key leaves the report', () => {
    const report = auditKeys(PROJECT, keys, OPTIONS);
    const fixed = updateReport(report, { ...keys[1], restrictions: API }, NOW);
    assert.deepEqual(
      fixed.keys[1].findings.map((f) => f.rule),
      ['application-restriction-missing', 'rotation-overdue'],
    );
    assert.equal(fixed.summary.findings, 2);
    const deleted = updateReport(fixed, { ...keys[1], deleteTime: new Date(NOW).toISOString() }, NOW);
    assert.deepEqual(
      deleted.keys.map((k) => k.keyId),
      ['clean'],
    );
    const successor = updateReport(deleted, key('successor', API, 0), NOW);
    assert.equal(successor.keys.length, 2);
  });

  it('never carries a key string into the report, its Markdown or its JSON', () => {
    const secret = 'AIzaSyD-secret-key-string-0123456789';
    const report = auditKeys(PROJECT, [{ ...key('s', undefined, 100), keyString: secret }], OPTIONS);
    assert.ok(!JSON.stringify(report).includes(secret));
    assert.ok(!formatAuditMarkdown(report).includes(secret));
    assert.ok(!formatAuditJson(report).includes(secret));
  });

  it('escapes hostile display names and values in Markdown and keeps them whole in JSON', () => {
    const hostile = [
      '<img src=x onerror=alert(1)>',
      'line1\n::error file=a.ts::pwned\n# Heading',
      '[click](command:workbench.action.terminal.new)',
      '| cell | break |',
      '`code` **bold** _it_',
      '\u202eevil\u202c',
    ];
    const report = auditKeys(
      PROJECT,
      hostile.map((displayName, i) => ({
        ...key(`h${i}`, {
          browserKeyRestrictions: { allowedReferrers: ['*', '<script>x</script>'] },
        }),
        displayName,
      })),
      OPTIONS,
    );
    const text = formatAuditMarkdown(report);
    for (const line of text.split('\n')) {
      assert.ok(!line.startsWith('::'), `a line starts a workflow command: ${line}`);
      assert.ok(!/^#\s*Heading/.test(line), `a display name made a heading: ${line}`);
    }
    assert.ok(!/<img|<script/i.test(text), 'raw HTML in the Markdown');
    assert.ok(!text.includes('](command:'), 'a live command link in the Markdown');
    assert.ok(!text.includes('\u202e'), 'a bidi override in the Markdown');
    assert.ok(!/\| cell \| break \|/.test(text), 'an unescaped table cell separator');
    const json = JSON.parse(formatAuditJson(report)) as { keys: Array<{ displayName: string }> };
    assert.deepEqual(
      json.keys.map((k) => k.displayName),
      hostile,
    );
  });

  it('survives any restrictions object a server could send (property)', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (restrictions, createTime) => {
        const k = { name: 'projects/p/locations/global/keys/k', restrictions, createTime } as unknown as ApiKey;
        const entry = auditKey(k, OPTIONS);
        assert.ok(Array.isArray(entry.findings));
        formatAuditMarkdown(auditKeys('p', [k], OPTIONS));
      }),
    );
  });
});

describe('key audit: successor key ids', () => {
  // Reference B.1: keyId "must match [a-z]([a-z0-9-]{0,61}[a-z0-9])?" and "must NOT look like a UUID".
  const KEY_ID = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  it('names the successor after the old key and the day, without stacking suffixes', () => {
    assert.deepEqual(successorKeyIds('maps-web', NOW).slice(0, 2), ['maps-web-r20261207', 'maps-web-r20261207-2']);
    assert.equal(successorKeyIds('maps-web-r20260101', NOW)[0], 'maps-web-r20261207');
    assert.equal(successorKeyIds('maps-web-r20260101-3', NOW)[0], 'maps-web-r20261207');
  });

  it('always gives valid key ids, whatever the old id (UUIDs, long or odd ones)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.uuid(), fc.string({ maxLength: 80 }), fc.stringMatching(/^[a-z][a-z0-9-]{0,62}$/)),
        (old) => {
          for (const id of successorKeyIds(old, NOW)) {
            assert.match(id, KEY_ID, `${old} → ${id}`);
            assert.ok(!UUID.test(id), id);
          }
        },
      ),
    );
  });
});
