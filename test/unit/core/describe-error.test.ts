import { strict as assert } from 'node:assert';
import {
  CancelledError,
  GoogleApiError,
  STATUS_NAMES,
  describeError,
  describeFailure,
  isExpectedFailure,
  statusFromGrpcCode,
} from '../../../src/core/google/errors';
import { CredentialsError } from '../../../src/core/google/credentials';

/** The HTTP statuses Vertex AI, API Keys and the Search API answer with (Google's mapping, plus 412). */
const HTTP_STATUSES: Array<[number, string]> = [
  [400, 'INVALID_ARGUMENT'],
  [401, 'UNAUTHENTICATED'],
  [403, 'PERMISSION_DENIED'],
  [404, 'NOT_FOUND'],
  [409, 'ABORTED'],
  [412, 'FAILED_PRECONDITION'],
  [429, 'RESOURCE_EXHAUSTED'],
  [499, 'CANCELLED'],
  [500, 'INTERNAL'],
  [501, 'UNIMPLEMENTED'],
  [502, 'INTERNAL'],
  [503, 'UNAVAILABLE'],
  [504, 'DEADLINE_EXCEEDED'],
];

describe('describeError: one description per failure', () => {
  it('every gRPC status code reads as its status name, the message and a next step', () => {
    for (let code = 0; code < STATUS_NAMES.length; code++) {
      const status = statusFromGrpcCode(code);
      const err = GoogleApiError.fromGrpc({ code, details: `server says ${code}` }, 'ListModels');
      const { what, next } = describeFailure(err);
      assert.equal(what, `server says ${code} (${status})`, `code ${code}`);
      assert.ok(next && next.length > 20, `code ${code} (${status}) has a next step`);
      assert.equal(describeError(err), `${what}. ${next}`);
    }
  });

  it('different statuses give different next steps', () => {
    const steps = new Set(STATUS_NAMES.map((s) => describeFailure(new GoogleApiError(s, 'x')).next));
    assert.equal(steps.size, STATUS_NAMES.length);
  });

  it('every HTTP status the services answer maps to its status, also when the body says UNKNOWN or nothing', () => {
    for (const [http, status] of HTTP_STATUSES) {
      for (const body of [undefined, { error: { code: http, message: 'm', status: 'UNKNOWN' } }]) {
        const err = GoogleApiError.fromRest(http, body, 'apikeys.keys.get');
        assert.equal(err.status, status, `HTTP ${http} with ${JSON.stringify(body)}`);
        const text = describeError(err);
        assert.doesNotMatch(text, /\(UNKNOWN\)/, `HTTP ${http}: ${text}`);
        assert.match(text, new RegExp(status), `HTTP ${http}: ${text}`);
      }
    }
  });

  it('an HTTP 412 on key delete says the key changed and to refresh, never "HTTP 412. (UNKNOWN)"', () => {
    const err = GoogleApiError.fromRest(
      412,
      { error: { code: 412, message: 'Injected fault: HTTP 412.', status: 'UNKNOWN' } },
      'apikeys.keys.delete',
    );
    const text = describeError(err);
    assert.match(text, /HTTP 412, FAILED_PRECONDITION/);
    assert.match(text, /The key changed since it was loaded .*refresh and try again/);
    assert.doesNotMatch(text, /UNKNOWN/);
  });

  it('ABORTED on key patch names the stale etag; ABORTED elsewhere says another change got there first', () => {
    const patch = GoogleApiError.fromRest(
      409,
      { error: { code: 409, message: 'The etag does not match.', status: 'ABORTED' } },
      'apikeys.keys.patch',
    );
    assert.match(
      describeError(patch),
      /The key changed since it was loaded \(its etag is stale\); refresh and try again/,
    );
    const other = new GoogleApiError('ABORTED', 'Transaction aborted.', { method: 'ListModels' });
    assert.match(describeError(other), /Another change to the same resource got there first; refresh and try again/);
  });

  it('FAILED_PRECONDITION with no reason names the method preconditions (create, undelete)', () => {
    const create = GoogleApiError.fromRest(
      400,
      { error: { code: 400, message: 'Injected fault: FAILED_PRECONDITION.', status: 'FAILED_PRECONDITION' } },
      'apikeys.keys.create',
    );
    assert.match(describeError(create), /To create an API key, these must hold: .*one application restriction/);
    const undelete = new GoogleApiError('FAILED_PRECONDITION', 'Precondition check failed.', {
      method: 'apikeys.keys.undelete',
    });
    assert.match(describeError(undelete), /deleted at most 30 days ago/);
  });

  it('FAILED_PRECONDITION on a delete says what to change first, by the reason the message gives', () => {
    const generic = /not in a state that allows this/;
    const deployed = new GoogleApiError(
      'FAILED_PRECONDITION',
      'The Model "projects/p/locations/us-central1/models/7" is deployed or being deployed at the following Endpoint(s): projects/p/locations/us-central1/endpoints/3. Please undeploy the model before retry.',
      { method: '/google.cloud.aiplatform.v1beta1.ModelService/DeleteModel' },
    );
    assert.match(
      describeError(deployed),
      /\(FAILED_PRECONDITION\)\. Undeploy the model from every endpoint the message names/,
    );
    assert.doesNotMatch(describeError(deployed), generic);
    const onlyVersion = new GoogleApiError(
      'FAILED_PRECONDITION',
      'projects/p/locations/l/models/7@1 is the only version of the model and cannot be deleted on its own; use DeleteModel to delete the model.',
      { method: 'DeleteModelVersion' },
    );
    assert.match(describeError(onlyVersion), /delete the whole model instead/);
    const defaultAlias = new GoogleApiError('FAILED_PRECONDITION', 'The version holds the default alias.', {
      method: 'DeleteModelVersion',
    });
    assert.match(describeError(defaultAlias), /Move the "default" alias to another version first/);
    const key = new GoogleApiError('FAILED_PRECONDITION', 'Precondition check failed.', {
      method: 'apikeys.keys.delete',
    });
    assert.match(describeError(key), /refresh the API Keys view .*"Deleted keys"/);
    assert.doesNotMatch(describeError(key), generic);
    // Other methods keep the general advice.
    const other = new GoogleApiError('FAILED_PRECONDITION', 'Something else.', { method: 'ExportModel' });
    assert.match(describeError(other), generic);
  });

  it('a deadline reads as DEADLINE_EXCEEDED with the setting to raise, whether a status or a fired timeout', () => {
    const status = new GoogleApiError('DEADLINE_EXCEEDED', 'apikeys.keys.list took longer than 3 s', {
      method: 'apikeys.keys.list',
    });
    assert.match(describeError(status), /DEADLINE_EXCEEDED.*cloudbench\.requests\.timeoutSeconds/);
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    assert.match(describeError(timeout), /DEADLINE_EXCEEDED.*cloudbench\.requests\.timeoutSeconds/);
  });

  it('network failures read as UNAVAILABLE with the code, also inside fetch failed', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    assert.match(describeError(reset), /could not be reached \(ECONNRESET, UNAVAILABLE\).*proxy/);
    // A refused connection names the address; the loopback is the built-in sandbox.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    assert.match(describeError(refused), /^The sandbox at 127\.0\.0\.1:1 refused the connection \(UNAVAILABLE\)/);
    const grpcRefused = new GoogleApiError(
      'UNAVAILABLE',
      'No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:18402. Resolution note: .',
    );
    assert.match(describeError(grpcRefused), /^The sandbox at 127\.0\.0\.1:18402 refused the connection/);
    assert.doesNotMatch(describeError(grpcRefused), /Last error|Resolution note/);
    const remote = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:443'), { code: 'ECONNREFUSED' });
    assert.match(
      describeError(remote),
      /^The service at 10\.1\.2\.3:443 refused the connection \(UNAVAILABLE\).*proxy/,
    );
    const fetchFailed = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND x.invalid'), { code: 'ENOTFOUND' }),
    });
    assert.match(describeError(fetchFailed), /ENOTFOUND, UNAVAILABLE/);
  });

  it("Cloudbench's own errors keep their message (they already say what to do); a cancel is Cancelled.", () => {
    const creds = new CredentialsError('No Google Cloud credentials were found: run gcloud auth.');
    assert.equal(describeError(creds), creds.message);
    assert.equal(describeError(new CancelledError()), 'Cancelled.');
  });
});

describe('isExpectedFailure: which failures are logged without a stack', () => {
  it('user input, permissions, not found, throttling, network and deadlines are expected', () => {
    for (const status of [
      'INVALID_ARGUMENT',
      'NOT_FOUND',
      'ALREADY_EXISTS',
      'PERMISSION_DENIED',
      'UNAUTHENTICATED',
      'RESOURCE_EXHAUSTED',
      'FAILED_PRECONDITION',
      'ABORTED',
      'OUT_OF_RANGE',
      'UNAVAILABLE',
      'DEADLINE_EXCEEDED',
      'CANCELLED',
    ] as const)
      assert.ok(isExpectedFailure(new GoogleApiError(status, 'x')), status);
    assert.ok(isExpectedFailure(Object.assign(new Error('socket'), { code: 'ECONNRESET' })));
    assert.ok(isExpectedFailure(new CredentialsError('none')));
    assert.ok(isExpectedFailure(new Error('The file is not a JSON evaluation export.')));
  });

  it('server faults and programming errors are unexpected', () => {
    for (const status of ['UNKNOWN', 'INTERNAL', 'DATA_LOSS', 'UNIMPLEMENTED'] as const)
      assert.ok(!isExpectedFailure(new GoogleApiError(status, 'x')), status);
    assert.ok(!isExpectedFailure(new TypeError("Cannot read properties of undefined (reading 'name')")));
    assert.ok(!isExpectedFailure('a string thrown'));
  });
});
