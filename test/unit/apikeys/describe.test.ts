import * as assert from 'node:assert/strict';
import {
  describeChanges,
  diffRestrictions,
  formatApiTargetLines,
  parseApiTargetLines,
  summarizeRestrictions,
} from '../../../src/core/apikeys/describe';
import { isRestrictions, parseFromWebview, parseToWebview } from '../../../src/core/apikeys/messages';
import { formatCheckReport, checkRequest } from '../../../src/core/apikeys/check';
import { EtagConflictError, explainKeysError } from '../../../src/core/apikeys/client';
import { GoogleApiError } from '../../../src/core/google/errors';

describe('restriction summaries and diffs', () => {
  it('summarizes keys for the tree', () => {
    assert.equal(summarizeRestrictions(undefined), 'unrestricted');
    assert.equal(
      summarizeRestrictions({ browserKeyRestrictions: { allowedReferrers: ['a.com/*', 'b.com/*'] } }),
      '2 referrers · any API',
    );
    assert.equal(
      summarizeRestrictions({
        serverKeyRestrictions: { allowedIps: ['8.8.8.8'] },
        apiTargets: [{ service: 'translate.googleapis.com' }],
      }),
      '1 IP · translate.googleapis.com',
    );
    assert.equal(
      summarizeRestrictions({ apiTargets: [{ service: 'a.googleapis.com' }, { service: 'b.googleapis.com' }] }),
      'any app · 2 APIs',
    );
    assert.equal(
      summarizeRestrictions({ iosKeyRestrictions: { allowedBundleIds: ['my.app'] } }),
      '1 iOS app · any API',
    );
  });

  it('reports replaced lists, removed lists and a type switch', () => {
    const before = {
      browserKeyRestrictions: { allowedReferrers: ['a.com/*', 'b.com/*'] },
      apiTargets: [{ service: 'x.googleapis.com' }],
    };
    const after = { serverKeyRestrictions: { allowedIps: ['8.8.8.8'] } };
    assert.deepEqual(describeChanges(diffRestrictions(before, after)), [
      'Websites: all 2 removed (no websites restriction).',
      'IP addresses: set to 8.8.8.8.',
      'APIs: all 1 removed (no apis restriction).',
    ]);
    assert.deepEqual(diffRestrictions(before, before), []);
    assert.deepEqual(
      describeChanges(
        diffRestrictions(before, { ...before, browserKeyRestrictions: { allowedReferrers: ['b.com/*', 'a.com/*'] } }),
      ),
      ['Websites: replaced (2 → 2); reordered.'],
    );
  });

  it('reads and writes the API target lines of the editor', () => {
    const targets = parseApiTargetLines('translate.googleapis.com Get* TranslateText\n\n  vision.googleapis.com  \n');
    assert.deepEqual(targets, [
      { service: 'translate.googleapis.com', methods: ['Get*', 'TranslateText'] },
      { service: 'vision.googleapis.com' },
    ]);
    assert.deepEqual(parseApiTargetLines(formatApiTargetLines(targets)), targets);
  });
});

describe('restriction editor messages', () => {
  const key = {
    name: 'projects/p/locations/global/keys/k',
    keyId: 'k',
    displayName: 'K',
    etag: 'e1',
    restrictions: { browserKeyRestrictions: { allowedReferrers: ['a.com/*'] } },
  };

  it('accepts the messages each side sends', () => {
    assert.deepEqual(parseFromWebview({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseFromWebview({ type: 'save', restrictions: key.restrictions, etag: 'e1' }), {
      type: 'save',
      restrictions: key.restrictions,
      etag: 'e1',
    });
    assert.deepEqual(parseToWebview({ type: 'init', key }), { type: 'init', key });
    assert.deepEqual(parseToWebview({ type: 'conflict', key, message: 'm' }), { type: 'conflict', key, message: 'm' });
    assert.deepEqual(parseToWebview({ type: 'error', message: 'm', problems: [{ path: 'p', message: 'x' }] }), {
      type: 'error',
      message: 'm',
      problems: [{ path: 'p', message: 'x' }],
    });
  });

  it('refuses malformed or unexpected messages', () => {
    for (const bad of [
      null,
      'save',
      { type: 'delete' },
      { type: 'ready', extra: 1 },
      { type: 'save', restrictions: {}, etag: 3 },
      { type: 'save', restrictions: { browserKeyRestrictions: { allowedReferrers: [1] } }, etag: 'e' },
      { type: 'save', restrictions: { unknownRestrictions: {} }, etag: 'e' },
      { type: 'save', restrictions: { apiTargets: [{ service: 'x', methods: 'Get*' }] }, etag: 'e' },
    ])
      assert.equal(parseFromWebview(bad), undefined, JSON.stringify(bad));
    assert.equal(parseToWebview({ type: 'init', key: { ...key, etag: undefined } }), undefined);
    assert.equal(parseToWebview({ type: 'saved', key, changes: [1] }), undefined);
    assert.equal(
      isRestrictions({
        androidKeyRestrictions: { allowedApplications: [{ packageName: 'a.b', sha1Fingerprint: 'x', extra: 1 }] },
      }),
      false,
    );
  });
});

describe('check report', () => {
  it('shows the verdict, the rules and the real and neutral header names, never a key string', () => {
    const restrictions = {
      androidKeyRestrictions: {
        allowedApplications: [
          { packageName: 'com.example.app', sha1Fingerprint: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709' },
        ],
      },
    };
    const request = {
      androidPackage: 'com.example.app',
      androidCert: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709',
      service: 'translate.googleapis.com',
    };
    const report = formatCheckReport(
      'Mobile',
      'projects/p/locations/global/keys/mobile',
      request,
      checkRequest(restrictions, request),
    );
    assert.match(report, /the key would be accepted/);
    assert.match(report, /`X-Android-Package: com\.example\.app` \(called `X-PlatformA-Package`/);
    assert.match(report, /`X-Android-Cert: DA39A3EE5E6B4B0D3255BFEF95601890AFD80709`/);
    assert.match(report, /`X-Goog-Api-Key: <API_KEY>`/);
    const refused = formatCheckReport(
      'Web',
      'projects/p/locations/global/keys/web',
      { referrer: 'https://evil.test/`x`' },
      checkRequest(
        { browserKeyRestrictions: { allowedReferrers: ['example.com/*'] } },
        { referrer: 'https://evil.test/`x`' },
      ),
    );
    assert.match(refused, /would be refused/);
    assert.doesNotMatch(refused, /`x`/, 'backticks in values cannot break out of code spans');
  });
});

describe('explanations of API Keys refusals', () => {
  it('names the role, the org policy constraint and the global location', () => {
    assert.match(
      explainKeysError(new GoogleApiError('PERMISSION_DENIED', 'Permission denied on resource project p.')) ?? '',
      /roles\/serviceusage\.apiKeysAdmin/,
    );
    assert.match(
      explainKeysError(
        new GoogleApiError(
          'FAILED_PRECONDITION',
          'Constraint constraints/iam.managed.disableServiceAccountApiKeyCreation violated for projects/p.',
        ),
      ) ?? '',
      /organization policy constraint constraints\/iam\.managed\.disableServiceAccountApiKeyCreation.*enforce: false/,
    );
    assert.match(
      explainKeysError(
        new GoogleApiError(
          'INVALID_ARGUMENT',
          'Location "us-central1" is not supported; API keys exist only in location global.',
        ),
      ) ?? '',
      /only in the location "global"/,
    );
    assert.match(
      explainKeysError(
        new EtagConflictError('projects/p/locations/global/keys/k', new GoogleApiError('ABORTED', 'etag mismatch')),
      ) ?? '',
      /changed by someone else/,
    );
    assert.equal(explainKeysError(new GoogleApiError('INTERNAL', 'boom')), undefined);
    assert.equal(explainKeysError(new Error('not an API error')), undefined);
  });
});
