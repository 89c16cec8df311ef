// The query bar closes brackets and quotes as the editor does (one language-configuration.json),
// and neither closes `/`: `$ratio = 10 / 2` must not become `10 / 2/`.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { udmLanguageConfiguration } from '../../../src/webview/querybar/language';

const config = JSON.parse(readFileSync(join(__dirname, '../../../language-configuration.json'), 'utf8')) as {
  autoClosingPairs: Array<{ open: string; close: string }>;
  wordPattern: string;
};

describe('UDM language configuration', () => {
  it('does not auto-close / (a division and a regex start alike)', () => {
    assert.ok(!config.autoClosingPairs.some((p) => p.open === '/'), JSON.stringify(config.autoClosingPairs));
  });

  it('the query bar uses the editor pairs', () => {
    assert.deepEqual(udmLanguageConfiguration.autoClosingPairs, config.autoClosingPairs);
    assert.deepEqual(
      (udmLanguageConfiguration.autoClosingPairs ?? []).map((p) => p.open),
      ['(', '[', '"', '`'],
    );
  });

  it('closes only what typing can step over: single characters, so `x = 1 /* c */` leaves no stray ` */`', () => {
    for (const file of ['language-configuration.json', 'syntaxes/yaral.language-configuration.json']) {
      const pairs = (
        JSON.parse(readFileSync(join(__dirname, '../../..', file), 'utf8')) as {
          autoClosingPairs: Array<{ open: string; close: string }>;
        }
      ).autoClosingPairs;
      assert.deepEqual(
        pairs.filter((p) => p.close.length !== 1),
        [],
        `${file}: VS Code and Monaco type over single-character closes only`,
      );
    }
  });

  it('the query bar finds words as the editor does: a lone % or $ is no word, so it triggers completion', () => {
    const pattern = udmLanguageConfiguration.wordPattern!;
    assert.equal(pattern.source, new RegExp(config.wordPattern).source);
    const words = (text: string): string[] => text.match(new RegExp(pattern.source, 'g')) ?? [];
    assert.deepEqual(words('principal.hostname in %'), ['principal', 'hostname', 'in']);
    assert.deepEqual(words('in %bad_hosts and $h = 1'), ['in', '%bad_hosts', 'and', '$h', '1']);
  });
});
