// A Monarch tokenizer for UDM, rule for rule after syntaxes/udm.tmLanguage.json (comments,
// sections, strings, regular expressions, $placeholders, %lists, functions, enum values, keywords,
// numbers, operators, field paths), so the bar colours a query as the editor does.
import type * as monaco from 'monaco-editor';
import languageConfiguration from '../../../language-configuration.json';
import { KEYWORDS, SEARCH_SECTION_NAMES, WINDOW_WORDS } from '../../udm/vocabulary';

export const UDM_LANGUAGE_ID = 'udm';

/**
 * The editor's language-configuration.json, so the bar closes brackets and quotes and finds words
 * exactly as the editor does. `/` is closed by neither: a bracket pair cannot tell a regex (`= /x/`) from a
 * division (`$ratio = 10 / 2`), and closing it after a value wrote `10 / 2/`.
 */
export const udmLanguageConfiguration: monaco.languages.LanguageConfiguration = {
  comments: { lineComment: '//', blockComment: ['/*', '*/'] },
  brackets: languageConfiguration.brackets as monaco.languages.CharacterPair[],
  autoClosingPairs: languageConfiguration.autoClosingPairs,
  surroundingPairs: languageConfiguration.surroundingPairs.map(([open, close]) => ({ open, close })),
  autoCloseBefore: languageConfiguration.autoCloseBefore,
  // The editor's words too: a lone `%` or `$` is none, so typing it is a trigger character that asks
  // for list names or variables, not a word that refilters the completions already shown.
  wordPattern: new RegExp(languageConfiguration.wordPattern),
};

/**
 * The language's keywords and window words as Monarch looks them up: it matches keywords by exact
 * text, and without `ignoreCase` (which would make the enum rule's `[A-Z]` match lower case too),
 * so each word is listed lower and upper case, as queries write them.
 */
export const MONARCH_KEYWORDS: readonly string[] = [...KEYWORDS, ...WINDOW_WORDS].flatMap((w) => [w, w.toUpperCase()]);

/** A section keyword at the start of a line, in any case: `match:`, `Outcome :`. */
export const SECTION_LINE = new RegExp(
  `^(\\s*)((?:${SEARCH_SECTION_NAMES.map((name) => name.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`)).join('|')}))(\\s*)(:)`,
);

export const udmMonarch: monaco.languages.IMonarchLanguage = {
  defaultToken: '',
  ignoreCase: false,
  keywords: MONARCH_KEYWORDS,
  tokenizer: {
    root: [
      [/\/\/.*$/, 'comment'],
      [/\/\*/, 'comment', '@blockComment'],
      [SECTION_LINE, ['', 'keyword', '', 'delimiter']],
      [/"/, 'string', '@string'],
      [/`[^`]*`/, 'string'],
      [/'[^'\n]*'?/, 'invalid'],
      [/\/(?![/*])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\[\n])*\//, 'regexp'],
      [/\$[A-Za-z0-9_]+/, 'variable'],
      [/%[A-Za-z0-9_]+/, 'variable.parameter'],
      [/(?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*(?=\()/, 'predefined'],
      [/(!=|=)(\s*)([A-Z][A-Z0-9_]*)\b(?![.(])/, ['operator', '', 'constant']],
      [
        /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/,
        { cases: { '@keywords': 'keyword', '@default': 'identifier' } },
      ],
      [/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/, 'number'],
      [/!=|<=|>=|=|<|>|\+|-|\*/, 'operator'],
      [/[(),[\]:]/, 'delimiter'],
    ],
    blockComment: [
      [/\*\//, 'comment', '@pop'],
      [/[^*]+/, 'comment'],
      [/\*/, 'comment'],
    ],
    string: [
      [/\\(?:[\\"'`/ntr]|u[0-9a-fA-F]{4}|.)/, 'string.escape'],
      [/"/, 'string', '@pop'],
      [/$/, 'string', '@pop'],
      [/[^\\"]+/, 'string'],
    ],
  },
};
