// Generated-input targets for text that leaves Cloudbench: what notifications, quick picks and
// tooltips show (safeText) and what a CSV cell holds (csvField). Part of the targets of
// fuzz-targets.ts, so both the property run in `npm test` and scripts/fuzz.mjs run them.
import fc from 'fast-check';
import { DISPLAY_LIMIT, safeText } from '../../src/core/display';
import { csvField, isFormulaLike } from '../../src/core/csv';
import { MARKUP_FRAGMENTS } from './fuzz-fragments';

interface Target {
  name: string;
  arbitrary: fc.Arbitrary<unknown>;
  check(input: unknown): void;
}

class ContractError extends Error {
  override readonly name = 'ContractError';
}

function expect(condition: unknown, message: string): void {
  if (!condition) throw new ContractError(message);
}

const hostileText = fc
  .array(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...MARKUP_FRAGMENTS) }, { weight: 1, arbitrary: fc.string() }),
    {
      maxLength: 60,
    },
  )
  .map((parts) => parts.join(''));

// VS Code's grammar for links in notifications (src/vs/base/common/linkedText.ts).
const LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const ICON = /(?<!\\)\$\([a-z.\d-]+(?:~[a-z\d-]*)?\)/i;
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\r\n\u2028\u2029\u202a-\u202e\u2066-\u2069\u0000-\u001f]/;
// In Markdown: markup characters only escaped, links and autolinks broken.
const MARKDOWN_OPEN = /(?<!\\)[[\]`*_|~$<>]|https?:\/\/|www\.|<[a-z]+:/i;

function checkDisplay(input: unknown): void {
  const { text, max } = input as { text: string; max: number };
  const plain = safeText(text, 'plain', max);
  expect(!LINKED_TEXT.test(plain), `a link VS Code renders: ${JSON.stringify(plain)}`);
  expect(!ICON.test(plain), `an icon: ${JSON.stringify(plain)}`);
  expect(!FORBIDDEN.test(plain), `a line break, control or bidi character: ${JSON.stringify(plain)}`);
  expect(Array.from(plain.replaceAll('\u200b', '')).length <= max, `longer than ${max}`);
  expect(safeText(plain, 'plain', max) === plain, 'not stable when shown twice');
  const md = safeText(text, 'markdown', max);
  expect(!MARKDOWN_OPEN.test(md.replaceAll('&lt;', '').replaceAll('&gt;', '')), `open markup: ${JSON.stringify(md)}`);
  expect(!/&(?!amp;|lt;|gt;)/.test(md), `a raw entity start: ${JSON.stringify(md)}`);
}

function checkCsv(input: unknown): void {
  const text = input as string;
  const field = csvField(text);
  const quoted = field.startsWith('"');
  const value = quoted ? field.slice(1, -1).replace(/""/g, '"') : field;
  expect(!quoted || /^"(?:[^"]|"")*"$/.test(field), `not one RFC 4180 field: ${JSON.stringify(field)}`);
  expect(quoted || !/[",\r\n]/.test(field), `needed quotes: ${JSON.stringify(field)}`);
  expect(value === text || value === `'${text}`, `changed the value: ${JSON.stringify(field)}`);
  expect(!isFormulaLike(value) || value.startsWith("'"), `a formula a spreadsheet runs: ${JSON.stringify(field)}`);
}

export const DISPLAY_TARGETS: Target[] = [
  {
    name: 'text shown in notifications and tooltips',
    arbitrary: fc.record({
      text: hostileText,
      max: fc.oneof(fc.constant(DISPLAY_LIMIT), fc.integer({ min: 1, max: 80 })),
    }),
    check: checkDisplay,
  },
  { name: 'CSV cells', arbitrary: hostileText, check: checkCsv },
];
