// activate() only wires features together; each feature reports its own failure, so one broken
// part (say, the language server) never takes the rest of Cloudbench down with it.
import { safeText, MESSAGE_LIMIT } from './core/display';
import * as vscode from 'vscode';
import { activateKeys } from './features/keys';
import { activateLanguage } from './features/language';
import { activateModels } from './features/models';
import { activateNotebooks } from './features/notebooks';
import { activateReferenceLists } from './features/referenceLists';
import { activateAccount } from './features/sandbox';
import { activateConnection } from './features/connection';
import { activateSearch } from './features/search';
import { activateStatistics } from './features/statistics';
import { createServices, showSettingProblem, type Services } from './features/services';
import { activateTrust } from './features/trust';
import { getLogger, initLogging, showLogs } from './platform/log';

export interface CloudbenchApi {
  /** Milliseconds spent inside activate(). */
  readonly activationMs: number;
  /** Features that failed to start, with their errors. */
  readonly failures: ReadonlyArray<{ feature: string; message: string }>;
}

// A feature may hand back what it must do when the window closes (await it in deactivate()).
type FeatureActivator = (
  context: vscode.ExtensionContext,
  services: Services,
) => void | { deactivate(): Promise<unknown> };

// The one piece of state outside activate(): what deactivate() must still finish.
let closing: Array<() => Promise<unknown>> = [];

const FEATURES: Array<[string, FeatureActivator]> = [
  ['workspace trust', (context) => activateTrust(context)],
  ['account and sandbox', activateAccount],
  ['connection check', activateConnection],
  ['Models', activateModels],
  ['API Keys', activateKeys],
  ['SecOps search', activateSearch],
  ['Statistical search', activateStatistics],
  ['UDM language', activateLanguage],
  ['UDM notebooks', activateNotebooks],
  ['Reference lists', activateReferenceLists],
];

export function activate(context: vscode.ExtensionContext): CloudbenchApi {
  const started = performance.now();
  initLogging(context);
  const log = getLogger('activate');
  const failures: Array<{ feature: string; message: string }> = [];
  let services: Services | undefined;
  try {
    services = createServices(context);
  } catch (err) {
    failures.push({ feature: 'settings', message: (err as Error).message });
    log.error('could not read settings', err);
  }
  if (services) {
    for (const [feature, activateFeature] of FEATURES) {
      try {
        const result = activateFeature(context, services);
        if (result) closing.push(() => result.deactivate());
      } catch (err) {
        failures.push({ feature, message: (err as Error).message });
        log.error(`${feature} failed to start`, err);
      }
    }
    for (const problem of services.settingProblems()) void showSettingProblem(problem);
  }
  if (failures.length > 0) {
    void vscode.window
      .showErrorMessage(
        `Cloudbench could not start: ${safeText(failures.map((f) => `${f.feature} (${f.message})`).join('; '), 'plain', MESSAGE_LIMIT)}`,
        'Show Logs',
      )
      .then((choice) => choice && showLogs());
  }
  const activationMs = performance.now() - started;
  log.info(`activated in ${activationMs.toFixed(1)} ms`);
  return { activationMs, failures };
}

export async function deactivate(): Promise<void> {
  // Everything else is in context.subscriptions; these need the editor still answering (settings writes).
  const tasks = closing;
  closing = [];
  await Promise.allSettled(tasks.map((task) => task()));
}
