// The Chromium every test, bench and the real-editor harness launch (scripts/chromium.mjs): Debian's
// browser binary rather than its /usr/bin/chromium launcher script, whose /etc/chromium.d/dev-shm
// prints "/usr/bin/chromium: 9: [: …: unexpected operator" when findmnt answers with two lines.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS, DEBIAN_BINARY, DEBIAN_LAUNCHER, chromiumExecutable } from '../../../scripts/chromium.mjs';

const ROOT = join(__dirname, '../../..');

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.(m?js|ts|sh)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('the Chromium the project launches (scripts/chromium.mjs)', () => {
  it("replaces Debian's launcher by the binary it runs, and keeps any other choice", () => {
    const both = (): boolean => true;
    assert.equal(chromiumExecutable({}, both), DEBIAN_BINARY);
    assert.equal(chromiumExecutable({ CLOUDBENCH_CHROMIUM: DEBIAN_LAUNCHER }, both), DEBIAN_BINARY);
    assert.equal(chromiumExecutable({ CLOUDBENCH_CHROMIUM: '/opt/c/chrome' }, both), '/opt/c/chrome');
    assert.equal(chromiumExecutable({ CHROMIUM_PATH: '/opt/c/chrome' }, both), '/opt/c/chrome');
    assert.equal(
      chromiumExecutable({}, (p) => p !== DEBIAN_BINARY),
      DEBIAN_LAUNCHER,
      'no binary: the launcher',
    );
  });

  it('adds the launcher flag that matters headless (--disable-dev-shm-usage)', () => {
    assert.ok(CHROMIUM_ARGS.includes('--disable-dev-shm-usage'));
  });

  it('prints no stray launcher line', () => {
    const exe = chromiumExecutable();
    assert.ok(existsSync(exe), `no Chromium at ${exe}: apt-get install -y chromium, or set CLOUDBENCH_CHROMIUM`);
    const r = spawnSync(exe, ['--version'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Chromium/);
    assert.doesNotMatch(r.stderr, /unexpected operator|\/usr\/bin\/chromium:/);
  });

  it('is the only Chromium that tests, benches and scripts launch', () => {
    const offenders = ['test', 'bench', 'scripts']
      .flatMap(filesUnder)
      .filter((f) => !f.endsWith('chromium.mjs') && !f.endsWith('chromium.test.ts') && !f.endsWith('.sh'))
      .filter((f) =>
        /executablePath:(?! chromiumExecutable\(\)| CHROMIUM,)|'\/usr\/bin\/chromium'/.test(
          readFileSync(join(ROOT, f), 'utf8'),
        ),
      );
    assert.deepEqual(offenders, []);
  });
});
