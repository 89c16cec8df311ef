import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { checkRequest, methodMatches, referrerMatches } from '../../../src/core/apikeys/check';
import { parseReferrer, validateIp } from '../../../src/core/apikeys/validation';
import type { Restrictions } from '../../../src/core/apikeys/types';

function matches(pattern: string, url: string): boolean {
  const parsed = parseReferrer(pattern);
  assert.ok(parsed.ok, `pattern ${pattern} should be valid`);
  return referrerMatches(parsed.value, new URL(url));
}

describe('Check Request: referrer matching', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.example.com/*', 'https://www.example.com/a/b', true],
    ['*.example.com/*', 'https://deep.sub.example.com/', true],
    ['*.example.com/*', 'https://example.com/a', false], // rule 4: the bare domain needs its own entry
    ['*.example.com/*', 'https://badexample.com/a', false],
    ['example.com/*', 'https://example.com/a', true],
    ['example.com/*', 'http://example.com:8080/a', true], // no port: any port
    ['example.com:8080/*', 'http://example.com:8080/a', true],
    ['example.com:8080/*', 'http://example.com/a', false],
    ['example.com:443/*', 'https://example.com/a', true],
    ['https://example.com/*', 'http://example.com/a', false],
    ['example.com', 'https://example.com/', true], // rule 5: the host without a path matches the origin
    ['example.com', 'https://example.com/page', false],
    ['https://example.com/page.html', 'https://example.com/page.html?x=1', true], // queries are ignored
    ['https://example.com/page.html', 'https://example.com/page.html/', false], // trailing slash matters
    ['https://example.com/page.html', 'https://example.com/', false], // rule 3: origin-only referrers fail
    ['example.com/docs/*', 'https://example.com/docs/intro', true],
    ['example.com/docs/*', 'https://example.com/blog/intro', false],
    ['EXAMPLE.COM/*', 'https://example.com/x', true],
    ['__file_url__//home/me/app/*', 'file:///home/me/app/index.html', true],
    ['__file_url__//home/me/app/*', 'file:///home/other/index.html', false],
    ['example.com/*', 'file:///example.com/x', false],
  ];
  for (const [pattern, url, expected] of cases) {
    it(`${pattern} ${expected ? 'matches' : 'does not match'} ${url}`, () => {
      assert.equal(matches(pattern, url), expected);
    });
  }
});

describe('Check Request: method matching', () => {
  const service = 'translate.googleapis.com';
  const cases: Array<[string, string, boolean]> = [
    ['TranslateText', 'google.cloud.translate.v2.TranslateService.TranslateText', true],
    ['translatetext', 'TranslateText', true], // case-insensitive
    ['Get*', 'google.cloud.translate.v2.TranslateService.GetSupportedLanguage', true],
    ['Get*', 'TranslateText', false],
    ['translate.googleapis.com.Get*', 'GetSupportedLanguage', true],
    [
      'google.cloud.translate.v2.TranslateService.GetSupportedLanguage',
      'google.cloud.translate.v2.TranslateService.GetSupportedLanguage',
      true,
    ],
    [
      'google.cloud.translate.v2.TranslateService.GetSupportedLanguage',
      'google.cloud.translate.v2.TranslateService.TranslateText',
      false,
    ],
    ['google.cloud.translate.v2.*', 'google.cloud.translate.v2.TranslateService.TranslateText', true],
    ['*', 'Anything', true],
  ];
  for (const [pattern, method, expected] of cases) {
    it(`${pattern} ${expected ? 'allows' : 'refuses'} ${method}`, () => {
      assert.equal(methodMatches(pattern, service, method), expected);
    });
  }
});

describe('Check Request: verdicts', () => {
  it('an unrestricted key allows everything', () => {
    const result = checkRequest(undefined, {});
    assert.equal(result.allowed, true);
    assert.match(result.decidedBy, /no application restriction/);
    assert.deepEqual(result.requiredHeaders, []);
  });

  it('names the referrer that decided', () => {
    const r: Restrictions = { browserKeyRestrictions: { allowedReferrers: ['example.com/*', '*.example.com/*'] } };
    const ok = checkRequest(r, { referrer: 'https://shop.example.com/cart' });
    assert.equal(ok.allowed, true);
    assert.match(ok.decidedBy, /matches the allowed referrer "\*\.example\.com\/\*"/);
    assert.deepEqual(
      ok.requiredHeaders.map((h) => h.name),
      ['Referer'],
    );
    const bad = checkRequest(r, { referrer: 'https://evil.test/' });
    assert.equal(bad.allowed, false);
    assert.match(bad.decidedBy, /matches none of the 2 allowed referrers/);
    const missing = checkRequest(r, {});
    assert.equal(missing.allowed, false);
    assert.match(missing.decidedBy, /no Referer header/);
  });

  it('explains origin-only referrers against page-specific keys', () => {
    const result = checkRequest(
      { browserKeyRestrictions: { allowedReferrers: ['https://example.com/app.html'] } },
      { referrer: 'https://example.com/' },
    );
    assert.equal(result.allowed, false);
    assert.match(result.decidedBy, /send only the origin/);
  });

  it('checks CIDR membership for server keys, IPv4-mapped callers included', () => {
    const r: Restrictions = { serverKeyRestrictions: { allowedIps: ['104.133.8.0/24', '2001:4860::/32'] } };
    assert.equal(checkRequest(r, { callerIp: '104.133.8.200' }).allowed, true);
    assert.match(
      checkRequest(r, { callerIp: '104.133.8.200' }).decidedBy,
      /inside the allowed range 104\.133\.8\.0\/24/,
    );
    assert.equal(checkRequest(r, { callerIp: '::ffff:104.133.8.1' }).allowed, true);
    assert.equal(checkRequest(r, { callerIp: '2001:4860:1::5' }).allowed, true);
    assert.equal(checkRequest(r, { callerIp: '104.133.9.1' }).allowed, false);
    assert.match(checkRequest(r, { callerIp: 'nope' }).decidedBy, /not an IPv4 or IPv6 address/);
  });

  it('matches Android apps by package and fingerprint in either spelling, and lists the headers to send', () => {
    const r: Restrictions = {
      androidKeyRestrictions: {
        allowedApplications: [
          { packageName: 'com.example.app', sha1Fingerprint: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709' },
        ],
      },
    };
    const ok = checkRequest(r, {
      androidPackage: 'com.example.app',
      androidCert: 'da:39:a3:ee:5e:6b:4b:0d:32:55:bf:ef:95:60:18:90:af:d8:07:09',
    });
    assert.equal(ok.allowed, true);
    assert.deepEqual(
      ok.requiredHeaders.map((h) => [h.name, h.neutralName]),
      [
        ['X-Android-Package', 'X-PlatformA-Package'],
        ['X-Android-Cert', 'X-PlatformA-Cert'],
      ],
    );
    const wrongCert = checkRequest(r, {
      androidPackage: 'com.example.app',
      androidCert: '0000000000000000000000000000000000000000',
    });
    assert.equal(wrongCert.allowed, false);
    assert.match(wrongCert.decidedBy, /listed, but not with the certificate fingerprint/);
    const noHeaders = checkRequest(r, {});
    assert.match(noHeaders.decidedBy, /must send both X-Android-Package and X-Android-Cert/);
  });

  it('matches iOS bundle ids and asks for the bundle header', () => {
    const r: Restrictions = { iosKeyRestrictions: { allowedBundleIds: ['my.app'] } };
    const ok = checkRequest(r, { iosBundleId: 'my.app' });
    assert.equal(ok.allowed, true);
    assert.deepEqual(ok.requiredHeaders, [
      { name: 'X-Ios-Bundle-Identifier', value: 'my.app', neutralName: 'X-PlatformB-Bundle-Identifier' },
    ]);
    assert.equal(checkRequest(r, { iosBundleId: 'other.app' }).allowed, false);
  });

  it('applies API targets after the application restriction and names the deciding method', () => {
    const r: Restrictions = {
      serverKeyRestrictions: { allowedIps: ['8.8.8.8'] },
      apiTargets: [
        { service: 'translate.googleapis.com', methods: ['Get*'] },
        { service: 'aiplatform.googleapis.com' },
      ],
    };
    const ok = checkRequest(r, {
      callerIp: '8.8.8.8',
      service: 'Translate.googleapis.com',
      method: 'GetSupportedLanguage',
    });
    assert.equal(ok.allowed, true);
    assert.match(ok.decidedBy, /matches the allowed method "Get\*"/);
    const wrongMethod = checkRequest(r, {
      callerIp: '8.8.8.8',
      service: 'translate.googleapis.com',
      method: 'TranslateText',
    });
    assert.equal(wrongMethod.allowed, false);
    assert.match(wrongMethod.decidedBy, /TranslateText matches none of the allowed methods/);
    const wrongService = checkRequest(r, { callerIp: '8.8.8.8', service: 'vision.googleapis.com' });
    assert.equal(wrongService.allowed, false);
    assert.match(wrongService.decidedBy, /not among the allowed APIs/);
    const allMethods = checkRequest(r, {
      callerIp: '8.8.8.8',
      service: 'aiplatform.googleapis.com',
      method: 'Predict',
    });
    assert.equal(allMethods.allowed, true);
    const blockedIp = checkRequest(r, { callerIp: '8.8.4.4', service: 'aiplatform.googleapis.com' });
    assert.equal(blockedIp.allowed, false);
    assert.equal(blockedIp.steps[0].passed, false);
    assert.match(blockedIp.decidedBy, /none of the 1 allowed addresses/);
  });
});

describe('Check Request properties', () => {
  const label = fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/);
  const domain = fc.tuple(label, fc.constantFrom('com', 'org', 'dev', 'co.uk')).map(([name, tld]) => `${name}.${tld}`);
  const path = fc.array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { maxLength: 4 }).map((parts) => `/${parts.join('/')}`);

  it('a site pattern with a wildcard path accepts every page of that site and of no other site', () => {
    fc.assert(
      fc.property(domain, domain, path, fc.constantFrom('http', 'https'), (site, other, page, scheme) => {
        const bare = parseReferrer(`${site}/*`);
        const sub = parseReferrer(`*.${site}/*`);
        assert.ok(bare.ok && sub.ok);
        assert.equal(referrerMatches(bare.value, new URL(`${scheme}://${site}${page}`)), true);
        assert.equal(referrerMatches(sub.value, new URL(`${scheme}://www.${site}${page}`)), true);
        assert.equal(referrerMatches(sub.value, new URL(`${scheme}://${site}${page}`)), false);
        if (other !== site && !other.endsWith(`.${site}`)) {
          assert.equal(referrerMatches(bare.value, new URL(`${scheme}://${other}${page}`)), false);
          assert.equal(referrerMatches(sub.value, new URL(`${scheme}://www.${other}${page}`)), false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a server key accepts exactly the callers inside its ranges', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        (a, b, c) => {
          const range = `${a * 11 + 1}.${b}.0.0/16`;
          if (validateIp(range) !== undefined) return;
          const inside = checkRequest(
            { serverKeyRestrictions: { allowedIps: [range] } },
            { callerIp: `${a * 11 + 1}.${b}.${c}.7` },
          );
          const outside = checkRequest(
            { serverKeyRestrictions: { allowedIps: [range] } },
            { callerIp: `${a * 11 + 1}.${(b + 1) % 256}.${c}.7` },
          );
          assert.equal(inside.allowed, true);
          assert.equal(outside.allowed, false);
        },
      ),
      { numRuns: 200 },
    );
  });
});
