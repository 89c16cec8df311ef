// Generates src/core/proto/aiplatform.json: a compact protobufjs JSON descriptor cut from the OFFICIAL
// .proto files shipped in node_modules (@google-cloud/aiplatform, google-gax). It keeps only the services
// Cloudbench speaks (and the subset of EndpointService the sandbox serves) plus every type they reach,
// including the types packed into google.protobuf.Any (LRO results/metadata, google.rpc error details).
// Field names are camelCase (protobufjs default, the same convention as the official Node clients).
// Parsing this file takes a few milliseconds where the official client parses megabytes.
import protobuf from 'protobufjs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const includeDirs = [
  join(root, 'node_modules/@google-cloud/aiplatform/build/protos'),
  join(root, 'node_modules/google-gax/build/protos'),
];
const entryFiles = [
  'google/cloud/aiplatform/v1beta1/model_service.proto',
  'google/cloud/aiplatform/v1beta1/endpoint_service.proto',
  'google/longrunning/operations.proto',
  'google/iam/v1/iam_policy.proto',
  'google/cloud/location/locations.proto',
  'google/rpc/error_details.proto',
  'google/rpc/code.proto',
];
/** Services kept, with an optional allow-list of methods (undefined keeps every method). */
const services = {
  'google.cloud.aiplatform.v1beta1.ModelService': undefined,
  'google.cloud.aiplatform.v1beta1.EndpointService': [
    'CreateEndpoint',
    'GetEndpoint',
    'ListEndpoints',
    'UpdateEndpoint',
    'DeleteEndpoint',
    'DeployModel',
    'UndeployModel',
  ],
  'google.longrunning.Operations': undefined,
  'google.iam.v1.IAMPolicy': undefined,
  'google.cloud.location.Locations': undefined,
};
/** Types that travel inside google.protobuf.Any or are otherwise useful without being reachable by fields. */
const extraTypes = [
  'google.protobuf.Empty',
  'google.rpc.Code',
  'google.rpc.ErrorInfo',
  'google.rpc.RetryInfo',
  'google.rpc.DebugInfo',
  'google.rpc.QuotaFailure',
  'google.rpc.PreconditionFailure',
  'google.rpc.BadRequest',
  'google.rpc.RequestInfo',
  'google.rpc.ResourceInfo',
  'google.rpc.Help',
  'google.rpc.LocalizedMessage',
];

const pb = new protobuf.Root();
pb.resolvePath = (origin, target) => {
  for (const dir of includeDirs) {
    const candidate = join(dir, target);
    if (existsSync(candidate)) return candidate;
  }
  return protobuf.util.path.resolve(origin, target);
};
pb.loadSync(
  entryFiles.map((f) => join(includeDirs.find((d) => existsSync(join(d, f))) ?? includeDirs[0], f)),
  { keepCase: false },
);
pb.resolveAll();

const keep = new Set();
const fullName = (obj) => obj.fullName.replace(/^\./, '');

function keepType(type) {
  const name = fullName(type);
  if (keep.has(name)) return;
  keep.add(name);
  // Parents must exist for nested types to resolve.
  for (let p = type.parent; p && p.parent; p = p.parent) {
    if (p instanceof protobuf.Type) keepType(p);
  }
  if (type instanceof protobuf.Type) {
    for (const field of type.fieldsArray) {
      field.resolve();
      if (field.resolvedType) keepType(field.resolvedType);
    }
  }
}

function lookupAnyType(service, typeName) {
  const found = service.parent.lookup(typeName) ?? pb.lookup(typeName);
  if (!found) throw new Error(`cannot resolve ${typeName} referenced by ${fullName(service)}`);
  return found;
}

for (const [serviceName, methodNames] of Object.entries(services)) {
  const service = pb.lookupService(serviceName);
  keep.add(serviceName);
  for (const method of service.methodsArray) {
    if (methodNames && !methodNames.includes(method.name)) continue;
    method.resolve();
    keepType(method.resolvedRequestType);
    keepType(method.resolvedResponseType);
    const options = method.options ?? {};
    for (const key of [
      '(google.longrunning.operation_info).response_type',
      '(google.longrunning.operation_info).metadata_type',
    ]) {
      if (options[key]) keepType(lookupAnyType(service, options[key]));
    }
  }
  if (methodNames) {
    for (const name of methodNames) if (!service.methods[name]) throw new Error(`${serviceName} has no method ${name}`);
  }
}
for (const name of extraTypes) keepType(pb.lookup(name));

/** Options that only serve code generators, HTTP transcoding or docs; dropped to keep the file small. */
function compactOptions(options) {
  if (!options) return undefined;
  const out = {};
  for (const [key, value] of Object.entries(options)) {
    if (key.startsWith('(google.longrunning.operation_info)')) out[key] = value;
    else if (!key.startsWith('(') && !/^(java_|go_package|csharp_|php_|ruby_|objc_|swift_|cc_enable)/.test(key))
      out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

function prune(ns, prefix) {
  const out = {};
  if (ns instanceof protobuf.Type) {
    const json = ns.toJSON();
    const result = {};
    if (json.oneofs) result.oneofs = json.oneofs;
    result.fields = {};
    for (const [name, field] of Object.entries(json.fields)) {
      const f = { ...field };
      const opts = compactOptions(f.options);
      if (opts) f.options = opts;
      else delete f.options;
      delete f.comment;
      result.fields[name] = f;
    }
    if (json.reserved) result.reserved = json.reserved;
    const nested = pruneNested(ns, prefix);
    if (nested) result.nested = nested;
    return result;
  }
  if (ns instanceof protobuf.Enum) {
    const json = ns.toJSON();
    const result = { values: json.values };
    const opts = compactOptions(json.options);
    if (opts) result.options = opts;
    return result;
  }
  if (ns instanceof protobuf.Service) {
    const allowed = services[prefix];
    const methods = {};
    for (const method of ns.methodsArray) {
      if (allowed && !allowed.includes(method.name)) continue;
      const m = { requestType: method.requestType, responseType: method.responseType };
      if (method.requestStream) m.requestStream = true;
      if (method.responseStream) m.responseStream = true;
      const opts = compactOptions(method.options);
      if (opts) m.options = opts;
      methods[method.name] = m;
    }
    return { methods };
  }
  const nested = pruneNested(ns, prefix);
  if (nested) out.nested = nested;
  return out;
}

function pruneNested(ns, prefix) {
  if (!ns.nestedArray || ns.nestedArray.length === 0) return undefined;
  const out = {};
  for (const child of ns.nestedArray) {
    const name = prefix ? `${prefix}.${child.name}` : child.name;
    const isLeaf =
      child instanceof protobuf.Type || child instanceof protobuf.Enum || child instanceof protobuf.Service;
    if (isLeaf) {
      if (keep.has(name)) out[child.name] = prune(child, name);
    } else if ([...keep].some((k) => k.startsWith(name + '.'))) {
      out[child.name] = prune(child, name);
    }
  }
  return Object.keys(out).length ? out : undefined;
}

const descriptor = { nested: pruneNested(pb, '') };

// Check the result stands on its own before writing it.
const check = protobuf.Root.fromJSON(descriptor);
check.resolveAll();

// Precompiled codecs: for every message type, the constructor, encode, decode, fromObject and toObject
// functions protobufjs would generate at run time (its own generators, on the same descriptor), written
// out as code. src/core/proto installs them in place of run-time generation, so the first call of a
// process compiles no code from strings and the client bundle's V8 code cache covers the codecs too.
// (verify, which nothing on the call path uses, is still generated on first use.)
function messageTypes(ns, out = []) {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type) out.push(nested);
    if (nested.nestedArray) messageTypes(nested, out);
  }
  return out;
}
const factory = (params, codegen) => `function (${params}) {\n  return ${codegen.toString()};\n}`;
const codecEntries = messageTypes(check).map((type) => {
  for (const field of type.fieldsArray) field.resolve();
  return [
    `${JSON.stringify(fullName(type))}: {`,
    `ctor: ${factory('', protobuf.Type.generateConstructor(type))},`,
    `encode: ${factory('Writer, types, util', protobuf.encoder(type))},`,
    `decode: ${factory('Reader, types, util', protobuf.decoder(type))},`,
    `fromObject: ${factory('types, util', protobuf.converter.fromObject(type))},`,
    `toObject: ${factory('types, util', protobuf.converter.toObject(type))},`,
    `},`,
  ].join('\n');
});
const protobufVersion = JSON.parse(readFileSync(join(root, 'node_modules/protobufjs/package.json'), 'utf8')).version;
const codecsText =
  `// Generated by scripts/gen-protos.mjs from aiplatform.json with protobufjs ${protobufVersion}'s code generators; do not edit.\n` +
  `exports.protobufVersion = ${JSON.stringify(protobufVersion)};\n` +
  `exports.codecs = {\n${codecEntries.join('\n')}\n};\n`;

function writeIfChanged(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (previous !== text) writeFileSync(file, text);
}

// GEN_PROTOS_OUT lets the unit test generate into a temporary folder and compare with the committed files.
const target = process.env.GEN_PROTOS_OUT || join(root, 'src/core/proto/aiplatform.json');
const codecsTarget = join(dirname(target), 'generated', 'codecs.js');
const text = JSON.stringify(descriptor) + '\n';
writeIfChanged(target, text);
writeIfChanged(codecsTarget, codecsText);
process.stdout.write(
  `gen-protos: ${keep.size} types/services, ${(text.length / 1024).toFixed(0)} KiB -> ${relative(root, target)}; ` +
    `codecs of ${codecEntries.length} messages, ${(codecsText.length / 1024).toFixed(0)} KiB -> ${relative(root, codecsTarget)}\n`,
);
