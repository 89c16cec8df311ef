import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../fakes/vscode';
import type * as SearchControllerModule from '../../../src/features/search/controller';

useFakeVscode();

const { queryTitle } = require('../../../src/features/search/controller') as typeof SearchControllerModule;

describe('results panel title', () => {
  it('leaves out comments and joins the query onto one line', () => {
    assert.equal(
      queryTitle('// Blocked sign-ins\nmetadata.event_type = "USER_LOGIN"\n  security_result.action = "BLOCK"'),
      'metadata.event_type = "USER_LOGIN" security_result.action = "BLOCK"',
    );
    assert.equal(queryTitle('/* many\nlines */ principal.hostname = "a"'), 'principal.hostname = "a"');
    assert.equal(queryTitle('target.url = "https://example.com/x"'), 'target.url = "https://example.com/x"');
  });

  it('names a query that is only comments', () => {
    assert.equal(queryTitle('// nothing yet\n'), 'query');
  });
});
