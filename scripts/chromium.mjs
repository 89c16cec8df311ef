// The one place that says which Chromium the tests, benches and the real-editor harness launch.
// Debian's /usr/bin/chromium is a shell launcher that sources /etc/chromium.d/*; its dev-shm file
// compares `findmnt` output with `[ … -lt … ]`, which prints "/usr/bin/chromium: 9: [: …: unexpected
// operator" when findmnt prints more than one line. So the browser binary itself is launched, with the
// launcher's flag that matters here (--disable-dev-shm-usage: shared memory in /tmp, not a small
// /dev/shm); the launcher's other flags only concern a desktop profile.
import { existsSync } from 'node:fs';

export const DEBIAN_LAUNCHER = '/usr/bin/chromium';
export const DEBIAN_BINARY = '/usr/lib/chromium/chromium';

/** CLOUDBENCH_CHROMIUM (or CHROMIUM_PATH) when set, Debian's launcher replaced by the binary it runs. */
export function chromiumExecutable(env = process.env, exists = existsSync) {
  const chosen = env.CLOUDBENCH_CHROMIUM || env.CHROMIUM_PATH || DEBIAN_LAUNCHER;
  return chosen === DEBIAN_LAUNCHER && exists(DEBIAN_BINARY) ? DEBIAN_BINARY : chosen;
}

/** The flags every headless launch uses. */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]);
