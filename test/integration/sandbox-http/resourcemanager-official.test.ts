// The official @google-cloud/resource-manager client (REST fallback) searches and gets projects in
// the sandbox, and Cloudbench's own client reads the same answers: if Google's client accepts the
// sandbox's paths, paging and errors, the project picker is tested against the real wire shape.
import * as assert from 'node:assert/strict';
import { ProjectsClient } from '@google-cloud/resource-manager';
import { googleAuthLibrary } from 'google-gax';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { GoogleApiError } from '../../../src/core/google/errors';
import { ResourceManagerClient, projectNumber } from '../../../src/core/resourcemanager/client';
import type { Sandbox } from '../../../src/emulator/sandbox';
import { call, expectError, freshSandbox, qs } from './helpers';

function officialClient(sandbox: Sandbox): ProjectsClient {
  const port = Number(new URL(sandbox.http).port);
  const authClient = new googleAuthLibrary.OAuth2Client();
  authClient.setCredentials({ access_token: 'test-token', expiry_date: Date.now() + 3_600_000 });
  return new ProjectsClient({ fallback: 'rest', protocol: 'http', apiEndpoint: '127.0.0.1', port, authClient });
}

/** The google.rpc status of a failed official call (REST fallback: the JSON body travels on the error). */
function statusOf(err: { code?: unknown; message?: string; response?: { data?: unknown } }): string | undefined {
  let data: unknown = err.response?.data ?? err.message;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      data = undefined;
    }
  }
  const status = (data as { error?: { status?: string } } | undefined)?.error?.status;
  if (status) return status;
  return err.code === 7 ? 'PERMISSION_DENIED' : err.code === 3 ? 'INVALID_ARGUMENT' : String(err.code);
}

describe('Resource Manager v3 projects in the sandbox, through the official client', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let official: ProjectsClient;

  before(async () => {
    sandbox = await freshSandbox();
    official = officialClient(sandbox);
  });
  after(async () => {
    await official.close();
    await sandbox.close();
  });

  it('searchProjects pages through every project the caller can see, each page at most pageSize', async () => {
    const [firstPage, nextRequest] = await official.searchProjects({ pageSize: 2 }, { autoPaginate: false });
    assert.equal(firstPage.length, 2);
    assert.ok(nextRequest?.pageToken, 'a first page of 2 carries a page token');
    const ids: string[] = [];
    for await (const project of official.searchProjectsAsync({ pageSize: 2 })) ids.push(project.projectId!);
    assert.equal(new Set(ids).size, ids.length, 'no project comes twice across pages');
    assert.ok(ids.includes('cloudbench-demo'));
    assert.ok(ids.length >= 4, `expected the demo projects, got ${ids.join(', ')}`);
  });

  it('searchProjects filters by display name prefix, ID and state, case-insensitively', async () => {
    const ids = async (query: string): Promise<string[]> => {
      const out: string[] = [];
      for await (const p of official.searchProjectsAsync({ query })) out.push(p.projectId!);
      return out.sort();
    };
    assert.deepEqual(await ids('displayName:cloudbench*'), ['cloudbench-demo', 'cloudbench-staging']);
    assert.deepEqual(await ids('NAME:"fraud analytics"'), ['fraud-analytics-prod']);
    assert.deepEqual(await ids('id:ml-research-eu'), ['ml-research-eu']);
    const active = await ids('state:ACTIVE');
    assert.ok(!active.includes('vision-pilot-2023'), 'a project pending deletion is not ACTIVE');
    assert.ok(active.includes('cloudbench-demo'));
    // Several terms match a project when any of them does.
    assert.deepEqual(await ids('id:cloudbench-demo id:fraud-analytics-prod'), [
      'cloudbench-demo',
      'fraud-analytics-prod',
    ]);
  });

  it('getProject takes an ID or a number and returns the same project', async () => {
    const [byId] = await official.getProject({ name: 'projects/cloudbench-demo' });
    assert.equal(byId.name, 'projects/123456789012');
    assert.equal(byId.displayName, 'Cloudbench Demo');
    const [byNumber] = await official.getProject({ name: 'projects/123456789012' });
    assert.equal(byNumber.projectId, 'cloudbench-demo');
  });

  it('an unknown project is PERMISSION_DENIED, as Google answers for a project one may not see', async () => {
    await assert.rejects(official.getProject({ name: 'projects/no-such-project-42' }), (err: Error) => {
      assert.equal(statusOf(err), 'PERMISSION_DENIED');
      return true;
    });
    const raw = await call(sandbox, 'GET', '/v3/projects/no-such-project-42');
    expectError(raw, 403, 'PERMISSION_DENIED', /resourcemanager\.projects\.get.*or it may not exist/);
    assert.equal(raw.body.error.details[0].reason, 'IAM_PERMISSION_DENIED');
  });

  it('refuses a query field it does not know, a foreign page token and a call without credentials', async () => {
    expectError(
      await call(sandbox, 'GET', `/v3/projects:search${qs({ query: 'colour:red' })}`),
      400,
      'INVALID_ARGUMENT',
    );
    const first = await call(sandbox, 'GET', `/v3/projects:search${qs({ pageSize: 1, query: 'state:ACTIVE' })}`);
    const token = first.body.nextPageToken as string;
    expectError(
      await call(sandbox, 'GET', `/v3/projects:search${qs({ pageSize: 1, pageToken: token })}`),
      400,
      'INVALID_ARGUMENT',
      /page token/,
    );
    expectError(await call(sandbox, 'GET', '/v3/projects:search', { auth: false }), 401, 'UNAUTHENTICATED');
  });

  it("Cloudbench's client reads the same projects and the same refusal", async () => {
    const ours = new ResourceManagerClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource() });
    const seen: string[] = [];
    for await (const p of ours.iterateProjects({ query: 'state:ACTIVE', pageSize: 1 })) seen.push(p.projectId);
    const officialIds: string[] = [];
    for await (const p of official.searchProjectsAsync({ query: 'state:ACTIVE' })) officialIds.push(p.projectId!);
    assert.deepEqual(seen.sort(), officialIds.sort());
    const demo = await ours.getProject('123456789012');
    assert.equal(demo.projectId, 'cloudbench-demo');
    assert.equal(projectNumber(demo), '123456789012');
    await assert.rejects(
      ours.getProject('no-such-project-42'),
      (err: unknown) => err instanceof GoogleApiError && err.status === 'PERMISSION_DENIED',
    );
  });
});
