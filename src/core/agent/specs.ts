// The tools Cloudbench offers agents: names, what the model is told, and the JSON Schema of each
// input. The editor's tools (package.json contributes.languageModelTools, checked against these by
// test/unit/agent/specs.test.ts) and the `cloudbench mcp` server read the same definitions, and
// every input is validated against its schema on arrival, whatever the caller already checked.
import Ajv, { type ValidateFunction } from 'ajv';

/** Longest query or rule text a tool takes (the CLI reads files up to 10 MB; an agent sends less). */
export const MAX_TEXT = 200_000;
const MAX_NAME = 300;
const MAX_PATH = 1_000;

export interface ToolSpec {
  /** The tool's name without prefix (`check`); the editor's is `cloudbench_<name>`, MCP's snake_case. */
  readonly name: string;
  readonly displayName: string;
  readonly modelDescription: string;
  readonly userDescription: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** Said when an input breaks a rule between properties (one of …). */
  readonly inputHint?: string;
}

const LANGUAGE = {
  type: 'string',
  enum: ['udm', 'yaral'],
  description: '"udm" for a UDM search or statistical query, "yaral" for a YARA-L 2.0 rule file.',
};
const TEXT = { type: 'string', minLength: 1, maxLength: MAX_TEXT };
/** A file or folder path argument. */
const path = (description: string) => ({ type: 'string', minLength: 1, maxLength: MAX_PATH, description });
/** The two file arguments `cloudbench mcp`'s file tools share. */
const EVENTS_FILE = path('An events file.');
const LISTS_FOLDER = path('A folder of reference lists.');

const TIME_RANGE = {
  description:
    'The time range to search: {"preset":"1h"|"24h"|"7d"} (the last hour, day or week) or {"start":ISO-8601,"end":ISO-8601} (start before end, at most 90 days).',
  oneOf: [
    {
      type: 'object',
      properties: { preset: { type: 'string', enum: ['1h', '24h', '7d'] } },
      required: ['preset'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        start: { type: 'string', format: 'date-time', maxLength: 40 },
        end: { type: 'string', format: 'date-time', maxLength: 40 },
      },
      required: ['start', 'end'],
      additionalProperties: false,
    },
  ],
};

const object = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  ...extra,
});

/** Tools that need nothing but their input: the editor offers them, and `cloudbench mcp` too. */
export const LANGUAGE_TOOLS: readonly ToolSpec[] = [
  {
    name: 'check',
    displayName: 'Check UDM Search or YARA-L Rule',
    userDescription: 'Checks a UDM search or a YARA-L rule with the Cloudbench language service.',
    modelDescription:
      'Checks a Google SecOps UDM search query (language "udm") or a YARA-L 2.0 rule (language "yaral") offline, exactly as the Cloudbench editor does, and returns every diagnostic with its severity, 1-based line:column range, code and, for misspelt fields, functions or values, "did you mean" suggestions. Use it after writing or changing a query or rule and fix every error before running or testing it. It spends no search and needs no connection.',
    inputSchema: object({ language: LANGUAGE, text: { ...TEXT, description: 'The whole query or rule file text.' } }, [
      'language',
      'text',
    ]),
  },
  {
    name: 'format',
    displayName: 'Format UDM Search or YARA-L Rule',
    userDescription: 'Formats a UDM search or a YARA-L rule as Format Document does.',
    modelDescription:
      "Formats a UDM search query or a YARA-L rule the way the editor's Format Document does (2-space indentation, one statement per line, keyword case) and returns the formatted text, or the reason it was left alone (a syntax error the formatter will not guess around). Offline.",
    inputSchema: object({ language: LANGUAGE, text: { ...TEXT, description: 'The whole query or rule file text.' } }, [
      'language',
      'text',
    ]),
  },
  {
    name: 'describeField',
    displayName: 'Describe UDM Field',
    userDescription: 'Documentation of a UDM field: type, meaning and enum values.',
    modelDescription:
      'Describes one Google SecOps UDM field path such as "principal.ip", "metadata.event_type" or "target.user.userid": its type, whether it is repeated, Google\'s description of it, its enum values with their meanings (for enum fields) and its sub-fields (for messages). An unknown path answers with "did you mean" suggestions. Paths are snake_case as written in queries; a leading "udm." or an event variable ("$e.") is ignored.',
    inputSchema: object(
      {
        path: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_NAME,
          description: 'A dotted field path, e.g. "principal.ip".',
        },
      },
      ['path'],
    ),
  },
  {
    name: 'listFields',
    displayName: 'List UDM Fields',
    userDescription: 'Lists the UDM fields under a path.',
    modelDescription:
      'Lists the fields of the UDM event (no path) or of the message at a path (e.g. "principal", "network.dns"), one per line with its type, so an agent can find the right field before writing a query. Use describeField for the details of one field.',
    inputSchema: object({
      path: {
        type: 'string',
        maxLength: MAX_NAME,
        description: 'A dotted path to a message field; empty or absent for the event root.',
      },
      contains: {
        type: 'string',
        maxLength: 100,
        description: 'Only fields whose name contains this text (case-insensitive).',
      },
    }),
  },
  {
    name: 'describeFunction',
    displayName: 'Describe UDM or YARA-L Function',
    userDescription: 'Signature, documentation and an example of a UDM or YARA-L function.',
    modelDescription:
      'Describes a function of UDM search and YARA-L rules (e.g. "strings.concat", "net.ip_in_range_cidr", "re.regex", "count_distinct"): its signature, return type, where it is supported and an example. An unknown name answers with suggestions, and an empty name lists every function.',
    inputSchema: object(
      { name: { type: 'string', maxLength: 100, description: 'The function name, e.g. "strings.lower".' } },
      ['name'],
    ),
  },
];

/** Tools that reach a service or the workspace: the editor only, never `cloudbench mcp`. */
export const EDITOR_TOOLS: readonly ToolSpec[] = [
  {
    name: 'testRule',
    displayName: 'Test YARA-L Rule',
    inputHint:
      'give exactly one of "ruleFile" or "rule", and exactly one of "eventsFile", "timeRange" or "testCase" ("testCase" with "ruleFile")',
    userDescription:
      'Runs a YARA-L rule over saved events, one of its test cases or a searched time range and returns its detections.',
    modelDescription:
      'Runs a YARA-L rule with Cloudbench\'s rule engine and returns its detections (match values, outcomes, event times), bounded. The rule is a .yaral file of the workspace ("ruleFile", workspace-relative) or its text ("rule"); "ruleName" picks one rule of a file that holds several. The events are a saved results or events file of the workspace ("eventsFile": JSON array, NDJSON or a udmSearch answer), which costs nothing, a case of the rule\'s test file ("testCase": the case\'s name in the <rule>.test.yaml beside "ruleFile"; the answer also says whether the case passes), which costs nothing either, or a time range ("timeRange") that Cloudbench searches with one udmSearch per event variable of the rule, from the hourly budget, only after the user confirms. Check the rule first: a rule with errors is not tested.',
    inputSchema: object(
      {
        ruleFile: path('Workspace-relative .yaral file.'),
        rule: { ...TEXT, description: 'The rule text, when it is not in a file.' },
        ruleName: { type: 'string', maxLength: MAX_NAME, description: 'The rule to test when the text holds several.' },
        eventsFile: path('Workspace-relative events file (JSON array, NDJSON, or a udmSearch answer).'),
        timeRange: TIME_RANGE,
        testCase: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_NAME,
          description: 'The name of a case in the test file beside "ruleFile" (<rule>.test.yaml).',
        },
      },
      [],
      {
        allOf: [
          { oneOf: [{ required: ['ruleFile'] }, { required: ['rule'] }] },
          {
            oneOf: [{ required: ['eventsFile'] }, { required: ['timeRange'] }, { required: ['testCase', 'ruleFile'] }],
          },
        ],
      },
    ),
  },
  {
    name: 'runSearch',
    displayName: 'Run UDM Search',
    userDescription: 'Runs a UDM search or statistical query after you confirm, within the hourly budget.',
    modelDescription:
      'Runs a Google SecOps UDM search (or a statistical query with match:/outcome: sections) over a time range, after the user confirms the query, the range and the searches it spends from the hourly udmSearch budget. Returns the number of events, counts by event type and the first rows (or the first statistics rows), bounded, and opens the results panel with every row for the user. Check the query first; prefer a narrow time range and a small limit.',
    inputSchema: object(
      {
        query: { ...TEXT, description: 'The UDM search query.' },
        timeRange: TIME_RANGE,
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 10000,
          description: 'Most events udmSearch returns (the setting cloudbench.search.defaultLimit when absent).',
        },
        rows: {
          type: 'integer',
          minimum: 0,
          maximum: 50,
          description: 'Rows to include in the answer (10 by default).',
        },
      },
      ['query', 'timeRange'],
    ),
  },
  {
    name: 'listModels',
    displayName: 'List Vertex AI Models',
    userDescription: 'Lists the Model Registry models of the current project (read-only).',
    modelDescription:
      "Lists the Vertex AI Model Registry models of the user's current project in one location (the first configured one when absent): resource name, display name, default version, version aliases and update time. Read-only.",
    inputSchema: object({
      location: { type: 'string', pattern: '^[a-z0-9-]{1,63}$', description: 'A location such as "us-central1".' },
      limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Most models to list (50 by default).' },
    }),
  },
  {
    name: 'describeModel',
    displayName: 'Describe Vertex AI Model',
    userDescription: 'Versions, aliases and evaluation metrics of a model (read-only).',
    modelDescription:
      'Describes one Vertex AI model: its versions with their aliases and creation times, and for each version its evaluations with headline metrics (e.g. auPrc, logLoss, meanAbsoluteError). "model" is the full resource name (projects/P/locations/L/models/ID) or the model ID in the current project ("location" then says where). Read-only.',
    inputSchema: object(
      {
        model: { type: 'string', minLength: 1, maxLength: MAX_PATH, description: 'Resource name or model ID.' },
        location: { type: 'string', pattern: '^[a-z0-9-]{1,63}$', description: 'Location of a model given by ID.' },
      },
      ['model'],
    ),
  },
  {
    name: 'listKeys',
    displayName: 'List API Keys',
    userDescription: 'Lists the API keys of the current project without their key strings (read-only).',
    modelDescription:
      "Lists the API keys of the user's current project: name, display name, creation time and restrictions (applications and APIs allowed). Never returns key strings. Read-only.",
    inputSchema: object({
      limit: { type: 'integer', minimum: 1, maximum: 500, description: 'Most keys to list (100 by default).' },
    }),
  },
  {
    name: 'auditKeys',
    displayName: 'Audit API Keys',
    userDescription: 'Finds risky API keys: no restrictions, every API allowed, or old (read-only).',
    modelDescription:
      "Audits the API keys of the user's current project and lists, per finding: keys with no application restriction, keys allowing every API (no API targets), and keys older than a given age. Never returns key strings. Read-only: to change a key the user runs Cloudbench's key commands.",
    inputSchema: object({
      olderThanDays: {
        type: 'integer',
        minimum: 1,
        maximum: 36500,
        description: 'Flag keys created more than this many days ago (90 by default).',
      },
    }),
  },
];

/** `cloudbench mcp`'s file tools: paths inside the working directory, offline. */
export const MCP_FILE_TOOLS: readonly ToolSpec[] = [
  {
    name: 'test_rule',
    displayName: 'Test YARA-L Rule over Files',
    userDescription: 'cloudbench test-rule over an events file.',
    modelDescription:
      'Runs the YARA-L rule of a .yaral file over the events of an events file (JSON array, NDJSON or a udmSearch answer), offline, as `cloudbench test-rule` does, and returns the detections (bounded). Paths are relative to the server\'s working directory and must stay inside it. "lists" is a folder with one file per reference list the rule names.',
    inputSchema: object(
      {
        rule: path('A .yaral file.'),
        events: EVENTS_FILE,
        lists: LISTS_FOLDER,
        start: { type: 'string', format: 'date-time', maxLength: 40, description: 'Only events at or after.' },
        end: { type: 'string', format: 'date-time', maxLength: 40, description: 'Only events before.' },
      },
      ['rule', 'events'],
    ),
  },
  {
    name: 'stats',
    displayName: 'Statistics over Files',
    userDescription: 'cloudbench stats over an events file.',
    modelDescription:
      "Computes a statistical UDM query (a .udm file with match:/outcome: sections) over the events of an events file, offline, as `cloudbench stats` does, and returns the table as CSV (bounded). Paths are relative to the server's working directory and must stay inside it.",
    inputSchema: object(
      {
        query: path('A .udm query file.'),
        events: EVENTS_FILE,
        lists: LISTS_FOLDER,
        timeZone: { type: 'string', maxLength: 64, description: 'IANA time zone for time buckets (UTC).' },
      },
      ['query', 'events'],
    ),
  },
];

/** The editor's name of a tool. */
export function editorToolName(spec: ToolSpec): string {
  return `cloudbench_${spec.name}`;
}

/** The MCP name of a tool: snake_case. */
export function mcpToolName(spec: ToolSpec): string {
  return spec.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

const ajv = new Ajv({ allErrors: false, strict: true, strictRequired: false });
ajv.addFormat('date-time', { type: 'string', validate: (s: string) => !Number.isNaN(Date.parse(s)) });
const validators = new Map<ToolSpec, ValidateFunction>();

/** An input that does not match its tool's schema; the message says where. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}

/** `input` as the tool's input type, or a ToolInputError naming the first problem. */
export function validateInput<T>(spec: ToolSpec, input: unknown): T {
  let validate = validators.get(spec);
  if (!validate) {
    validate = ajv.compile(spec.inputSchema);
    validators.set(spec, validate);
  }
  if (validate(input)) return input as T;
  const e = validate.errors?.[0];
  const where = e?.instancePath ? `"${e.instancePath.slice(1).replace(/\//g, '.')}"` : 'the input';
  const what =
    e?.keyword === 'additionalProperties'
      ? `has an unknown property ${JSON.stringify(String((e.params as { additionalProperty?: unknown }).additionalProperty).slice(0, 60))}`
      : (e?.message ?? 'is invalid');
  const hint = (e?.keyword === 'oneOf' || e?.keyword === 'required') && spec.inputHint ? ` (${spec.inputHint})` : '';
  throw new ToolInputError(`Invalid input for ${spec.name}: ${where} ${what}${hint}.`);
}
