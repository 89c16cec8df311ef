// The Root of src/core/proto takes the codecs scripts/gen-protos.mjs precompiled (constructor, encode,
// decode, fromObject, toObject of every message type) instead of generating them at run time. They
// must be protobufjs' own: the same source as its generators produce, the same bytes and objects as a
// Root that generates them, and nothing generated from strings on the way.
import assert from 'node:assert/strict';
import * as protobuf from 'protobufjs/light';
import { buildLazyRoot, type PrecompiledCodecs } from '../../../src/core/proto';

const descriptor = require('../../../src/core/proto/aiplatform.json') as protobuf.INamespace;
const { codecs } = require('../../../src/core/proto/generated/codecs.js') as {
  codecs: Record<string, PrecompiledCodecs>;
};

function messageTypes(ns: protobuf.NamespaceBase, out: protobuf.Type[] = []): protobuf.Type[] {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type) out.push(nested);
    if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) messageTypes(nested, out);
  }
  return out;
}

const freshDescriptor = (): protobuf.INamespace => JSON.parse(JSON.stringify(descriptor)) as protobuf.INamespace;
const name = (type: protobuf.Type): string => type.fullName.slice(1);
const V = 'google.cloud.aiplatform.v1beta1';

/** Counts protobufjs code generation (every generator goes through util.codegen). */
function countCodegen<T>(run: () => T): { result: T; generated: number } {
  const util = protobuf.util as unknown as { codegen: (...args: unknown[]) => unknown };
  const original = util.codegen;
  let generated = 0;
  util.codegen = (...args: unknown[]) => {
    generated++;
    return original(...args);
  };
  try {
    return { result: run(), generated };
  } finally {
    util.codegen = original;
  }
}

const sample = {
  name: `projects/p/locations/us-central1/models/42`,
  displayName: 'churn',
  versionAliases: ['default', 'prod'],
  labels: { team: 'ml', env: 'prod' },
  createTime: { seconds: '1767225600', nanos: 5 },
  encryptionSpec: { kmsKeyName: 'k' },
  supportedExportFormats: [{ id: 'tf-saved-model', exportableContents: ['ARTIFACT', 'IMAGE'] }],
  deployedModels: [{ endpoint: 'e', deployedModelId: '7' }],
  containerSpec: {
    imageUri: 'us-docker.pkg.dev/x',
    env: [{ name: 'A', value: 'b' }],
    ports: [{ containerPort: 8080 }],
  },
  metadata: {
    structValue: { fields: { k: { numberValue: 1.5 }, l: { listValue: { values: [{ boolValue: true }] } } } },
  },
  predictSchemata: { instanceSchemaUri: 'gs://b/i.yaml' },
};

describe('precompiled proto codecs (src/core/proto/generated/codecs.js)', () => {
  it('has protobufjs’ generated code for every message type of the descriptor', () => {
    const eager = protobuf.Root.fromJSON(freshDescriptor());
    const types = messageTypes(eager);
    assert.deepEqual(Object.keys(codecs).sort(), types.map(name).sort());
    const body = (fn: unknown): string => {
      const text = String(fn);
      return text.slice(text.indexOf('return ') + 'return '.length, text.lastIndexOf(';'));
    };
    for (const type of types) {
      for (const field of type.fieldsArray) field.resolve();
      const c = codecs[name(type)];
      assert.equal(body(c.ctor), protobuf.Type.generateConstructor(type).toString(), `${name(type)} ctor`);
      assert.equal(body(c.encode), protobuf.encoder(type).toString(), `${name(type)} encode`);
      assert.equal(body(c.decode), protobuf.decoder(type).toString(), `${name(type)} decode`);
      assert.equal(body(c.fromObject), protobuf.converter.fromObject(type).toString(), `${name(type)} fromObject`);
      assert.equal(body(c.toObject), protobuf.converter.toObject(type).toString(), `${name(type)} toObject`);
    }
  });

  it('encodes and decodes as a Root that generates its codecs, without generating any', () => {
    const generatedRoot = protobuf.Root.fromJSON(freshDescriptor());
    const { result: precompiledRoot } = countCodegen(() => buildLazyRoot(freshDescriptor(), { precompiled: codecs }));
    const conversion = { longs: String, enums: String, defaults: true, oneofs: true };
    for (const typeName of [`${V}.Model`, `${V}.ListModelsResponse`, 'google.longrunning.Operation']) {
      const value =
        typeName === `${V}.Model`
          ? sample
          : typeName === `${V}.ListModelsResponse`
            ? { models: [sample, { name: 'm2' }], nextPageToken: 't' }
            : { name: 'operations/1', done: true, error: { code: 5, message: 'gone' } };
      const want = generatedRoot.lookupType(typeName);
      const { result, generated } = countCodegen(() => {
        const got = precompiledRoot.lookupType(typeName);
        const bytes = got.encode(got.fromObject(value)).finish();
        return { bytes, object: got.toObject(got.decode(bytes), conversion) };
      });
      assert.equal(generated, 0, `${typeName}: no code generated at run time`);
      const wantBytes = want.encode(want.fromObject(value)).finish();
      assert.deepEqual(Buffer.from(result.bytes), Buffer.from(wantBytes), typeName);
      assert.deepEqual(result.object, want.toObject(want.decode(wantBytes), conversion), typeName);
    }
    const model = precompiledRoot.lookupType(`${V}.Model`);
    assert.ok(model.decode(model.encode(model.fromObject(sample)).finish()) instanceof model.ctor);
  });

  it('resolves features before protobufjs generates anything for the Root (verify, types without codecs)', () => {
    const generatedRoot = protobuf.Root.fromJSON(freshDescriptor());
    const want = generatedRoot.lookupType(`${V}.Model`);
    const withoutCodecs = buildLazyRoot(freshDescriptor(), { precompiled: {} });
    const withCodecs = buildLazyRoot(freshDescriptor(), { precompiled: codecs });
    for (const root of [withoutCodecs, withCodecs]) {
      const model = root.lookupType(`${V}.Model`);
      assert.deepEqual(
        Buffer.from(model.encode(model.fromObject(sample)).finish()),
        Buffer.from(want.encode(want.fromObject(sample)).finish()),
      );
      for (const value of [{ displayName: 5 }, sample, want.fromObject(sample)])
        assert.equal(model.verify(value), want.verify(value));
      // proto3 repeated scalars are packed: the features were resolved on the way.
      const packed = messageTypes(root)
        .flatMap((t) => t.fieldsArray)
        .find((f) => f.repeated && ['int32', 'int64', 'float', 'double', 'bool'].includes(f.type));
      assert.ok(packed);
      assert.equal(packed.packed, true, packed.fullName);
    }
  });

  it('leaves other Roots to protobufjs', () => {
    const other = protobuf.Root.fromJSON(freshDescriptor());
    buildLazyRoot(freshDescriptor(), { precompiled: codecs });
    const { generated } = countCodegen(() => other.lookupType(`${V}.GetModelRequest`).setup());
    assert.ok(generated > 0);
  });
});
