// Entry of dist/models-client.js: the Model Registry client and the message codecs with the gRPC
// stack and the proto runtime, loaded on first use through ./bundle-host (scripts/build.mjs).
export * as client from './client';
export * as wire from './wire';
