#!/usr/bin/env node
// vsix KB: size of the package a user installs (npm run package → cloudbench-<version>.vsix).
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const vsix = join(ROOT, `cloudbench-${version}.vsix`);
const bytes = statSync(vsix).size;
// The zip's end-of-central-directory record holds the entry count (last 22 bytes when there is no comment).
const buf = readFileSync(vsix);
const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
const entries = eocd >= 0 ? buf.readUInt16LE(eocd + 10) : NaN;
console.log(`vsix KB: ${(bytes / 1024).toFixed(1)} KB`);
console.log(`vsix files: ${entries} files`);
