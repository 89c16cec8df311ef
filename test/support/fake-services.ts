// The Services object of a test that starts one feature against the sandbox: the given connection,
// signed in, no setting problems, fresh registries and empty search/statistics slots. The feature
// modules are required when it is called, after the test has installed its fake vscode module.
import type * as StoreModule from '../../src/features/shared/reference-list-store';
import type * as RegistryModule from '../../src/features/operations/registry';
import type * as ServicesModule from '../../src/features/services';
import type { Services } from '../../src/features/services';

export function fakeServices(context: { extensionUri: unknown }, connection: unknown): Services {
  const { Provided } = require('../../src/features/services') as typeof ServicesModule;
  const { ReferenceListStore } = require('../../src/features/shared/reference-list-store') as typeof StoreModule;
  const { OperationsRegistry } = require('../../src/features/operations/registry') as typeof RegistryModule;
  return {
    extensionUri: context.extensionUri,
    connection: () => connection,
    onDidChangeConnection: () => ({ dispose() {} }),
    onDidChangeSettings: () => ({ dispose() {} }),
    settingProblems: () => [],
    signedIn: () => true,
    setSignedIn: () => undefined,
    onDidChangeSignedIn: () => ({ dispose() {} }),
    expectUnset: () => undefined,
    operations: new OperationsRegistry(),
    referenceLists: new ReferenceListStore(),
    search: new Provided('SecOps search'),
    statistics: new Provided('Statistical search'),
  } as unknown as Services;
}
