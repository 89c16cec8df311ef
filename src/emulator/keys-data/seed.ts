// The demo project's API keys: every restriction type, a bound key, and two deleted keys (one still
// recoverable, one past the 30-day undelete window). Between them they give the key audit (CIS
// 1.13-1.15) each of its findings: no application restriction (gemini-prototype), one that admits
// any .com site (any-com-widget), no API restriction (ipv6-ingest), every Cloud API (all-cloud-apis),
// older than 90 days (maps-web); vertex-bound and partner-portal pass every check.
import type { Restrictions } from './validate';

export const DEMO_PROJECT = 'cloudbench-demo';

export interface DemoKey {
  project: string;
  keyId: string;
  displayName: string;
  createTime: number;
  deleteTime?: number;
  annotations?: Record<string, string>;
  restrictions?: Restrictions;
  serviceAccountEmail?: string;
}

const DAY = 86_400_000;

export function demoKeys(now: number): DemoKey[] {
  const at = (daysAgo: number): number => Math.floor((now - daysAgo * DAY) / 1000) * 1000;
  const key = (keyId: string, displayName: string, daysAgo: number, extra: Partial<DemoKey> = {}): DemoKey => ({
    project: DEMO_PROJECT,
    keyId,
    displayName,
    createTime: at(daysAgo),
    ...extra,
  });
  return [
    key('maps-web', 'Maps JavaScript (website)', 210, {
      restrictions: {
        browserKeyRestrictions: { allowedReferrers: ['https://www.example.com/*', 'https://*.example.com/*'] },
        apiTargets: [{ service: 'maps-backend.googleapis.com' }],
      },
      annotations: { team: 'web', env: 'prod' },
    }),
    key('maps-staging', 'Maps (staging site)', 120, {
      restrictions: {
        browserKeyRestrictions: {
          allowedReferrers: ['staging.example.com', 'staging.example.com/*', 'http://localhost:8080/*'],
        },
      },
      annotations: { team: 'web', env: 'staging' },
    }),
    key('translate-backend', 'Translation backend', 180, {
      restrictions: {
        serverKeyRestrictions: { allowedIps: ['203.0.113.17', '198.51.100.0/24', '2001:db8:4860::/48'] },
        apiTargets: [
          {
            service: 'translate.googleapis.com',
            methods: ['google.cloud.translate.v2.TranslateService.TranslateText', 'Get*'],
          },
        ],
      },
      annotations: { team: 'platform' },
    }),
    key('cron-reports', 'Nightly reports job', 95, {
      restrictions: {
        serverKeyRestrictions: { allowedIps: ['192.0.2.44'] },
        apiTargets: [{ service: 'sheets.googleapis.com' }, { service: 'drive.googleapis.com' }],
      },
    }),
    key('android-field-app', 'Field app (Android)', 150, {
      restrictions: {
        androidKeyRestrictions: {
          allowedApplications: [
            { packageName: 'com.example.fieldapp', sha1Fingerprint: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709' },
            { packageName: 'com.example.fieldapp.debug', sha1Fingerprint: '5E8F16062EA3CD2C4A0D547876BAA6F38CABF625' },
          ],
        },
        apiTargets: [{ service: 'maps-android-backend.googleapis.com' }],
      },
      annotations: { team: 'mobile' },
    }),
    key('ios-field-app', 'Field app (iOS)', 149, {
      restrictions: {
        iosKeyRestrictions: { allowedBundleIds: ['com.example.fieldapp', 'com.example.fieldapp.widget'] },
        apiTargets: [{ service: 'maps-ios-backend.googleapis.com' }],
      },
      annotations: { team: 'mobile' },
    }),
    key('vertex-bound', 'Vertex AI (bound to service account)', 60, {
      serviceAccountEmail: 'vertex-caller@cloudbench-demo.iam.gserviceaccount.com',
      restrictions: {
        serverKeyRestrictions: { allowedIps: ['203.0.113.0/28'] },
        apiTargets: [{ service: 'aiplatform.googleapis.com' }],
      },
    }),
    key('vertex-bound-open', 'Vertex AI notebook (bound, unrestricted)', 21, {
      serviceAccountEmail: 'notebook-runner@cloudbench-demo.iam.gserviceaccount.com',
    }),
    key('gemini-prototype', 'Gemini prototype', 14, {
      restrictions: { apiTargets: [{ service: 'generativelanguage.googleapis.com' }] },
      annotations: { owner: 'ana@example.com' },
    }),
    key('unrestricted-dev', 'Developer test key (unrestricted)', 7),
    key('youtube-data', 'YouTube Data API', 300, {
      restrictions: {
        apiTargets: [{ service: 'youtube.googleapis.com', methods: ['google.youtube.v3.VideoService.List*'] }],
      },
    }),
    key('partner-portal', 'Partner portal', 45, {
      restrictions: {
        browserKeyRestrictions: {
          allowedReferrers: ['https://partners.example.org:8443/', 'https://partners.example.org:8443/*'],
        },
        apiTargets: [{ service: 'places.googleapis.com' }, { service: 'geocoding-backend.googleapis.com' }],
      },
    }),
    key('ipv6-ingest', 'Ingest workers (IPv6)', 33, {
      restrictions: { serverKeyRestrictions: { allowedIps: ['2620:15c:2c4:203:2776:1f90:6b3b:217', '104.133.8.78'] } },
    }),
    key('all-cloud-apis', 'Reporting dashboard (all Cloud APIs)', 40, {
      restrictions: {
        serverKeyRestrictions: { allowedIps: ['198.51.100.20'] },
        apiTargets: [{ service: 'cloudapis.googleapis.com' }],
      },
    }),
    key('any-com-widget', 'Store locator widget', 25, {
      restrictions: {
        browserKeyRestrictions: { allowedReferrers: ['*.com/*'] },
        apiTargets: [{ service: 'maps-backend.googleapis.com' }],
      },
    }),
    key('old-maps-key', 'Old Maps key (rotated)', 250, { deleteTime: at(10), annotations: { rotatedTo: 'maps-web' } }),
    key('legacy-translate', 'Legacy translate key', 400, {
      deleteTime: at(40),
      restrictions: { serverKeyRestrictions: { allowedIps: ['198.51.100.7'] } },
    }),
  ];
}
