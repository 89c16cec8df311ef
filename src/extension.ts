// activate() only wires features together; each feature reports its own failure, so one broken
// part (say, the language server) never takes the rest of Cloudbench down with it.
import { safeText, MESSAGE_LIMIT } from './core/display';
import * as vscode from 'vscode';
import { agentFeature } from './features/agent';
import { keysFeature } from './features/keys';
import { languageFeature } from './features/language';
import { modelsFeature } from './features/models';
import { notebooksFeature } from './features/notebooks';
import { operationsFeature } from './features/operations';
import { referenceListsFeature } from './features/referenceLists';
import { rulesFeature } from './features/rules';
import { ruleTestsFeature } from './features/ruleTests';
import { accountFeature } from './features/sandbox';
import { connectionFeature } from './features/connection';
import { coverageFeature } from './features/coverage';
import { searchFeature } from './features/search';
import { statisticsFeature } from './features/statistics';
import { createServices, showSettingProblem, type Services } from './features/services';
import { trustFeature } from './features/trust';
import { CommandRegistry, type AnyFeature, type FeatureCommands } from './platform/command-table';
import { afterActivation } from './platform/after-activation';
import { getLogger, initLogging, showLogs } from './platform/log';

export interface CloudbenchApi {
  /** Milliseconds spent inside activate(). */
  readonly activationMs: number;
  /** Where those milliseconds went: settings and services, then each feature, in start order. */
  readonly activationSteps: ReadonlyArray<{ step: string; ms: number }>;
  /** Features that failed to start, with their errors. */
  readonly failures: ReadonlyArray<{ feature: string; message: string }>;
}

// The one piece of state outside activate(): what deactivate() must still finish.
let closing: Array<() => Promise<unknown>> = [];

/**
 * Every feature. The order does not matter: what one feature offers another is a service on
 * Services, looked up when it is used (a command, a cell run), never while the features start.
 */
export const FEATURES: ReadonlyArray<AnyFeature<Services>> = [
  trustFeature,
  accountFeature,
  connectionFeature,
  operationsFeature,
  modelsFeature,
  keysFeature,
  searchFeature,
  statisticsFeature,
  languageFeature,
  notebooksFeature,
  referenceListsFeature,
  rulesFeature,
  ruleTestsFeature,
  coverageFeature,
  agentFeature,
];

export function activate(context: vscode.ExtensionContext): CloudbenchApi {
  return startFeatures(context, FEATURES);
}

/** Starts `features` (activate() passes FEATURES; tests pass them shuffled or with one failing). */
export function startFeatures(
  context: vscode.ExtensionContext,
  features: ReadonlyArray<AnyFeature<Services>>,
): CloudbenchApi {
  const started = performance.now();
  initLogging(context);
  const log = getLogger('activate');
  const failures: Array<{ feature: string; message: string }> = [];
  const steps: Array<{ step: string; ms: number }> = [];
  let mark = started;
  const step = (name: string): void => {
    const now = performance.now();
    steps.push({ step: name, ms: now - mark });
    mark = now;
  };
  step('logging');
  // Every command answers from here on, before anything that can fail has run: a feature that
  // fails below answers its commands with its failure instead of "command not found".
  const registry = new CommandRegistry(context);
  const declared: Array<[AnyFeature<Services>, FeatureCommands<unknown>]> = features.map((feature) => [
    feature,
    registry.declare(feature.name, feature.commands),
  ]);
  step('commands');
  let services: Services | undefined;
  try {
    services = createServices(context);
  } catch (err) {
    failures.push({ feature: 'settings', message: (err as Error).message });
    log.error('could not read settings', err);
  }
  step('settings and services');
  for (const [feature, commands] of declared) {
    if (!services) {
      commands.failed('the settings could not be read');
      continue;
    }
    try {
      const start = feature.activate(context, services);
      commands.ready(start.ctx);
      if (start.deactivate) closing.push(() => start.deactivate!());
    } catch (err) {
      const message = (err as Error).message;
      commands.failed(message);
      failures.push({ feature: feature.name, message });
      log.error(`${feature.name} failed to start`, err);
    }
    step(feature.name);
  }
  const problems = services?.settingProblems() ?? [];
  if (problems.length > 0)
    afterActivation(context, 'showing setting problems', () => {
      for (const problem of problems) void showSettingProblem(problem);
    });
  if (failures.length > 0) {
    void vscode.window
      .showErrorMessage(
        `Cloudbench could not start: ${safeText(failures.map((f) => `${f.feature} (${f.message})`).join('; '), 'plain', MESSAGE_LIMIT)}`,
        'Show Logs',
      )
      .then((choice) => choice && showLogs());
  }
  step('problems and notices');
  const activationMs = performance.now() - started;
  log.info(`activated in ${activationMs.toFixed(1)} ms`);
  log.debug(`activation steps: ${steps.map((s) => `${s.step} ${s.ms.toFixed(1)} ms`).join(', ')}`);
  return { activationMs, activationSteps: steps, failures };
}

export async function deactivate(): Promise<void> {
  // Everything else is in context.subscriptions; these need the editor still answering (settings writes).
  const tasks = closing;
  closing = [];
  await Promise.allSettled(tasks.map((task) => task()));
}
