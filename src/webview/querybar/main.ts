// The results panel's query bar as a Monaco editor. results.js adds this bundle only after the
// table's first paint; it takes over the plain textarea, keeps it in step (the page's Run reads it)
// and gets completion and diagnostics from the extension, which answers with the same UDM language
// service the editor's language server runs.
import 'monaco-editor/esm/vs/editor/contrib/suggest/browser/suggestController.js';
import 'monaco-editor/esm/vs/editor/contrib/hover/browser/hoverContribution.js';
import 'monaco-editor/esm/vs/editor/contrib/snippet/browser/snippetController2.js';
import 'monaco-editor/esm/vs/editor/contrib/bracketMatching/browser/bracketMatching.js';
import 'monaco-editor/esm/vs/editor/contrib/wordOperations/browser/wordOperations.js';
import 'monaco-editor/esm/vs/editor/contrib/clipboard/browser/clipboard.js';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api.js';
import './style.css';
import type { CompletionItem, Diagnostic } from 'vscode-languageserver-types';
import { parseToWebview, type FromWebview } from '../../core/secops/messages';
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
const VALIDATE_DELAY_MS = 150;

const host = document.getElementById('query-host');
const input = document.getElementById('query-input') as HTMLTextAreaElement | null;

function send(message: FromWebview): void {
  document.dispatchEvent(new CustomEvent('cloudbench:querybar-post', { detail: message }));
}

let nextId = 1;
const pendingCompletions = new Map<number, (items: CompletionItem[]) => void>();
let latestValidation = 0;
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
      provideCompletionItems(model, position, _context, token) {
        const id = nextId++;
        const word = model.getWordUntilPosition(position);
        const range = {
          startLineNumber: position.lineNumber,
          endLineNumber: position.lineNumber,
          startColumn: word.startColumn,
          endColumn: word.endColumn,
        };
        return new Promise<monaco.languages.CompletionList>((resolve) => {
          const done = (items: CompletionItem[]): void => {
            pendingCompletions.delete(id);
            resolve({ suggestions: toMonacoCompletions(items, range) });
          };
          pendingCompletions.set(id, done);
          const onCancel = token.onCancellationRequested(() => {
            onCancel.dispose();
            done([]);
          });
          send({ type: 'querybar.complete', id, text: model.getValue(), position: toLspPosition(position) });
        });
      },
    }),
  );

  const font = editorFont(getComputedStyle(document.body));
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
      latestValidation = nextId++;
      send({ type: 'querybar.validate', id: latestValidation, text: model.getValue() });
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

  window.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: unknown } | null;
    // Only the bar's answers; results.js handles (and checks) everything else.
    if (typeof data?.type !== 'string' || !data.type.startsWith('querybar.')) return;
    let message;
    try {
      message = parseToWebview(data);
    } catch (err) {
      console.warn('ignored a malformed query bar answer', err);
      return;
    }
    if (message.type === 'querybar.completions') pendingCompletions.get(message.id)?.(message.items);
    else if (message.type === 'querybar.diagnostics' && message.id === latestValidation)
      setMarkers(model, message.diagnostics);
  });

  new MutationObserver(applyTheme).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  if (document.activeElement === inputEl) editor.focus();
  validate();
  hostEl.dataset.editor = 'monaco';
  document.dispatchEvent(new CustomEvent('cloudbench:querybar-ready'));
}

function setMarkers(model: monaco.editor.ITextModel, diagnostics: Diagnostic[]): void {
  monaco.editor.setModelMarkers(model, 'udm', toMonacoMarkers(diagnostics));
}

if (host && input) start(host, input);
