// The Models and API Keys trees (their real providers, under the vscode fake) walked against a
// sandbox that fails calls: with 20 % transient failures the retried reads give exactly the tree a
// healthy sandbox gives; with every call failing, each level shows an error node naming the status
// instead of throwing into VS Code.
import assert from 'node:assert/strict';
import { freshProductModules } from './scripted-config';
import { startSandbox, type Sandbox } from '../../src/emulator/sandbox';
import { sandboxTokenSource } from '../../src/core/google/credentials';
import type { FaultRule } from '../../src/emulator/types';
import { FAST_RETRY, countFaults, setFaults } from './helpers';
import type * as ModelsTreeModule from '../../src/features/models/tree';
import type * as KeysTreeModule from '../../src/features/keys/tree';
import type * as ModelsClientModule from '../../src/core/models/client';
import type * as ApikeysClientModule from '../../src/core/apikeys/client';

interface Node {
  label?: unknown;
  description?: unknown;
  contextValue?: string;
  tooltip?: unknown;
  collapsibleState?: number;
}
interface Provider {
  getChildren(node?: Node): Promise<Node[]>;
}

function labelOf(node: Node): string {
  const l = node.label as string | { label?: string } | undefined;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

/** Expands every collapsible node down to `depth`, at most `width` children per node; returns one line per node. */
async function walk(provider: Provider, depth: number, width: number): Promise<string[]> {
  const lines: string[] = [];
  const visit = async (node: Node | undefined, level: number, indent: string): Promise<void> => {
    const children = (await provider.getChildren(node)).slice(0, width);
    for (const child of children) {
      lines.push(
        `${indent}${labelOf(child)} [${child.contextValue ?? ''}] ${typeof child.description === 'string' ? child.description : ''}`,
      );
      if (level < depth && child.collapsibleState) await visit(child, level + 1, `${indent}  `);
    }
  };
  await visit(undefined, 0, '');
  return lines;
}

describe('reliability: trees under faults', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let modelsTree: typeof ModelsTreeModule;
  let keysTree: typeof KeysTreeModule;
  let ModelRegistryClient: typeof ModelsClientModule.ModelRegistryClient;
  let ApiKeysClient: typeof ApikeysClientModule.ApiKeysClient;
  const clients: Array<{ close(): void }> = [];

  before(() => {
    freshProductModules();
    modelsTree = require('../../src/features/models/tree');
    keysTree = require('../../src/features/keys/tree');
    ({ ModelRegistryClient } = require('../../src/core/models/client'));
    ({ ApiKeysClient } = require('../../src/core/apikeys/client'));
  });
  beforeEach(async () => {
    sb = await startSandbox({ seed: 'demo' });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await sb.close();
  });

  function modelsProvider(retry = FAST_RETRY): Provider {
    const client = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: sb.grpc },
      retry,
    });
    clients.push(client);
    return new modelsTree.ModelsTreeProvider({
      client: () => client,
      project: () => 'cloudbench-demo',
      configuredLocations: () => [],
      filter: () => undefined,
      importedAnnotations: () => [],
      pageSize: () => 3,
    });
  }

  function keysProvider(retry = FAST_RETRY): Provider {
    const client = new ApiKeysClient({ baseUrl: sb.http, tokens: sandboxTokenSource(), retry });
    return new keysTree.KeysTreeProvider(() => new keysTree.KeysModel('cloudbench-demo', client, () => sb.clock.now()));
  }

  for (const [name, rule] of [
    ['UNAVAILABLE at 20%', { errorRate: 0.2, codes: ['UNAVAILABLE'] }],
    ['429 at 20%', { errorRate: 0.2, codes: [429] }],
    ['connection resets at 20%', { resetRate: 0.2 }],
  ] as Array<[string, Omit<FaultRule, 'method'>]>) {
    it(`${name}: the models and keys trees come out exactly as without faults`, async () => {
      const healthyModels = await walk(modelsProvider(), 5, 3);
      const healthyKeys = await walk(keysProvider(), 3, 20);
      assert.ok(
        healthyModels.length > 20 && healthyKeys.length > 5,
        `${healthyModels.length} model nodes, ${healthyKeys.length} key nodes`,
      );
      const counts = countFaults(sb);
      await setFaults(sb, [{ method: '*', ...rule }], 3);
      assert.deepEqual(await walk(modelsProvider(), 5, 3), healthyModels);
      assert.deepEqual(await walk(keysProvider(), 3, 20), healthyKeys);
      assert.ok(counts.errors + counts.resets > 0, 'faults were injected');
    });
  }

  it('every call failing with INTERNAL: error nodes name the status, nothing throws', async () => {
    await setFaults(sb, [{ method: '*', errorRate: 1, codes: ['INTERNAL'] }]);
    const models = await walk(modelsProvider(), 5, 3);
    assert.ok(
      models.some((l) => /\[error(\.fix)?\]/.test(l) && /INTERNAL/.test(l)),
      models.join('\n'),
    );
    const keys = await walk(keysProvider(), 3, 20);
    assert.ok(
      keys.some((l) => /Could not list keys/.test(l) && /INTERNAL/.test(l)),
      keys.join('\n'),
    );
    assert.ok(
      keys.some((l) => /Could not list deleted keys/.test(l)),
      keys.join('\n'),
    );
  });
});
