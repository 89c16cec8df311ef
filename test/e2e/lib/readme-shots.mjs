// The README's screenshots, taken by the real-editor scenarios: `node test/e2e/run.mjs --screenshots`
// writes them to media/screenshots/ (the README links them, and the package carries them), each
// scaled down by the browser to 1,000 px wide and reduced to 256 colours with pngquant
// (apt-get install pngquant), a few tens of KB each. Without --screenshots they go with the run's
// other screenshots, untouched.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './editor.mjs';

export const README_SHOTS_DIR = join(ROOT, 'media/screenshots');
const WIDTH = 1000;

/** `png` (a buffer) drawn `width` px wide in a blank page of the same browser, as a new PNG buffer. */
async function scaled(page, png, width) {
  const scratch = await page
    .context()
    .browser()
    .newPage({ viewport: { width, height: 100 } });
  try {
    await scratch.setContent(
      `<body style="margin:0"><img id="shot" style="display:block;width:${width}px" src="data:image/png;base64,${png.toString('base64')}"></body>`,
    );
    const img = scratch.locator('#shot');
    await img.evaluate((el) => el.decode());
    return await img.screenshot();
  } finally {
    await scratch.close();
  }
}

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
    const small = await scaled(page, await target.screenshot(), WIDTH);
    const file = join(README_SHOTS_DIR, `${name}.png`);
    mkdirSync(out, { recursive: true });
    execFileSync('pngquant', ['--force', '--strip', '--speed', '1', '--output', file, '256', '-'], { input: small });
    if (readFileSync(file).length === 0) throw new Error(`pngquant wrote nothing for ${name}`);
  };
}
