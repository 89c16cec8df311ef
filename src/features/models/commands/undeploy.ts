// Undeploy from <endpoint>…: reads the endpoint (GetEndpoint) for its traffic split, says what the
// split becomes, and never takes the last of the served traffic away without the user's word; then
// UndeployModel runs as a long operation (progress, a real cancel) like the others.
import * as vscode from 'vscode';
import { safeText } from '../../../core/display';
import {
  describeSplit,
  trafficShares,
  trafficSplitOf,
  undeployPlan,
  type TrafficShare,
} from '../../../core/models/traffic';
import type { Endpoint } from '../../../core/models/types';
import { checkBeforeModal } from '../../../platform/progress';
import { lastSegment, modelRef, splitVersion } from '../presentation';
import { needClient, nodeOf, type ModelsContext } from '../context';
import { runModelOperation } from '../run-operation';
import { DeploymentNode, VersionNode, type ModelsNode } from '../tree';

/** One deployment of a version: where, and under which deployed model id. */
export interface DeploymentRef {
  /** "<model>@<version>" */
  version: string;
  endpoint: string;
  deployedModelId: string;
  endpointDisplayName?: string;
}

function endpointText(endpoint: Endpoint | undefined, name: string): string {
  return safeText(endpoint?.displayName || `endpoint ${lastSegment(name)}`);
}

/** The split to send, or undefined when the user said no; `null`: undeploy without a split. */
async function confirmPlan(
  what: string,
  where: string,
  endpoint: Endpoint,
  deployedModelId: string,
): Promise<Record<string, number> | null | undefined> {
  const shares = trafficShares(endpoint);
  const plan = undeployPlan(endpoint, deployedModelId);
  const now = `Traffic now: ${safeText(describeSplit(shares))}.`;
  const ask = async (message: string, detail: string, button: string) =>
    (await vscode.window.showWarningMessage(message, { modal: true, detail }, button)) === button;
  switch (plan.kind) {
    case 'notDeployed':
      void vscode.window.showInformationMessage(`${what} is no longer deployed on ${where}; nothing to undeploy.`);
      return undefined;
    case 'noTraffic':
      return (await ask(
        `Undeploy ${what} from ${where}?`,
        `${now}\nThis deployment receives no traffic; the others keep their shares.`,
        'Undeploy',
      ))
        ? null
        : undefined;
    case 'redistribute': {
      const others = shares.filter((s) => s.deployedModelId !== deployedModelId);
      return (await ask(
        `Undeploy ${what} from ${where}?`,
        `${now}\nIt receives ${plan.share}% of the traffic, which goes to the others in proportion to their shares.\nTraffic afterwards: ${safeText(describeSplit(others, plan.split))}.`,
        'Undeploy and Move Traffic',
      ))
        ? plan.split
        : undefined;
    }
    case 'lastTraffic':
      return plan.others.length
        ? moveAllTraffic(what, where, now, plan.share, plan.others)
        : stopServing(what, where, now, ask);
  }
}

/** The last deployed model: the endpoint then serves nothing; only on an explicit answer. */
async function stopServing(
  what: string,
  where: string,
  now: string,
  ask: (message: string, detail: string, button: string) => Promise<boolean>,
): Promise<null | undefined> {
  return (await ask(
    `${what} serves all the traffic of ${where}.`,
    `${now}\nUndeploying it takes the last 100% of the endpoint's traffic away: the endpoint is left with nothing deployed, and predictions sent to it fail until a model is deployed again. Cloudbench does this only if you say so.`,
    'Undeploy and Stop Serving',
  ))
    ? null
    : undefined;
}

/** It serves everything and the others nothing: the service needs a new split, so one of them takes over. */
async function moveAllTraffic(
  what: string,
  where: string,
  now: string,
  share: number,
  others: TrafficShare[],
): Promise<Record<string, number> | undefined> {
  const choose = 'Choose Who Takes Over…';
  const answer = await vscode.window.showWarningMessage(
    `${what} serves all the traffic (${share}%) of ${where}; the other deployments receive none.`,
    {
      modal: true,
      detail: `${now}\nTaking its traffic away needs a new split: the service refuses to undeploy a model that still receives traffic. Choose the deployment that takes over 100%.`,
    },
    choose,
  );
  if (answer !== choose) return undefined;
  const pick = await vscode.window.showQuickPick(
    others.map((o) => ({
      label: safeText(o.displayName || `deployed model ${o.deployedModelId}`),
      description: `deployed model ${safeText(o.deployedModelId)}${o.modelVersionId ? ` · version ${safeText(o.modelVersionId)}` : ''}`,
      id: o.deployedModelId,
    })),
    {
      title: `Undeploy ${what} from ${where}`,
      placeHolder: 'The deployment that receives 100% of the traffic afterwards',
    },
  );
  return pick ? { [pick.id]: 100 } : undefined;
}

/** Undeploys one deployment, after showing the traffic split and asking; true when it is gone. */
export async function undeployFrom(ctx: ModelsContext, ref: DeploymentRef): Promise<boolean> {
  const c = needClient(ctx);
  const { model: modelName, version: versionId } = splitVersion(ref.version);
  const endpoint = await checkBeforeModal(
    `Reading the traffic split of ${safeText(ref.endpointDisplayName || ref.endpoint)}…`,
    (signal) => c.getEndpoint(ref.endpoint, { signal }),
  );
  const what = `version ${safeText(versionId ?? '?')} of model ${modelRef(modelName)}`;
  const where = endpointText(endpoint, ref.endpoint);
  const split = await confirmPlan(what, where, endpoint, ref.deployedModelId);
  if (split === undefined) return false;
  const title = `Undeploy ${what} from ${where}`;
  const outcome = await runModelOperation(ctx, {
    title,
    resource: ref.endpoint,
    kind: 'undeploy',
    start: (signal) =>
      c.undeployModel(ref.endpoint, ref.deployedModelId, { signal, ...(split ? { trafficSplit: split } : {}) }),
  });
  let after = '';
  try {
    const now = await c.getEndpoint(ref.endpoint);
    ctx.provider.noteTraffic(ref.endpoint, trafficSplitOf(now));
    after = ` Traffic now: ${safeText(describeSplit(trafficShares(now)))}.`;
  } catch {
    // The rows keep the split they had; the undeploy's own outcome is what matters here.
  }
  await ctx.provider.refreshModel(modelName);
  ctx.operations.announce(title, outcome, `Undeployed ${what} from ${where}.${after}`);
  return outcome.state === 'succeeded';
}

/** "Undeploy from <endpoint>…" on a deployment row, or on a deployed version (asking which endpoint if several). */
export async function undeployModel(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, DeploymentNode, VersionNode);
  if (n instanceof DeploymentNode) {
    await undeployFrom(ctx, {
      version: n.resourceName,
      endpoint: n.endpoint,
      deployedModelId: n.deployedModelId,
      ...(n.endpointDisplayName ? { endpointDisplayName: n.endpointDisplayName } : {}),
    });
    return;
  }
  const refs = (n.version.deployedModels ?? []).filter((d) => d.endpoint && d.deployedModelId);
  if (!refs.length) {
    void vscode.window.showInformationMessage(`Version ${safeText(n.version.versionId)} is not deployed.`);
    return;
  }
  const deployments = (await n.getChildren()).filter((c): c is DeploymentNode => c instanceof DeploymentNode);
  const chosen =
    deployments.length === 1
      ? deployments[0]
      : (
          await vscode.window.showQuickPick(
            deployments.map((d) => ({
              label: `Undeploy from ${safeText(d.endpointDisplayName || d.endpoint.split('/').pop())}…`,
              description: typeof d.description === 'string' ? d.description : '',
              node: d,
            })),
            {
              title: `Undeploy version ${safeText(n.version.versionId)}`,
              placeHolder: 'The endpoint to undeploy from',
            },
          )
        )?.node;
  if (chosen) await undeployModel(ctx, chosen);
}
