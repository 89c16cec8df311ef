// src/core/proto builds its Root without resolving every type reference up front (that is most of a
// client's first-call cost). Its codecs must be exactly those of protobufjs' fully resolved
// Root.fromJSON: for every message type of the descriptor, the generated encode, decode, fromObject
// and toObject code is compared, after resolving the type's fields the way Type.setup does.
import assert from 'node:assert/strict';
import * as protobuf from 'protobufjs/light';
import { buildLazyRoot, loadProtoRoot } from '../../../src/core/proto';

const descriptor = require('../../../src/core/proto/aiplatform.json') as protobuf.INamespace;

function messageTypes(ns: protobuf.NamespaceBase, out: protobuf.Type[] = []): protobuf.Type[] {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type) out.push(nested);
    if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) messageTypes(nested, out);
  }
  return out;
}

function codecSources(type: protobuf.Type): Record<string, string> {
  for (const field of type.fieldsArray) field.resolve();
  return {
    encode: protobuf.encoder(type).toString(),
    decode: protobuf.decoder(type).toString(),
    fromObject: protobuf.converter.fromObject(type).toString(),
    toObject: protobuf.converter.toObject(type).toString(),
  };
}

describe('lazily resolved proto root (src/core/proto)', () => {
  it('generates the same codecs as Root.fromJSON for every message type', () => {
    const eager = protobuf.Root.fromJSON(descriptor);
    const lazy = buildLazyRoot(JSON.parse(JSON.stringify(descriptor)) as protobuf.INamespace);
    const eagerTypes = messageTypes(eager);
    const lazyTypes = messageTypes(lazy);
    assert.ok(eagerTypes.length > 150, `${eagerTypes.length} types`);
    assert.deepEqual(
      lazyTypes.map((t) => t.fullName),
      eagerTypes.map((t) => t.fullName),
    );
    // Any packed or presence difference shows in the generated code.
    for (let i = 0; i < eagerTypes.length; i++)
      assert.deepEqual(codecSources(lazyTypes[i]), codecSources(eagerTypes[i]), eagerTypes[i].fullName);
  });

  it('resolves features for the whole tree up front and type references only on use', () => {
    const lazy = buildLazyRoot(JSON.parse(JSON.stringify(descriptor)) as protobuf.INamespace);
    const model = lazy.lookupType('google.cloud.aiplatform.v1beta1.Model');
    assert.equal(
      model.fieldsArray.some((f) => f.resolved),
      false,
      'nothing resolved before first use',
    );
    const versionAliases = model.fields['versionAliases'];
    assert.equal(versionAliases.repeated, true);
    // proto3 repeated scalars are packed; this comes from the features, before any resolve().
    const packedOwner = messageTypes(lazy)
      .flatMap((t) => t.fieldsArray)
      .find((f) => f.repeated && ['int32', 'int64', 'float', 'double', 'bool'].includes(f.type));
    if (packedOwner) assert.equal(packedOwner.packed, true, packedOwner.fullName);
    const bytes = model.encode(model.fromObject({ displayName: 'm', labels: { a: 'b' } })).finish();
    assert.deepEqual(model.toObject(model.decode(bytes)), { displayName: 'm', labels: { a: 'b' } });
    assert.equal(model.fields['createTime'].resolved, true, 'set up on first use');
  });

  it('is the root the codecs use', () => {
    assert.equal(loadProtoRoot(), loadProtoRoot());
    assert.ok(loadProtoRoot().lookupType('google.cloud.aiplatform.v1beta1.Model'));
  });
});
