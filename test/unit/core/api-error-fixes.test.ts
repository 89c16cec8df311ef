import { strict as assert } from 'node:assert';
import { GoogleApiError, apiErrorFixes, describeError, isScopeInsufficient } from '../../../src/core/google/errors';

const SCOPED_LOGIN =
  'gcloud auth application-default login --scopes=https://www.googleapis.com/auth/cloud-platform,https://www.googleapis.com/auth/chronicle-backstory';

describe('API failures with a known fix', () => {
  it('a missing scope, said in the message or only in the ErrorInfo reason, offers the scoped login to copy', () => {
    const byMessage = GoogleApiError.fromRest(
      403,
      { error: { code: 403, message: 'Request had insufficient authentication scopes.', status: 'PERMISSION_DENIED' } },
      'ListReferenceLists',
    );
    const byReason = GoogleApiError.fromRest(403, {
      error: {
        code: 403,
        message: 'The caller does not have permission',
        status: 'PERMISSION_DENIED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' }],
      },
    });
    for (const err of [byMessage, byReason]) {
      assert.equal(isScopeInsufficient(err), true);
      assert.ok(describeError(err).includes(SCOPED_LOGIN), describeError(err));
      assert.deepEqual(
        apiErrorFixes(err).map((f) => f.copy ?? f.command),
        [SCOPED_LOGIN, 'cloudbench.chooseSecOpsCredentialsFile'],
      );
    }
  });

  it('other refusals offer no scope fix', () => {
    const role = GoogleApiError.fromRest(403, {
      error: { code: 403, message: "Permission 'apikeys.keys.list' denied", status: 'PERMISSION_DENIED' },
    });
    const unauth = new GoogleApiError('UNAUTHENTICATED', 'insufficient authentication scopes');
    for (const err of [role, unauth, new Error('insufficient authentication scopes'), undefined]) {
      assert.equal(isScopeInsufficient(err), false);
      assert.deepEqual(apiErrorFixes(err), []);
    }
  });
});
