// What bench/models.mjs needs from the product in-process (bundled first): the client and its token source.
export { ModelRegistryClient } from '../src/core/models/client';
export { sandboxTokenSource } from '../src/core/google/credentials';
