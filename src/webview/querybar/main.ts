// The results panel's query bar as a Monaco editor. results.js adds this bundle only after the
// table's first paint; it takes over the plain textarea, keeps it in step (the page's Run reads it)
// and completes and checks in the page with the UDM language service the editor's language server
// runs, so a key reaches the suggest widget without a trip through the extension host. The
// reference lists come from the extension through results.js.
import 'monaco-editor/esm/vs/editor/contrib/suggest/browser/suggestController.js';
import 'monaco-editor/esm/vs/editor/contrib/hover/browser/hoverContribution.js';
import 'monaco-editor/esm/vs/editor/contrib/snippet/browser/snippetController2.js';
import 'monaco-editor/esm/vs/editor/contrib/bracketMatching/browser/bracketMatching.js';
import 'monaco-editor/esm/vs/editor/contrib/wordOperations/browser/wordOperations.js';
import 'monaco-editor/esm/vs/editor/contrib/clipboard/browser/clipboard.js';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api.js';
import { TabFocus } from 'monaco-editor/esm/vs/editor/browser/config/tabFocus.js';
import './style.css';
import { QueryBarService, type QueryBarLists } from '../../core/secops/querybar-service';
import { toLspPosition, toMonacoCompletions, toMonacoMarkers } from './convert';
import { UDM_LANGUAGE_ID, udmLanguageConfiguration, udmMonarch } from './language';
import { editorFont, inputColors, monacoThemeFor } from './theme';

// No web workers: the CSP allows no worker source, and the bar needs none of Monaco's worker
// features (word suggestions, links, diffs are off). A factory that refuses makes Monaco use its
// in-page fallback for the little it still asks for.
(self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
  getWorker: () => {
    throw new Error('the query bar runs without web workers');
  },
};

const MAX_LINES = 8;
/** Diagnostics follow typing closely but not on every keystroke of a burst, as in the language server. */
const VALIDATE_DELAY_MS = 60;

const host = document.getElementById('query-host');
const input = document.getElementById('query-input') as HTMLTextAreaElement | null;
const service = new QueryBarService();
/** Monaco registrations and listeners that live as long as the page; released when it goes away. */
const pageLifetime: monaco.IDisposable[] = [];
window.addEventListener('pagehide', () => {
  for (const d of pageLifetime.splice(0)) d.dispose();
});

/** The built-in theme for the VS Code theme kind, on the panel's input colours; again on every switch. */
function applyTheme(): string {
  monaco.editor.defineTheme('cloudbench', {
    base: monacoThemeFor(document.body.classList),
    inherit: true,
    rules: [],
    colors: inputColors(getComputedStyle(document.body)),
  });
  monaco.editor.setTheme('cloudbench');
  return 'cloudbench';
}

function start(hostEl: HTMLElement, inputEl: HTMLTextAreaElement): void {
  monaco.languages.register({ id: UDM_LANGUAGE_ID, extensions: ['.udm'] });
  pageLifetime.push(
    monaco.languages.setLanguageConfiguration(UDM_LANGUAGE_ID, udmLanguageConfiguration),
    monaco.languages.setMonarchTokensProvider(UDM_LANGUAGE_ID, udmMonarch),
  );
  pageLifetime.push(
    monaco.languages.registerCompletionItemProvider(UDM_LANGUAGE_ID, {
      // The language server's trigger characters.
      triggerCharacters: ['.', '$', '%', '"', '='],
      provideCompletionItems(model, position) {
        const word = model.getWordUntilPosition(position);
        const range = {
          startLineNumber: position.lineNumber,
          endLineNumber: position.lineNumber,
          startColumn: word.startColumn,
          endColumn: word.endColumn,
        };
        const items = service.completions(model.getValue(), toLspPosition(position));
        return { suggestions: toMonacoCompletions(items, range) };
      },
    }),
  );

  const font = editorFont(getComputedStyle(document.body));
  // Tab and Shift+Tab move the keyboard on to the panel's other controls, as in a form field (the
  // query bar is never a keyboard trap); the formatter owns the indentation. (Monaco's tabFocusMode
  // editor option is not read by this build: the switch is this page-wide one.)
  TabFocus.setTabFocusMode(true);
  const model = monaco.editor.createModel(inputEl.value, UDM_LANGUAGE_ID);
  hostEl.classList.add('monaco');
  const editor = monaco.editor.create(hostEl, {
    model,
    theme: applyTheme(),
    ariaLabel: 'UDM query',
    fontFamily: font.fontFamily,
    fontSize: font.fontSize,
    automaticLayout: true,
    minimap: { enabled: false },
    lineNumbers: 'off',
    glyphMargin: false,
    folding: false,
    lineDecorationsWidth: 6,
    renderLineHighlight: 'none',
    scrollBeyondLastLine: false,
    overviewRulerLanes: 0,
    hideCursorInOverviewRuler: true,
    scrollbar: { vertical: 'auto', horizontal: 'auto', alwaysConsumeMouseWheel: false },
    wordWrap: 'on',
    wordBasedSuggestions: 'off',
    links: false,
    unicodeHighlight: { ambiguousCharacters: false, invisibleCharacters: false },
    contextmenu: false,
    // The suggest and hover widgets may reach past the bar's few lines.
    fixedOverflowWidgets: true,
    quickSuggestions: { other: true, comments: false, strings: true },
  });

  const lineHeight = editor.getOption(monaco.editor.EditorOption.lineHeight);
  const fitHeight = (): void => {
    const height = Math.min(editor.getContentHeight(), lineHeight * MAX_LINES + 4);
    hostEl.style.height = `${Math.max(lineHeight + 4, height)}px`;
  };
  pageLifetime.push(editor.onDidContentSizeChange(fitHeight));
  fitHeight();

  let validateTimer: ReturnType<typeof setTimeout> | undefined;
  const validate = (): void => {
    clearTimeout(validateTimer);
    validateTimer = setTimeout(() => {
      monaco.editor.setModelMarkers(model, 'udm', toMonacoMarkers(service.diagnostics(model.getValue())));
    }, VALIDATE_DELAY_MS);
  };
  let settingFromPage = false;
  pageLifetime.push(
    model.onDidChangeContent(() => {
      inputEl.value = model.getValue();
      if (!settingFromPage) validate();
    }),
  );
  // A new run puts its query into the bar.
  document.addEventListener('cloudbench:query-text', (event) => {
    const text = (event as CustomEvent<unknown>).detail;
    if (typeof text !== 'string' || text === model.getValue()) return;
    settingFromPage = true;
    model.setValue(text);
    settingFromPage = false;
    validate();
  });
  editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => {
    document.dispatchEvent(new CustomEvent('cloudbench:querybar-run'));
  });

  // The reference lists, checked by results.js on arrival: completion and checks follow them.
  document.addEventListener('cloudbench:querybar-lists', (event) => {
    service.setLists((event as CustomEvent<QueryBarLists>).detail);
    validate();
  });

  new MutationObserver(applyTheme).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  if (document.activeElement === inputEl) editor.focus();
  validate();
  hostEl.dataset.editor = 'monaco';
  document.dispatchEvent(new CustomEvent('cloudbench:querybar-ready'));
}

if (host && input) start(host, input);
