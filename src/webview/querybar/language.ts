// A Monarch tokenizer for UDM, rule for rule after syntaxes/udm.tmLanguage.json (comments,
// sections, strings, regular expressions, $placeholders, %lists, functions, enum values, keywords,
// numbers, operators, field paths), so the bar colours a query as the editor does.
import type * as monaco from 'monaco-editor';
import languageConfiguration from '../../../language-configuration.json';

export const UDM_LANGUAGE_ID = 'udm';

/**
 * The editor's language-configuration.json, so the bar closes brackets and quotes exactly as the
 * editor does. `/` is closed by neither: a bracket pair cannot tell a regex (`= /x/`) from a
 * division (`$ratio = 10 / 2`), and closing it after a value wrote `10 / 2/`.
 */
export const udmLanguageConfiguration: monaco.languages.LanguageConfiguration = {
  comments: { lineComment: '//', blockComment: ['/*', '*/'] },
  brackets: languageConfiguration.brackets as monaco.languages.CharacterPair[],
  autoClosingPairs: languageConfiguration.autoClosingPairs,
  surroundingPairs: languageConfiguration.surroundingPairs.map(([open, close]) => ({ open, close })),
  autoCloseBefore: languageConfiguration.autoCloseBefore,
  wordPattern: /[A-Za-z_$%][A-Za-z0-9_]*/,
};

export const udmMonarch: monaco.languages.IMonarchLanguage = {
  defaultToken: '',
  ignoreCase: false,
  keywords: [
    'AND',
    'OR',
    'NOT',
    'and',
    'or',
    'not',
    'nocase',
    'in',
    'regex',
    'cidr',
    'any',
    'all',
    'asc',
    'desc',
    'true',
    'false',
    'TRUE',
    'FALSE',
  ],
  tokenizer: {
    root: [
      [/\/\/.*$/, 'comment'],
      [/\/\*/, 'comment', '@blockComment'],
      [
        /^(\s*)((?:[mM][aA][tT][cC][hH]|[oO][uU][tT][cC][oO][mM][eE]|[oO][rR][dD][eE][rR]|[lL][iI][mM][iI][tT]))(\s*)(:)/,
        ['', 'keyword', '', 'delimiter'],
      ],
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
