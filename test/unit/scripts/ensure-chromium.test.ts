// scripts/ensure-chromium.mjs, which `npm test` runs first: with Chromium absent it installs Debian's
// package (apt-get and sudo stand-ins on PATH record the calls and put a browser where the package
// would), says so, and a second run finds it and installs nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '../../../scripts/ensure-chromium.mjs');

describe('npm test installs Chromium when it is missing (scripts/ensure-chromium.mjs)', () => {
  let dir: string;
  let bin: string;
  let calls: string;
  let chromium: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cloudbench-chromium-'));
    bin = join(dir, 'bin');
    calls = join(dir, 'calls.log');
    chromium = join(dir, 'usr-bin', 'chromium');
    spawnSync('mkdir', ['-p', bin]);
    const stub = (name: string, body: string): void => {
      writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    // The package's install puts the browser where CLOUDBENCH_CHROMIUM points.
    stub(
      'apt-get',
      `echo "apt-get $*" >> "${calls}"
case "$*" in *" install "*chromium*) mkdir -p "$(dirname "$CLOUDBENCH_CHROMIUM")"; printf '#!/bin/sh\\necho Chromium 1\\n' > "$CLOUDBENCH_CHROMIUM"; chmod +x "$CLOUDBENCH_CHROMIUM";; esac`,
    );
    stub('sudo', `echo "sudo $*" >> "${calls}"\nexec "$@"`);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ensure = (env: Record<string, string> = {}): ReturnType<typeof spawnSync> =>
    spawnSync(process.execPath, [SCRIPT], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, CLOUDBENCH_CHROMIUM: chromium, ...env },
    });

  it('installs the chromium package once, saying what it does, and then finds it', () => {
    assert.equal(existsSync(chromium), false);
    const first = ensure();
    assert.equal(first.status, 0, String(first.stderr));
    assert.match(String(first.stdout), /No Chromium at .*chromium: installing Debian's chromium package/);
    assert.match(String(first.stdout), /Chromium installed at/);
    const log = readFileSync(calls, 'utf8');
    assert.match(log, /apt-get .*update/);
    assert.match(log, /apt-get .*install -y -qq chromium/);
    assert.ok(existsSync(chromium));

    const second = ensure();
    assert.equal(second.status, 0, String(second.stderr));
    assert.equal(String(second.stdout), '', 'nothing to say when Chromium is there');
    assert.equal(readFileSync(calls, 'utf8'), log, 'no second install');
  });

  it('stops with what to do next when the install fails', () => {
    writeFileSync(join(bin, 'apt-get'), '#!/bin/sh\necho "E: Unable to locate package chromium" >&2\nexit 100\n');
    const r = ensure();
    assert.equal(r.status, 1);
    assert.match(String(r.stderr), /Installing chromium failed: .*exited with 100/);
    assert.match(String(r.stderr), /apt-get install -y chromium.*CLOUDBENCH_CHROMIUM/);
  });
});
