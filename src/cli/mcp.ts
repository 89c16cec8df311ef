// `cloudbench mcp`: the offline tools as a Model Context Protocol server over stdio, for any agent.
// It offers what the command line offers (check, format, the UDM documentation, test-rule and stats
// over files) and nothing else: no credentials, no network, and files only inside the folder it was
// started in (a path out of it, or a symbolic link out of it, is refused before anything is read).
// Every input is validated against its tool's schema; every answer is bounded.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { version } from '../../package.json';
import { bounded, clip, untrusted } from '../core/agent/answer';
import { detectionsText } from '../core/agent/events';
import { runLanguageTool } from '../core/agent/language';
import {
  LANGUAGE_TOOLS,
  MCP_FILE_TOOLS,
  ToolInputError,
  mcpToolName,
  validateInput,
  type ToolSpec,
} from '../core/agent/specs';
import { EventsFileError } from './events';
import { isInside } from './input';
import { humanReport } from './report';
import { runStats, StatsInputError } from './stats';
import { DEFAULT_TIME_LIMIT_SECONDS, runTestRule, TestRuleInputError } from './test-rule';
import { UsageError } from './usage';

/** Every tool of the server, by its MCP name. */
export const MCP_TOOLS: ReadonlyMap<string, ToolSpec> = new Map(
  [...LANGUAGE_TOOLS, ...MCP_FILE_TOOLS].map((spec) => [mcpToolName(spec), spec]),
);

/** A path the server refuses: outside its folder, through a link out of it, or missing. */
class PathError extends Error {
  override readonly name = 'PathError';
}

/** The real path of `given` when it and every link on the way stay inside `root` (itself a real path). */
export function confinedPath(root: string, given: string, kind: 'file' | 'folder'): string {
  if (given.includes('\0')) throw new PathError('a path must not contain NUL characters');
  const abs = isAbsolute(given) ? resolve(given) : resolve(root, given);
  if (!isInside(root, abs)) throw new PathError(`${JSON.stringify(clip(given, 200))} is outside the working directory`);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (err) {
    throw new PathError(
      `${JSON.stringify(clip(given, 200))} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  if (!isInside(root, real))
    throw new PathError(
      `${JSON.stringify(clip(given, 200))} is a symbolic link to a place outside the working directory`,
    );
  const stat = statSync(real);
  if (kind === 'file' ? !stat.isFile() : !stat.isDirectory())
    throw new PathError(`${JSON.stringify(clip(given, 200))} is not a ${kind}`);
  return real;
}

interface TestRuleInput {
  rule: string;
  events: string;
  lists?: string;
  start?: string;
  end?: string;
}

interface StatsInput {
  query: string;
  events: string;
  lists?: string;
  timeZone?: string;
}

function testRuleTool(root: string, input: TestRuleInput): string {
  const lists = input.lists !== undefined ? confinedPath(root, input.lists, 'folder') : undefined;
  const now = Date.now();
  const startMs = input.start !== undefined ? Date.parse(input.start) : undefined;
  const endMs = input.end !== undefined ? Date.parse(input.end) : undefined;
  if (startMs !== undefined && endMs !== undefined && startMs >= endMs)
    throw new ToolInputError('"start" must be before "end".');
  const outcome = runTestRule({
    ruleFile: confinedPath(root, input.rule, 'file'),
    eventsFile: confinedPath(root, input.events, 'file'),
    deadline: now + DEFAULT_TIME_LIMIT_SECONDS * 1000,
    ...(lists !== undefined ? { listsDir: lists } : {}),
    ...(startMs !== undefined ? { startMs } : {}),
    ...(endMs !== undefined ? { endMs } : {}),
  });
  if (outcome.kind === 'errors')
    return `${outcome.ruleHasErrors ? 'The rule has errors' : 'The reference lists have errors'}, so it is not tested:\n${untrusted('the check of the given files (their text may be quoted)', humanReport(outcome.check, undefined), 12_000)}`;
  return detectionsText({
    ruleName: outcome.ruleName,
    detections: outcome.detections,
    eventsRead: outcome.eventsInRange,
    source: 'the events file',
    notes: outcome.notes,
    ...(outcome.cut ? { cut: outcome.cut.message } : {}),
  });
}

function statsTool(root: string, input: StatsInput): string {
  const lists = input.lists !== undefined ? confinedPath(root, input.lists, 'folder') : undefined;
  const result = runStats({
    queryFile: confinedPath(root, input.query, 'file'),
    eventsFile: confinedPath(root, input.events, 'file'),
    timeZone: input.timeZone ?? 'UTC',
    format: 'csv',
    ...(lists !== undefined ? { listsDir: lists } : {}),
  });
  const warnings = result.warnings.map((w) => `Warning: ${clip(w, 400)}`).join('\n');
  return `${warnings ? `${warnings}\n` : ''}The table as CSV:\n${untrusted('the computed statistics (values from events)', result.text, 14_000)}`;
}

/** Runs one tool call: the answer text, or an error the agent can act on. */
export function callTool(root: string, name: string, args: unknown): { text: string; isError: boolean } {
  const spec = MCP_TOOLS.get(name);
  if (!spec) return { text: `Unknown tool ${JSON.stringify(clip(String(name), 100))}.`, isError: true };
  try {
    const input = validateInput<Record<string, unknown>>(spec, args ?? {});
    if (spec.name === 'test_rule')
      return { text: bounded(testRuleTool(root, input as unknown as TestRuleInput)), isError: false };
    if (spec.name === 'stats')
      return { text: bounded(statsTool(root, input as unknown as StatsInput)), isError: false };
    return { text: bounded(runLanguageTool(spec.name, input)), isError: false };
  } catch (err) {
    if (
      err instanceof ToolInputError ||
      err instanceof PathError ||
      err instanceof UsageError ||
      err instanceof StatsInputError ||
      err instanceof EventsFileError ||
      err instanceof TestRuleInputError
    )
      return { text: clip(err.message.replace(/^(test-rule|stats): /, ''), 2000), isError: true };
    return {
      text: `Internal error of cloudbench: ${clip(String((err as Error)?.message ?? err), 300)}`,
      isError: true,
    };
  }
}

/** Starts the server on stdin/stdout; it runs until stdin closes. */
export async function startMcpServer(root = realpathSync(process.cwd())): Promise<Server> {
  const server = new Server(
    { name: 'cloudbench', version },
    {
      capabilities: { tools: {} },
      instructions:
        'Offline tools for Google SecOps UDM search and YARA-L rules: check and format queries and rules, look up UDM fields and functions, test a rule or compute statistics over events files in this folder. No network, no credentials.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...MCP_TOOLS].map(([name, spec]) => ({
      name,
      title: spec.displayName,
      description: spec.modelDescription,
      inputSchema: spec.inputSchema as { type: 'object' },
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true, destructiveHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const { text, isError } = callTool(root, request.params.name, request.params.arguments);
    return { content: [{ type: 'text', text }], isError };
  });
  await server.connect(new StdioServerTransport());
  return server;
}
