// Cloudbench for agents: language model tools (package.json contributes.languageModelTools) that a
// chat agent in the editor calls through vscode.lm. The language tools answer offline; the others use
// the same clients, budget and settings as the commands, ask VS Code's confirmation before spending a
// search, and never change a resource. In Restricted Mode every tool that reaches a service or reads
// the workspace asks first, naming the mode, as the workspace may have been written to steer an agent.
import * as vscode from 'vscode';
import { bounded } from '../../core/agent/answer';
import { runLanguageTool } from '../../core/agent/language';
import { EDITOR_TOOLS, LANGUAGE_TOOLS, editorToolName, validateInput, type ToolSpec } from '../../core/agent/specs';
import type { Feature, FeatureStart } from '../../platform/command-table';
import { getLogger } from '../../platform/log';
import type { Services } from '../services';
import { auditKeysTool, describeModelTool, listKeysTool, listModelsTool } from './resource-tools';
import {
  runSearchTool,
  searchConfirmation,
  testRuleConfirmation,
  testRuleTool,
  type RunSearchInput,
} from './search-tools';

const log = getLogger('agent');

type Input = Record<string, unknown>;
type Run = (services: Services, input: Input, token: vscode.CancellationToken) => Promise<string> | string;

function withSignal(work: (services: Services, input: Input, signal: AbortSignal) => Promise<string>): Run {
  return async (services, input, token) => {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      return await work(services, input, abort.signal);
    } finally {
      sub.dispose();
    }
  };
}

const SERVICE_TOOLS: Record<string, Run> = {
  testRule: (s, i, t) => testRuleTool(s, i, t),
  runSearch: (s, i, t) => runSearchTool(s, i as unknown as RunSearchInput, t),
  listModels: withSignal((s, i, signal) => listModelsTool(s, i, signal)),
  describeModel: withSignal((s, i, signal) => describeModelTool(s, i as { model: string }, signal)),
  listKeys: withSignal((s, i, signal) => listKeysTool(s, i, signal)),
  auditKeys: withSignal((s, i, signal) => auditKeysTool(s, i, signal)),
};

/** Whether a tool reaches a service or the workspace (and so asks first in Restricted Mode). */
export function reachesOut(spec: ToolSpec): boolean {
  return EDITOR_TOOLS.includes(spec);
}

/** The confirmation a call needs: the tool's own (searches), else Restricted Mode's for tools that reach out. */
async function prepare(
  services: Services,
  spec: ToolSpec,
  raw: unknown,
): Promise<vscode.PreparedToolInvocation | undefined> {
  let input: Input;
  try {
    input = validateInput<Input>(spec, raw);
  } catch {
    return undefined; // invoke() says what is wrong, without spending anything
  }
  let prepared: vscode.PreparedToolInvocation | undefined;
  if (spec.name === 'runSearch') prepared = searchConfirmation(services, input as unknown as RunSearchInput);
  else if (spec.name === 'testRule') prepared = await testRuleConfirmation(services, input);
  if (!vscode.workspace.isTrusted && reachesOut(spec) && !prepared?.confirmationMessages)
    prepared = {
      ...prepared,
      confirmationMessages: {
        title: `Let the agent use ${spec.displayName}?`,
        message: `This workspace is in Restricted Mode. ${spec.userDescription} It uses your user settings and credentials.`,
      },
    };
  return prepared;
}

function tool(services: Services, spec: ToolSpec): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: (options) => prepare(services, spec, options.input),
    invoke: async (options, token) => {
      const input = validateInput<Input>(spec, options.input);
      const run = SERVICE_TOOLS[spec.name];
      const started = Date.now();
      try {
        const text = run ? await run(services, input, token) : runLanguageTool(spec.name, input);
        log.info(`tool ${spec.name} answered in ${Date.now() - started} ms (${text.length} characters)`);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(bounded(text))]);
      } catch (err) {
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        log.warn(`tool ${spec.name} failed: ${(err as Error).message}`);
        throw err;
      }
    },
  };
}

function activateAgent(context: vscode.ExtensionContext, services: Services): FeatureStart<undefined> {
  // An editor without the language model API (older than 1.95, some forks) simply has no tools.
  if (typeof vscode.lm?.registerTool !== 'function') {
    log.info('this editor has no language model tools API; the agent tools are not registered');
    return { ctx: undefined };
  }
  for (const spec of [...LANGUAGE_TOOLS, ...EDITOR_TOOLS])
    context.subscriptions.push(vscode.lm.registerTool(editorToolName(spec), tool(services, spec)));
  return { ctx: undefined };
}

/** The language model tools; no commands of its own. */
export const agentFeature: Feature<undefined, Services> = {
  name: 'Agent tools',
  commands: {},
  activate: activateAgent,
};
