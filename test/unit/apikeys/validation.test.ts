import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import * as ipaddr from 'ipaddr.js';
import {
  formatIpRange,
  ipInRange,
  normalizeFingerprint,
  normalizeRestrictions,
  parseIpRestriction,
  validateBundleId,
  validateIp,
  validateMethod,
  validatePackageName,
  validateReferrer,
  validateRestrictions,
  validateServiceName,
  validateSha1Fingerprint,
} from '../../../src/core/apikeys/validation';

type Validator = (value: string) => string | undefined;

/** [value, undefined] is accepted; [value, /pattern/] is refused with a message matching pattern. */
type Row = [string, RegExp | undefined];

const table: Record<string, { validate: Validator; rows: Row[] }> = {
  referrer: {
    validate: validateReferrer,
    rows: [
      ['example.com', undefined],
      ['example.com/*', undefined],
      ['*.example.com/*', undefined],
      ['*.example.com', undefined],
      ['https://www.example.com/*', undefined],
      ['http://sub.example.com/*', undefined],
      ['www.example.com:8080/*', undefined],
      ['https://www.example.com:8443/app/*', undefined],
      ['https://www.example.com/index.html', undefined],
      ['www.example-2.com/docs/', undefined],
      ['EXAMPLE.com/Path/*', undefined],
      ['localhost:3000/*', undefined],
      ['104.133.8.78/*', undefined],
      ['[2001:4860::1]:8080/*', undefined],
      ['*.example.co.uk/shop/*', undefined],
      ['__file_url__//home/me/app/*', undefined],
      ['__file_url__//home/*/app', /wildcard in the path may only come last/],
      ['file:///home/me/app/index.html', /write local file URLs as __file_url__\/\/path/],
      ['name*.example.com', /cannot be part of a host label like "name\*"/],
      ['www.ex*ample.com/*', /cannot be part of a host label/],
      ['example.*.com/*', /only be the first label of the host/],
      ['*.com/*', /every site in a top-level domain/],
      ['**.example.com', /cannot be part of a host label/],
      ['example.com/*/path/', /wildcard in the path may only come last/],
      ['example.com:*', /port "\*" must be a number/],
      ['example.com:0/*', /port "0" must be a number from 1 to 65535/],
      ['example.com:70000', /port "70000"/],
      ['example.com:/*', /port "" must be a number/],
      ['', /cannot be empty/],
      ['   ', /cannot be empty/],
      ['example.com /*', /white space/],
      ['*', /allows every website/],
      ['example.com/*?a=1', /query strings are ignored/],
      ['example.com/page#top', /fragments/],
      ['ftp://example.com/*', /only http:\/\/ and https:\/\//],
      ['https:/example.com', /write the scheme as http:\/\/ or https:\/\//],
      ['https://', /has no host/],
      ['https:///path', /has no host/],
      ['exa_mple.com/*', /"exa_mple" is not a valid host label/],
      ['example..com', /empty label/],
      ['-example.com', /not a valid host label/],
      ['user@example.com/*', /user names and passwords/],
      ['[2001:4860::1/*', /malformed IPv6 host/],
    ],
  },
  ip: {
    validate: validateIp,
    rows: [
      ['104.133.8.78', undefined],
      ['8.8.8.8', undefined],
      ['104.133.8.0/24', undefined],
      ['35.190.0.0/17', undefined],
      ['2620:15c:2c4:203:2776:1f90:6b3b:217', undefined],
      ['2001:4860:4860::8888', undefined],
      ['2001:4860::/32', undefined],
      ['2a00:1450:4001::/48', undefined],
      ['::ffff:104.133.8.78', undefined],
      ['1.1.1.1/32', undefined],
      ['127.0.0.1', /loopback \(localhost\)/],
      ['::1', /loopback \(localhost\)/],
      ['localhost', /"localhost" is not supported/],
      ['10.0.0.1', /private \(internal\)/],
      ['192.168.1.20', /private \(internal\)/],
      ['172.16.5.4', /private \(internal\)/],
      ['10.0.0.0/8', /private \(internal\)/],
      ['fd12:3456:789a::1', /unique-local \(internal\)/],
      ['fe80::1', /link-local/],
      ['fe80::1%eth0', /zone ids/],
      ['169.254.10.10', /link-local/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['0.0.0.0', /unspecified/],
      ['::', /unspecified/],
      ['255.255.255.255', /broadcast/],
      ['224.0.0.1', /multicast/],
      ['ff02::1', /multicast/],
      ['192.0.2.10', undefined],
      ['203.0.113.0/24', undefined],
      ['2001:db8:4860::/48', undefined],
      ['240.0.0.1', /reserved range/],
      ['198.18.0.1', /reserved range/],
      ['::ffff:10.1.2.3', /private \(internal\)/],
      ['0.0.0.0/0', /matches every address/],
      ['::/0', /matches every address/],
      ['128.0.0.0/2', /includes 172\.16\.0\.0\/12, which is private \(internal\); use a narrower range/],
      ['96.0.0.0/4', /includes 100\.64\.0\.0\/10, which is carrier-grade NAT/],
      ['169.0.0.0/8', /includes 169\.254\.0\.0\/16, which is link-local/],
      ['fc00::/6', /unique-local \(internal\)/],
      ['104.133.8.78/24', /did you mean 104\.133\.8\.0\/24\?/],
      ['104.133.8.0/33', /prefix length must be a number from 1 to 32/],
      ['2001:4860::/129', /from 1 to 128/],
      ['104.133.8.0/', /prefix length/],
      ['256.1.1.1', /not a valid IPv4 address/],
      ['104.133.8', /not a valid IPv4 address/],
      ['127.1', /not a valid IPv4 address/],
      ['2001:4860:::1', /not a valid IPv6 address/],
      ['example.com', /host names are not accepted/],
      ['', /cannot be empty/],
      ['8.8.8.8 ', /white space/],
    ],
  },
  packageName: {
    validate: validatePackageName,
    rows: [
      ['com.example.app', undefined],
      ['com.example_2.My_App', undefined],
      ['org.a', undefined],
      ['app', /at least two dot-separated parts/],
      ['com..example', /empty part/],
      ['com.1example', /must start with a letter/],
      ['com.exa-mple', /only letters, digits and underscores/],
      ['', /cannot be empty/],
      ['com.example app', /white space/],
    ],
  },
  sha1: {
    validate: validateSha1Fingerprint,
    rows: [
      ['DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09', undefined],
      ['DA39A3EE5E6B4B0D3255BFEF95601890AFD80709', undefined],
      ['da39a3ee5e6b4b0d3255bfef95601890afd80709', undefined],
      ['DA39A3EE5E6B4B0D3255BFEF95601890AFD807', /has 19 bytes/],
      ['DA39A3EE5E6B4B0D3255BFEF95601890AFD8070', /39 hex digits/],
      ['DA39A3EE5E6B4B0D3255BFEF95601890AFD80709AA', /has 21 bytes/],
      ['ZZ39A3EE5E6B4B0D3255BFEF95601890AFD80709', /only hex digits/],
      ['DA:39A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09', /pairs of hex digits/],
      ['E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855', /SHA-256/],
      ['', /cannot be empty/],
    ],
  },
  bundleId: {
    validate: validateBundleId,
    rows: [
      ['my.app', undefined],
      ['com.example.My-App', undefined],
      ['com.example.*', /wildcards are not supported/],
      ['myapp', /reverse-DNS/],
      ['com..app', /empty part/],
      ['com.example.app_1', /only letters, digits, hyphens and dots/],
      ['', /cannot be empty/],
    ],
  },
  service: {
    validate: validateServiceName,
    rows: [
      ['translate.googleapis.com', undefined],
      ['aiplatform.googleapis.com', undefined],
      ['Translate.GoogleAPIs.com', undefined],
      ['*.googleapis.com', /wildcards are not allowed/],
      ['https://translate.googleapis.com', /not a URL/],
      ['translate', /not a service name/],
      ['', /cannot be empty/],
    ],
  },
  method: {
    validate: validateMethod,
    rows: [
      ['google.cloud.translate.v2.TranslateService.GetSupportedLanguage', undefined],
      ['TranslateText', undefined],
      ['Get*', undefined],
      ['translate.googleapis.com.Get*', undefined],
      ['*', undefined],
      ['G*et', /only as the last character/],
      ['*Text', /only as the last character/],
      ['/google.cloud.translate.v2.TranslateService/TranslateText', /not as a path/],
      ['Translate Text', /white space/],
      ['Translate..Text', /not a method name/],
      ['', /cannot be empty/],
    ],
  },
};

describe('API key restriction validation', () => {
  it('has a table of at least 80 values with both accepted and refused ones', () => {
    const rows = Object.values(table).flatMap((t) => t.rows);
    assert.ok(rows.length >= 80, `only ${rows.length} rows`);
    assert.ok(rows.filter(([, e]) => e === undefined).length >= 30);
    assert.ok(rows.filter(([, e]) => e !== undefined).length >= 50);
  });

  for (const [name, { validate, rows }] of Object.entries(table)) {
    describe(name, () => {
      for (const [value, expected] of rows) {
        const label = expected ? `refuses ${JSON.stringify(value)}` : `accepts ${JSON.stringify(value)}`;
        it(label, () => {
          const message = validate(value);
          if (expected === undefined) assert.equal(message, undefined, `unexpected refusal: ${message}`);
          else {
            assert.ok(message, 'expected a refusal');
            assert.match(message, expected);
          }
        });
      }
    });
  }
});

describe('whole restrictions', () => {
  it('accepts an application restriction combined with API targets', () => {
    const problems = validateRestrictions({
      browserKeyRestrictions: { allowedReferrers: ['example.com/*', '*.example.com/*'] },
      apiTargets: [{ service: 'translate.googleapis.com', methods: ['Get*'] }],
    });
    assert.deepEqual(problems, []);
  });

  it('refuses a second application restriction type', () => {
    const problems = validateRestrictions({
      browserKeyRestrictions: { allowedReferrers: ['example.com/*'] },
      serverKeyRestrictions: { allowedIps: ['8.8.8.8'] },
    });
    assert.equal(problems.length, 1);
    assert.match(
      problems[0].message,
      /only one application restriction type; found Websites \(HTTP referrers\) and IP addresses \(servers\)/,
    );
  });

  it('allows only server restrictions on a service-account-bound key', () => {
    const bound = { serviceAccountBound: true };
    assert.deepEqual(
      validateRestrictions(
        { serverKeyRestrictions: { allowedIps: ['8.8.8.8'] }, apiTargets: [{ service: 'aiplatform.googleapis.com' }] },
        bound,
      ),
      [],
    );
    const wrongApi = validateRestrictions({ apiTargets: [{ service: 'translate.googleapis.com' }] }, bound);
    assert.deepEqual(
      wrongApi.map((p) => p.path),
      ['apiTargets[0].service'],
    );
    assert.match(wrongApi[0].message, /works only with aiplatform\.googleapis\.com, not translate\.googleapis\.com/);
    const problems = validateRestrictions({ iosKeyRestrictions: { allowedBundleIds: ['my.app'] } }, bound);
    assert.equal(problems.length, 1);
    assert.equal(problems[0].path, 'iosKeyRestrictions');
    assert.match(problems[0].message, /bound to a service account, which allows only IP address/);
  });

  it('points at each bad entry by path, one message per value', () => {
    const problems = validateRestrictions({
      androidKeyRestrictions: {
        allowedApplications: [
          { packageName: 'com.example.app', sha1Fingerprint: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709' },
          { packageName: 'app', sha1Fingerprint: 'XX' },
        ],
      },
      apiTargets: [{ service: 'translate.googleapis.com', methods: ['G*et'] }],
    });
    assert.deepEqual(
      problems.map((p) => p.path),
      [
        'androidKeyRestrictions.allowedApplications[1].packageName',
        'androidKeyRestrictions.allowedApplications[1].sha1Fingerprint',
        'apiTargets[0].methods[0]',
      ],
    );
  });

  it('refuses duplicates, counting equivalent spellings as the same', () => {
    const ipProblems = validateRestrictions({
      serverKeyRestrictions: { allowedIps: ['2001:4860::8888', '2001:4860:0:0::8888'] },
    });
    assert.equal(ipProblems.length, 1);
    assert.match(ipProblems[0].message, /listed twice \(also entry 1\)/);
    const appProblems = validateRestrictions({
      androidKeyRestrictions: {
        allowedApplications: [
          { packageName: 'com.a', sha1Fingerprint: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709' },
          { packageName: 'com.a', sha1Fingerprint: 'da:39:a3:ee:5e:6b:4b:0d:32:55:bf:ef:95:60:18:90:af:d8:07:09' },
        ],
      },
    });
    assert.equal(appProblems.length, 1);
    const targetProblems = validateRestrictions({
      apiTargets: [{ service: 'a.googleapis.com' }, { service: 'A.googleapis.com' }],
    });
    assert.match(targetProblems[0].message, /listed twice/);
  });

  it('refuses an application restriction with an empty list', () => {
    const problems = validateRestrictions({ browserKeyRestrictions: { allowedReferrers: [] } });
    assert.match(problems[0].message, /Add at least one website referrer/);
  });

  it('normalizes fingerprints and addresses to the stored form', () => {
    assert.equal(
      normalizeFingerprint('da:39:a3:ee:5e:6b:4b:0d:32:55:bf:ef:95:60:18:90:af:d8:07:09'),
      'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709',
    );
    const normalized = normalizeRestrictions({
      serverKeyRestrictions: { allowedIps: ['2001:4860:0:0:0:0:0:8888', '8.8.8.8'] },
      apiTargets: [],
    });
    assert.deepEqual(normalized, { serverKeyRestrictions: { allowedIps: ['2001:4860::8888', '8.8.8.8'] } });
  });
});

describe('CIDR properties', () => {
  const publicV4 = fc
    .tuple(
      fc.integer({ min: 1, max: 223 }),
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 8, max: 32 }),
    )
    .map(([a, b, c, d, prefix]) => {
      const network = ipaddr.IPv4.networkAddressFromCIDR(`${a}.${b}.${c}.${d}/${prefix}`);
      return `${network.toString()}/${prefix}`;
    })
    .filter((cidr) => validateIp(cidr) === undefined);

  const publicV6 = fc
    .tuple(
      fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 }),
      fc.integer({ min: 16, max: 128 }),
    )
    .map(([rest, prefix]) => {
      // 2000::/3 is global unicast; keep the first group inside it.
      const parts = [0x2400 + (rest[0] % 0x1000), ...rest.slice(1), 0];
      const network = ipaddr.IPv6.networkAddressFromCIDR(`${parts.map((p) => p.toString(16)).join(':')}/${prefix}`);
      return `${network.toRFC5952String()}/${prefix}`;
    })
    .filter((cidr) => validateIp(cidr) === undefined);

  it('valid IPv4 CIDRs round-trip through parse and format', () => {
    fc.assert(
      fc.property(publicV4, (cidr) => {
        const parsed = parseIpRestriction(cidr);
        assert.ok(parsed.ok);
        assert.equal(formatIpRange(parsed.value), cidr);
      }),
      { numRuns: 300 },
    );
  });

  it('valid IPv6 CIDRs round-trip, and any spelling formats to the same canonical text', () => {
    fc.assert(
      fc.property(publicV6, (cidr) => {
        const parsed = parseIpRestriction(cidr);
        assert.ok(parsed.ok);
        assert.equal(formatIpRange(parsed.value), cidr);
        const [address, prefix] = cidr.split('/');
        const longForm = `${ipaddr.IPv6.parse(address).toNormalizedString()}/${prefix}`;
        const reparsed = parseIpRestriction(longForm);
        assert.ok(reparsed.ok);
        assert.equal(formatIpRange(reparsed.value), cidr);
      }),
      { numRuns: 300 },
    );
  });

  it('every address inside an accepted range is a member and the one past its end is not', () => {
    fc.assert(
      fc.property(publicV4, (cidr) => {
        const parsed = parseIpRestriction(cidr);
        assert.ok(parsed.ok);
        const broadcast = ipaddr.IPv4.broadcastAddressFromCIDR(cidr);
        assert.ok(ipInRange(parsed.value.address, parsed.value));
        assert.ok(ipInRange(broadcast, parsed.value));
        assert.ok(ipInRange(broadcast.toIPv4MappedAddress(), parsed.value));
        const next = broadcast.toByteArray().reduce((n, b) => n * 256 + b, 0) + 1;
        if (next < 2 ** 32) {
          const nextAddress = ipaddr.IPv4.parse([24, 16, 8, 0].map((s) => Math.floor(next / 2 ** s) % 256).join('.'));
          assert.equal(ipInRange(nextAddress, parsed.value), false);
        }
      }),
      { numRuns: 200 },
    );
  });
});
