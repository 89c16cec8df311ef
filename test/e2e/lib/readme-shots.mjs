// The README's screenshots, taken by the real-editor scenarios: `node test/e2e/run.mjs --screenshots`
// writes them to media/screenshots/ (the README links them, and the package carries them), each cut
// to the area it shows and shrunk (1,000 px wide at most, 256 colours: a few tens of KB) with
// ImageMagick. Without --screenshots they go with the run's other screenshots, untouched.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './editor.mjs';

export const README_SHOTS_DIR = join(ROOT, 'media/screenshots');

/** A function `(name, locator?) => Promise` that takes the README screenshot `name`. */
export function readmeShots(page, { write, out }) {
  return async (name, locator) => {
    if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`a screenshot name is lower-case words: ${name}`);
    const target = locator ?? page;
    if (!write) {
      await target.screenshot({ path: join(out, `readme-${name}.png`) });
      return;
    }
    mkdirSync(README_SHOTS_DIR, { recursive: true });
    const raw = join(out, `readme-${name}-raw.png`);
    await target.screenshot({ path: raw });
    const file = join(README_SHOTS_DIR, `${name}.png`);
    execFileSync('convert', [raw, '-resize', '1000x>', '-strip', '-colors', '256', `PNG8:${file}`]);
    rmSync(raw, { force: true });
  };
}
