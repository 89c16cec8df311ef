// Starts one feature the way activate() does: its command table registered first, then the feature
// started and its commands routed to the context it returned. Require it after the vscode fake is in
// place (it loads the product's command registry, which imports vscode).
import type * as vscode from 'vscode';
import type * as TableModule from '../../src/platform/command-table';

export function startFeature<Ctx, Deps>(
  feature: TableModule.Feature<Ctx, Deps>,
  context: vscode.ExtensionContext,
  deps: Deps,
): Ctx {
  const { CommandRegistry } = require('../../src/platform/command-table') as typeof TableModule;
  const commands = new CommandRegistry(context).declare(feature.name, feature.commands);
  const { ctx } = feature.activate(context, deps);
  commands.ready(ctx);
  return ctx;
}
