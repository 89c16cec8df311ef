// What a newcomer sees before reading anything: the extension's icon, its activity bar icon, the Get
// Started walkthrough and the Marketplace fields. Checked against VS Code's rules for each: a PNG icon
// of at least 128 px, an activity bar icon VS Code can tint (one colour: currentColor), walkthrough
// steps whose media exist in the package and whose links and completion events name real commands.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const declared = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));
const views = new Set<string>(
  Object.values(pkg.contributes.views as Record<string, Array<{ id: string }>>).flatMap((list) =>
    list.map((v) => v.id),
  ),
);

/** Commands VS Code generates for a contributed view (`<view id>.focus` and friends). */
function isKnownCommand(command: string): boolean {
  if (declared.has(command)) return true;
  const viewCommand = /^(.+)\.(focus|resetViewLocation|removeView|toggleVisibility)$/.exec(command);
  return !!viewCommand && views.has(viewCommand[1]);
}

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string; altText?: string };
  completionEvents?: string[];
}

const walkthroughs: Array<{ id: string; title: string; steps: Step[] }> = pkg.contributes.walkthroughs ?? [];

/** Whether `.vscodeignore` keeps `path` in the package (its rules: `**`, then `!` re-includes). */
function packaged(path: string): boolean {
  const rules = readFileSync(join(root, '.vscodeignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  let kept = true;
  for (const rule of rules) {
    const negated = rule.startsWith('!');
    const glob = negated ? rule.slice(1) : rule;
    const pattern = new RegExp(
      '^' +
        glob
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .split('**')
          .map((part) => part.replace(/\*/g, '[^/]*'))
          .join('.*') +
        '$',
    );
    if (pattern.test(path)) kept = negated;
  }
  return kept;
}

function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG', `${path} is not a PNG`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('manifest: first impression', () => {
  it('has a square PNG icon of at least 128 px, in the package and small', () => {
    assert.match(pkg.icon, /\.png$/);
    const path = join(root, pkg.icon);
    const { width, height } = pngSize(path);
    assert.equal(width, height);
    assert.ok(width >= 128, `icon is ${width}px`);
    assert.ok(statSync(path).size < 50_000);
    assert.ok(packaged(pkg.icon));
  });

  it('gives the activity bar a one-colour SVG icon that VS Code tints for every theme', () => {
    const [container] = pkg.contributes.viewsContainers.activitybar;
    assert.match(container.icon, /\.svg$/);
    const svg = readFileSync(join(root, container.icon), 'utf8');
    const colours = [...svg.matchAll(/(?:fill|stroke|stop-color|color)\s*[=:]\s*"?([^";\s>]+)/g)].map((m) => m[1]);
    assert.ok(colours.includes('currentColor'));
    assert.deepEqual(
      colours.filter((c) => c !== 'currentColor' && c !== 'none'),
      [],
      'only currentColor: a fixed colour vanishes in one theme or another',
    );
    assert.doesNotMatch(svg, /<(image|script|foreignObject|linearGradient|radialGradient)\b/);
    assert.ok(packaged(container.icon));
  });

  it('offers a Get Started walkthrough whose steps all complete themselves', () => {
    assert.equal(walkthroughs.length, 1);
    const [walkthrough] = walkthroughs;
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['connect', 'models', 'keys', 'search', 'statistics', 'rules'],
    );
    for (const step of walkthrough.steps) {
      assert.ok(step.completionEvents?.length, `${step.id} has no completion event: it would never be checked`);
      for (const event of step.completionEvents) {
        const [, kind, value] = /^(onCommand|onContext|onView|onSettingChanged|onLink):(.+)$/.exec(event) ?? [];
        assert.ok(kind, `${step.id}: ${event} is no completion event VS Code knows`);
        if (kind === 'onCommand') assert.ok(isKnownCommand(value), `${step.id}: ${value} is not declared`);
        if (kind === 'onView') assert.ok(views.has(value), `${step.id}: no view ${value}`);
      }
    }
  });

  it('links walkthrough buttons only to declared commands and ships each step media in the package', () => {
    for (const step of walkthroughs[0].steps) {
      const links = [...step.description.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
      assert.ok(links.length > 0, `${step.id} offers no button`);
      for (const command of links) assert.ok(isKnownCommand(command), `${step.id}: ${command} is not declared`);
      const media = step.media.markdown ?? step.media.image;
      assert.ok(media, `${step.id} has no media`);
      assert.ok(existsSync(join(root, media)), `${media} is missing`);
      assert.ok(packaged(media), `${media} is left out of the package by .vscodeignore`);
      if (step.media.image) assert.ok(step.media.altText, `${step.id}: an image needs alt text`);
      if (step.media.markdown) {
        const text = readFileSync(join(root, step.media.markdown), 'utf8');
        assert.doesNotMatch(text, /<script|<iframe|javascript:/i);
      }
    }
  });

  it('fills the Marketplace fields a reader uses', () => {
    for (const category of ['Programming Languages', 'Linters', 'Notebooks', 'Testing', 'Data Science'])
      assert.ok(pkg.categories.includes(category), category);
    assert.ok(pkg.keywords.length >= 5 && pkg.keywords.length <= 30, 'the Marketplace takes at most 30 keywords');
    assert.match(pkg.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(pkg.galleryBanner.theme));
    assert.ok(existsSync(join(root, 'CHANGELOG.md')));
    assert.ok(packaged('CHANGELOG.md'));
  });

  it('keeps the README screenshots in the package, existing and small', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)].map((m) => ({ alt: m[1], path: m[2] }));
    assert.ok(images.length >= 5, 'one screenshot per area');
    let total = 0;
    for (const { alt, path } of images) {
      assert.ok(alt.trim(), `${path} has no alt text`);
      assert.match(path, /^media\/screenshots\/[\w-]+\.png$/);
      assert.ok(packaged(path));
      total += statSync(join(root, path)).size;
    }
    assert.ok(total < 600_000, `screenshots weigh ${total} bytes`);
  });
});
