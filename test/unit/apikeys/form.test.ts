// The restrictions editor's text boxes as data: malformed Android lines are errors, and every
// problem names the field and the line it comes from.
import { strict as assert } from 'node:assert';
import {
  inFormOrder,
  lineProblem,
  parseAndroidAppLine,
  placeProblem,
  type FormField,
  type PlacedProblem,
} from '../../../src/core/apikeys/form';
import type { AndroidApplication } from '../../../src/core/apikeys/types';
import { validateRestrictions } from '../../../src/core/apikeys/validation';

const ANDROID: FormField = {
  id: 'android-apps',
  pathPrefix: 'androidKeyRestrictions.allowedApplications',
  name: 'Android apps',
};
const REFERRERS: FormField = {
  id: 'referrers',
  pathPrefix: 'browserKeyRestrictions.allowedReferrers',
  name: 'Website referrers',
};
const API: FormField = { id: 'api-targets', pathPrefix: 'apiTargets', name: 'API restrictions' };
const APPLICATION: FormField = { id: 'application', pathPrefix: '', name: 'Application restrictions' };
const FINGERPRINT = 'DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09';

describe('restrictions editor form', () => {
  it('reads an Android line as a package name and a fingerprint, however separated', () => {
    for (const line of [
      `com.example.app ${FINGERPRINT}`,
      `com.example.app, ${FINGERPRINT}`,
      `com.example.app;${FINGERPRINT}`,
    ])
      assert.deepEqual(parseAndroidAppLine(line), {
        ok: true,
        value: { packageName: 'com.example.app', sha1Fingerprint: FINGERPRINT },
      });
  });

  it('refuses an Android line with more or fewer parts instead of dropping words', () => {
    const three = parseAndroidAppLine('not a package');
    assert.equal(three.ok, false);
    assert.match(!three.ok ? three.message : '', /^"not a package" has 3 parts; a line holds exactly a package name/);
    const one = parseAndroidAppLine('com.example.app');
    assert.match(!one.ok ? one.message : '', /^"com\.example\.app" is only one part/);
    const four = parseAndroidAppLine(`com.example.app ${FINGERPRINT} extra words`);
    assert.equal(four.ok, false);
  });

  it('names the field and the line of each problem', () => {
    const restrictions = {
      browserKeyRestrictions: { allowedReferrers: ['example.com/*', 'www.exa*mple.com/'] },
      apiTargets: [{ service: 'translate.googleapis.com' }, { service: 'Not A Service' }],
    };
    // The referrers sat on lines 1 and 4 of their box (blank lines between), the APIs on 2 and 3.
    const lineOf = new Map([
      [REFERRERS.pathPrefix, [1, 4]],
      [API.pathPrefix, [2, 3]],
    ]);
    const placed = validateRestrictions(restrictions).map((p) =>
      placeProblem(p, [REFERRERS, ANDROID, API], lineOf, APPLICATION),
    );
    assert.ok(placed.length >= 2, JSON.stringify(placed));
    const referrer = placed.find((p) => p.fieldId === 'referrers');
    assert.match(referrer?.text ?? '', /^Website referrers, line 4: /);
    const api = placed.find((p) => p.fieldId === 'api-targets');
    assert.match(api?.text ?? '', /^API restrictions, line 3: /);
  });

  it('puts a problem of the whole restriction on the application choice, without a line', () => {
    const twoKinds = {
      browserKeyRestrictions: { allowedReferrers: ['example.com/*'] },
      serverKeyRestrictions: { allowedIps: ['104.133.8.78'] },
    };
    const placed = validateRestrictions(twoKinds).map((p) =>
      placeProblem(p, [REFERRERS, ANDROID, API], new Map(), APPLICATION),
    );
    assert.ok(placed.length >= 1);
    for (const p of placed) assert.doesNotMatch(p.text, /line \d/);
    assert.equal(lineProblem(ANDROID, 3, 'x'), 'Android apps, line 3: x');
  });

  it('lists Android problems in line order, lines it could not read among those it refused (2, 3, 4, 5)', () => {
    // Lines 2–4 parse but their fingerprints are wrong; line 5 is one word. The form reads the box
    // first (line 5 cannot be read), then validates what it read (2, 3, 4).
    const box = ['', 'com.a.one 12:34', 'com.a.two XX', 'com.a.three 1', 'com.a.four'];
    const unreadable: PlacedProblem[] = [];
    const apps: AndroidApplication[] = [];
    const lines: number[] = [];
    box.forEach((text, i) => {
      if (!text) return;
      const parsed = parseAndroidAppLine(text);
      if (parsed.ok) {
        apps.push(parsed.value);
        lines.push(i + 1);
      } else unreadable.push({ fieldId: ANDROID.id, text: lineProblem(ANDROID, i + 1, parsed.message), line: i + 1 });
    });
    const refused = validateRestrictions({ androidKeyRestrictions: { allowedApplications: apps } }).map((p) =>
      placeProblem(p, [REFERRERS, ANDROID, API], new Map([[ANDROID.pathPrefix, lines]]), APPLICATION),
    );
    const ordered = inFormOrder([...unreadable, ...refused], [APPLICATION.id, REFERRERS.id, ANDROID.id, API.id]);
    const numbers = ordered.map((p) => Number(/line (\d+)/.exec(p.text)?.[1]));
    assert.deepEqual([...new Set(numbers)], [2, 3, 4, 5], ordered.map((p) => p.text).join('\n'));
  });

  it("orders problems field by field, a field's own problem before its lines", () => {
    const p = (fieldId: string, line?: number): PlacedProblem => ({
      fieldId,
      text: `${fieldId}:${line}`,
      ...(line ? { line } : {}),
    });
    const ordered = inFormOrder(
      [p('api-targets', 2), p('android-apps', 3), p('api-targets'), p('application'), p('android-apps', 1)],
      [APPLICATION.id, ANDROID.id, API.id],
    );
    assert.deepEqual(
      ordered.map((x) => x.text),
      ['application:undefined', 'android-apps:1', 'android-apps:3', 'api-targets:undefined', 'api-targets:2'],
    );
  });
});
