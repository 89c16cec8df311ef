import { strict as assert } from 'node:assert';
import { validateReferrer } from '../../../src/emulator/keys-data/validate';

describe('sandbox referrer validation', () => {
  it('accepts bracketed IPv6 hosts with and without a port', () => {
    for (const r of ['[2001:4860::1]:8080/*', '[2001:4860::1]/*', 'https://[2001:db8::1]:443/path'])
      validateReferrer(r);
  });

  it('refuses a broken IPv6 host or a bad port with a reason', () => {
    assert.throws(() => validateReferrer('[2001::1]x/*'), /only ":port" may follow/);
    assert.throws(() => validateReferrer('[2001::1'), /no closing "\]"/);
    assert.throws(() => validateReferrer('[2001::1]:99999/*'), /not a port number/);
    assert.throws(() => validateReferrer('www.exa*mple.com/*'), /middle of a host/);
  });
});
