// Looks for secrets where none may be: log text, settings, state, files. Known secrets (key strings
// made during a run, tokens handed out, a private key's body) are searched for exactly; the generic
// shapes (AIza… key strings, ya29. tokens, bearer headers, PEM private keys) catch everything else.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface Finding {
  where: string;
  what: string;
  excerpt: string;
}

const SHAPES: Array<[string, RegExp]> = [
  ['API key string', /AIza[0-9A-Za-z_-]{35}/],
  ['OAuth access token', /\bya29\.[0-9A-Za-z_.-]{8,}/],
  ['bearer credential', /\bbearer\s+(?!…\(redacted\))[A-Za-z0-9._~+/=-]{8,}/i],
  ['private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['private key field', /"private_key"\s*:\s*"(?!\(redacted\))[^"]{16,}/],
];

export function scanText(where: string, text: string, known: string[] = []): Finding[] {
  const found: Finding[] = [];
  const excerpt = (i: number): string => JSON.stringify(text.slice(Math.max(0, i - 40), i + 60));
  for (const [what, pattern] of SHAPES) {
    const m = pattern.exec(text);
    if (m) found.push({ where, what, excerpt: excerpt(m.index) });
  }
  for (const secret of known) {
    if (secret.length < 8) continue;
    const i = text.indexOf(secret);
    if (i >= 0) found.push({ where, what: 'a known secret', excerpt: excerpt(i) });
  }
  return found;
}

/** Every file under `dir` (skipping `skip`), read as text. */
export function scanTree(dir: string, known: string[] = [], skip: (path: string) => boolean = () => false): Finding[] {
  if (!existsSync(dir)) return [];
  const found: Finding[] = [];
  const walk = (path: string): void => {
    if (skip(path)) return;
    const st = statSync(path);
    if (st.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    else if (st.isFile() && st.size < 64 * 1024 * 1024)
      found.push(...scanText(path, readFileSync(path, 'latin1'), known));
  };
  walk(dir);
  return found;
}

/** The body lines of a PEM block: enough to recognise the key in any encoding of the JSON around it. */
export function pemBodyLines(pem: string): string[] {
  return pem
    .split('\n')
    .filter((l) => l && !l.startsWith('-----'))
    .slice(0, 3);
}
