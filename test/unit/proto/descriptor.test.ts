import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as protobuf from 'protobufjs';
import * as protoLoader from '@grpc/proto-loader';
import {
  AIPLATFORM,
  ServiceNames,
  decodeMessage,
  encodeMessage,
  grpcServiceDefinition,
  loadProtoRoot,
  normalizeMessage,
  operationTypes,
  packAny,
  unpackAny,
} from '../../../src/core/proto';

const repoRoot = path.resolve(__dirname, '../../..');
const officialDirs = [
  path.join(repoRoot, 'node_modules/@google-cloud/aiplatform/build/protos'),
  path.join(repoRoot, 'node_modules/google-gax/build/protos'),
];

/** The official protos, parsed the slow way, as the reference the compact descriptor must agree with. */
function loadOfficial(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => {
    for (const dir of officialDirs) {
      const candidate = path.join(dir, target);
      try {
        require('node:fs').accessSync(candidate);
        return candidate;
      } catch {
        // try the next include directory
      }
    }
    return target;
  };
  root.loadSync(
    [
      'google/cloud/aiplatform/v1beta1/model_service.proto',
      'google/cloud/aiplatform/v1beta1/endpoint_service.proto',
      'google/longrunning/operations.proto',
      'google/iam/v1/iam_policy.proto',
      'google/cloud/location/locations.proto',
      'google/rpc/error_details.proto',
      'google/rpc/code.proto',
    ],
    { keepCase: false },
  );
  root.resolveAll();
  return root;
}

describe('compact proto descriptor', function () {
  this.timeout(60_000);
  let official: protobuf.Root;
  before(() => {
    official = loadOfficial();
  });

  it('serves every RPC of the official ModelService, Operations, IAMPolicy and Locations', () => {
    for (const name of [ServiceNames.model, ServiceNames.operations, ServiceNames.iamPolicy, ServiceNames.locations]) {
      const expected = Object.keys(official.lookupService(name).methods).sort();
      const actual = Object.keys(loadProtoRoot().lookupService(name).methods).sort();
      assert.deepEqual(actual, expected, name);
    }
    const endpoint = Object.keys(loadProtoRoot().lookupService(ServiceNames.endpoint).methods);
    for (const m of [
      'CreateEndpoint',
      'GetEndpoint',
      'ListEndpoints',
      'DeleteEndpoint',
      'DeployModel',
      'UndeployModel',
    ]) {
      assert.ok(endpoint.includes(m), m);
    }
  });

  it('keeps the official field numbers and types of every message it holds', () => {
    let checked = 0;
    const visit = (ns: protobuf.NamespaceBase): void => {
      for (const child of ns.nestedArray) {
        if (child instanceof protobuf.Type) {
          const reference = official.lookupType(child.fullName);
          for (const field of child.fieldsArray) {
            const ref = reference.fields[field.name];
            assert.ok(ref, `${child.fullName}.${field.name} missing in the official proto`);
            assert.equal(field.id, ref.id, `${child.fullName}.${field.name} number`);
            assert.equal(field.repeated, ref.repeated, `${child.fullName}.${field.name} repeated`);
            field.resolve();
            ref.resolve();
            assert.equal(
              field.resolvedType?.fullName ?? field.type,
              ref.resolvedType?.fullName ?? ref.type,
              `${child.fullName}.${field.name} type`,
            );
            checked++;
          }
          assert.equal(child.fieldsArray.length, reference.fieldsArray.length, `${child.fullName} field count`);
        }
        if (child instanceof protobuf.Namespace || child instanceof protobuf.Type) visit(child);
      }
    };
    visit(loadProtoRoot());
    assert.ok(checked > 500, `only ${checked} fields checked`);
  });

  it('round-trips a model with versions, labels and timestamps', () => {
    const model = {
      name: 'projects/p/locations/us-central1/models/m1',
      versionId: '2',
      versionAliases: ['default', 'golden'],
      displayName: 'churn',
      labels: { team: 'risk' },
      createTime: { seconds: 1_700_000_000, nanos: 5 },
      supportedExportFormats: [{ id: 'tf-saved-model', exportableContents: ['ARTIFACT'] }],
    };
    const decoded = decodeMessage<Record<string, any>>(
      `${AIPLATFORM}.Model`,
      encodeMessage(`${AIPLATFORM}.Model`, model),
    );
    assert.equal(decoded.name, model.name);
    assert.deepEqual(decoded.versionAliases, ['default', 'golden']);
    assert.deepEqual(decoded.labels, { team: 'risk' });
    assert.equal(decoded.createTime.seconds, '1700000000');
    assert.deepEqual(decoded.supportedExportFormats[0].exportableContents, ['ARTIFACT']);
    assert.equal(decoded.description, '', 'defaults are filled in');
    assert.deepEqual(decoded.deployedModels, []);
  });

  it('packs and unpacks Any, refusing an unexpected type', () => {
    const any = packAny(`${AIPLATFORM}.ExportModelResponse`, {});
    assert.equal(any.type_url, `type.googleapis.com/${AIPLATFORM}.ExportModelResponse`);
    const meta = packAny(`${AIPLATFORM}.DeleteOperationMetadata`, { genericMetadata: { createTime: { seconds: 10 } } });
    const back = unpackAny<Record<string, any>>(meta, `${AIPLATFORM}.DeleteOperationMetadata`);
    assert.equal(back.genericMetadata.createTime.seconds, '10');
    assert.throws(() => unpackAny(meta, `${AIPLATFORM}.CopyModelOperationMetadata`), /expected/);
    assert.throws(() => unpackAny({ type_url: '', value: new Uint8Array() }), /type URL/);
    // An Any nested in a message survives the wire, as operations carry their metadata.
    const op = decodeMessage<Record<string, any>>(
      'google.longrunning.Operation',
      encodeMessage('google.longrunning.Operation', {
        name: 'operations/1',
        done: true,
        metadata: meta,
        response: any,
      }),
    );
    assert.equal(op.result, 'response');
    assert.equal(
      unpackAny<Record<string, any>>(op.metadata, `${AIPLATFORM}.DeleteOperationMetadata`).genericMetadata.createTime
        .seconds,
      '10',
    );
    assert.equal(
      unpackAny<Record<string, any>>({ type_url: meta.type_url, value: Buffer.from(meta.value).toString('base64') })
        .genericMetadata.createTime.seconds,
      '10',
    );
  });

  it('names the LRO result and metadata types of each long-running method', () => {
    assert.deepEqual(operationTypes(ServiceNames.model, 'DeleteModel'), {
      responseType: 'google.protobuf.Empty',
      metadataType: `${AIPLATFORM}.DeleteOperationMetadata`,
    });
    assert.deepEqual(operationTypes(ServiceNames.model, 'CopyModel'), {
      responseType: `${AIPLATFORM}.CopyModelResponse`,
      metadataType: `${AIPLATFORM}.CopyModelOperationMetadata`,
    });
    assert.equal(operationTypes(ServiceNames.model, 'GetModel'), undefined);
  });

  it('builds gRPC service definitions that put the same bytes on the wire as @grpc/proto-loader', () => {
    const ours = grpcServiceDefinition(ServiceNames.model);
    const reference = protoLoader.fromJSON(loadProtoRoot().toJSON(), {
      longs: String,
      enums: String,
      defaults: true,
      oneofs: true,
    })[ServiceNames.model] as protoLoader.ServiceDefinition;
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(reference).sort());
    const request = {
      parent: 'projects/p/locations/l',
      filter: 'labels.team=risk',
      pageSize: 7,
      pageToken: 'abc',
      readMask: { paths: ['name'] },
    };
    const method = ours.ListModels;
    assert.equal(method.path, `/${ServiceNames.model}/ListModels`);
    assert.deepEqual(method.requestSerialize(request), reference.ListModels.requestSerialize(request));
    const response = { models: [{ name: 'm', labels: { a: 'b' } }], nextPageToken: 't' };
    const bytes = reference.ListModels.responseSerialize(response);
    assert.deepEqual(method.responseDeserialize(bytes), reference.ListModels.responseDeserialize(bytes));
  });

  it('normalizes plain objects through a message type', () => {
    const n = normalizeMessage<Record<string, any>>(`${AIPLATFORM}.Model`, { displayName: 'x', unknownField: 1 });
    assert.equal(n.displayName, 'x');
    assert.equal(n.unknownField, undefined);
    assert.deepEqual(n.versionAliases, []);
  });

  it('is what scripts/gen-protos.mjs generates from the protos in node_modules (no stale commit)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gen-protos-'));
    try {
      const out = path.join(dir, 'aiplatform.json');
      execFileSync(process.execPath, [path.join(repoRoot, 'scripts/gen-protos.mjs')], {
        env: { ...process.env, GEN_PROTOS_OUT: out },
        stdio: 'pipe',
      });
      const committed = readFileSync(path.join(repoRoot, 'src/core/proto/aiplatform.json'), 'utf8');
      assert.equal(readFileSync(out, 'utf8'), committed);
      assert.ok(committed.length < 200_000, `the descriptor stays compact (${committed.length} bytes)`);
      // The precompiled codecs come from the same run (and the installed protobufjs' generators).
      const committedCodecs = readFileSync(path.join(repoRoot, 'src/core/proto/generated/codecs.js'), 'utf8');
      assert.ok(readFileSync(path.join(dir, 'generated/codecs.js'), 'utf8') === committedCodecs, 'codecs.js is stale');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
