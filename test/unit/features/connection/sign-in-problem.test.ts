// Credentials found but refused are named for what they are in the welcome views, and the views'
// text carries no Markdown that viewsWelcome would show literally (it renders links only).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useFakeVscode } from '../../fakes/vscode';
import { CredentialsError } from '../../../../src/core/google/credentials';
import { TokenDestinationError } from '../../../../src/core/google/token-policy';
import type * as ProblemModule from '../../../../src/features/shared/sign-in-problem';

useFakeVscode();
const { signInProblemOf } = require('../../../../src/features/shared/sign-in-problem') as typeof ProblemModule;

interface Welcome {
  view: string;
  contents: string;
  when?: string;
}
const welcome = (
  JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as {
    contributes: { viewsWelcome: Welcome[] };
  }
).contributes.viewsWelcome;

describe('sign-in problems in the welcome views', () => {
  it('tells credentials of another universe and an unreachable token host from "none found"', () => {
    assert.equal(
      signInProblemOf(new CredentialsError('x', undefined, { problem: 'universe-mismatch' })),
      'otherUniverse',
    );
    assert.equal(
      signInProblemOf(new CredentialsError('x', undefined, { problem: 'unreachable' })),
      'tokenHostUnreachable',
    );
    assert.equal(signInProblemOf(new CredentialsError('x', undefined, { problem: 'revoked' })), 'refused');
    assert.equal(signInProblemOf(new TokenDestinationError('x', 'https://h')), 'refused');
    assert.equal(signInProblemOf(new CredentialsError('x', undefined, { problem: 'missing' })), '');
    assert.equal(signInProblemOf(new Error('no credentials')), '');
  });

  it('has no backticks or other Markdown but links in any welcome text', () => {
    for (const w of welcome) {
      assert.doesNotMatch(w.contents, /`/, `${w.view}: ${w.contents}`);
      assert.doesNotMatch(w.contents, /\*\*|__/, `${w.view}: ${w.contents}`);
    }
  });

  for (const view of ['cloudbench.models', 'cloudbench.keys']) {
    it(`${view}: each signed-out state has exactly one text, naming the setting to fix`, () => {
      const texts = (problem: string): Welcome[] =>
        welcome.filter(
          (w) =>
            w.view === view &&
            w.when?.includes('cloudbench.connection == signedOut') &&
            (problem
              ? w.when.includes(`cloudbench.signInProblem == ${problem}`)
              : w.when.includes('!cloudbench.signInProblem')),
        );
      assert.equal(texts('').length, 1);
      assert.match(texts('')[0].contents, /not signed in/);
      assert.match(texts('otherUniverse')[0].contents, /cloudbench\.universeDomain/);
      assert.match(texts('otherUniverse')[0].contents, /cloudbench\.credentialsFile/);
      assert.match(texts('tokenHostUnreachable')[0].contents, /token host could not be reached/);
      assert.equal(texts('refused').length, 1);
      for (const p of ['otherUniverse', 'tokenHostUnreachable', 'refused'])
        assert.doesNotMatch(texts(p)[0].contents, /not signed in/);
    });
  }
});
