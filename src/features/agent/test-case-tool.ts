// testRule over a rule test case: the case named in `<rule>.test.yaml` (or .test.yml) beside the rule
// file, parsed and run by the same code as `cloudbench test` (udm/rule/test-file.ts, test-case.ts):
// its events stand for what udmSearch would answer, so no search is spent. Every file is read as a
// workspace file (inside an open folder, no "..", no link out of it, size-limited); the events and
// list files a case names are relative to the test file's folder, as in the CLI.
import { clip, dataLine, untrusted } from '../../core/agent/answer';
import { detectionsText, parseEventsText } from '../../core/agent/events';
import { referenceListEntries, splitReferenceListText } from '../../core/secops/reference-lists';
import { compareExpectation, runCase } from '../../udm/rule/test-case';
import { parseRuleTestFile, type ListSource, type RuleTestCase } from '../../udm/rule/test-file';
import { workspaceFile } from './workspace-file';

/** Largest test file read (as `cloudbench test`). */
const MAX_TEST_FILE_BYTES = 10 * 1024 * 1024;
/** Largest events file a case names (as `cloudbench test`). */
const MAX_CASE_EVENTS_BYTES = 64 * 1024 * 1024;
/** Largest reference-list file a case names. */
const MAX_LIST_FILE_BYTES = 10 * 1024 * 1024;
const TEST_SUFFIXES = ['.test.yaml', '.test.yml'];

/** The workspace-relative test file beside a workspace-relative rule file, and its text. */
async function testFileOf(ruleFile: string): Promise<{ path: string; text: string }> {
  const stem = ruleFile.replace(/\\/g, '/').replace(/\.yaral$/i, '');
  if (stem === ruleFile.replace(/\\/g, '/'))
    throw new Error(
      `${dataLine(ruleFile)} is not a .yaral file; a rule's test cases lie beside it as <rule>.test.yaml.`,
    );
  for (const suffix of TEST_SUFFIXES) {
    const path = `${stem}${suffix}`;
    try {
      return { path, text: (await workspaceFile(path, MAX_TEST_FILE_BYTES)).text };
    } catch (err) {
      // Only a file that is not there lets the other suffix be tried; any other refusal is the answer.
      if (!/^No file /.test((err as Error).message)) throw err;
    }
  }
  throw new Error(
    `The rule has no test file: ${dataLine(`${stem}${TEST_SUFFIXES[0]}`)} is not in the workspace. Test over an events file or a time range instead.`,
  );
}

/** A path the test file names, made workspace-relative (the schema already refused absolute and ".." paths). */
function besideTestFile(testFile: string, rel: string): string {
  const folder = testFile.includes('/') ? testFile.slice(0, testFile.lastIndexOf('/') + 1) : '';
  return `${folder}${rel}`;
}

async function listOf(testFile: string, source: ListSource): Promise<string[]> {
  if ('entries' in source) return [...source.entries];
  const { text } = await workspaceFile(besideTestFile(testFile, source.file), MAX_LIST_FILE_BYTES);
  return referenceListEntries(splitReferenceListText(text));
}

function caseNamed(cases: readonly RuleTestCase[], name: string, testFile: string): RuleTestCase {
  const found = cases.find((c) => c.name === name);
  if (found) return found;
  const names = cases.slice(0, 20).map((c) => dataLine(c.name, 120));
  throw new Error(
    `${dataLine(testFile)} has no case named ${dataLine(name, 120)}. Its cases: ${names.join(', ')}${cases.length > 20 ? ` and ${cases.length - 20} more` : ''}.`,
  );
}

/**
 * The detections of the rule over one named case's events, with whether the case's expectation holds.
 * `rule` is the rule's own text and name, read from `ruleFile` by the caller.
 */
export async function testCaseText(
  ruleFile: string,
  rule: { name: string; text: string },
  caseName: string,
): Promise<string> {
  const testFile = await testFileOf(ruleFile);
  const parsed = parseRuleTestFile(testFile.text);
  if (!parsed.file) {
    const first = parsed.problems[0];
    throw new Error(
      `${dataLine(testFile.path)} has ${parsed.problems.length} problem(s) (first: line ${first.line}: ${clip(first.message, 300)}); fix it before running its cases.`,
    );
  }
  const chosen = caseNamed(parsed.file.cases, caseName, testFile.path);
  const events =
    'inline' in chosen.events
      ? chosen.events.inline
      : parseEventsText(
          (await workspaceFile(besideTestFile(testFile.path, chosen.events.file), MAX_CASE_EVENTS_BYTES)).text,
        );
  const lists: Record<string, string[]> = {};
  for (const [name, source] of Object.entries(chosen.lists)) lists[name] = await listOf(testFile.path, source);
  const run = runCase({ ruleText: rule.text, events, lists, ...(chosen.range ? { range: chosen.range } : {}) });
  if ('error' in run) throw new Error(`The case ${dataLine(chosen.name, 120)} cannot run: ${clip(run.error, 400)}`);
  const differences = run.cut ? [] : compareExpectation(chosen.expect, run.detections);
  const verdict = run.cut
    ? 'The case is incomplete (the engine stopped early), so its expectation was not compared.'
    : differences.length
      ? `The case fails: ${differences.length} difference(s) from what it expects.`
      : 'The case passes: the detections are what it expects.';
  const text = detectionsText({
    ruleName: rule.name,
    detections: run.detections,
    eventsRead: events.length,
    source: `the test case ${dataLine(chosen.name, 120)} of ${dataLine(testFile.path)} (no search spent)`,
    notes: run.notes,
    ...(run.cut ? { cut: run.cut.message } : {}),
  });
  const diff = differences.length
    ? `\n${untrusted('the comparison of the case with the detections', differences.slice(0, 50).join('\n'), 4_000)}`
    : '';
  return `${verdict}\n${text}${diff}`;
}
