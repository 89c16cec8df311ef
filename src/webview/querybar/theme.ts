// Which built-in Monaco theme matches the VS Code theme the webview is shown in. VS Code marks the
// body of every webview with one of these classes and updates it when the user switches themes.
export type MonacoBaseTheme = 'vs' | 'vs-dark' | 'hc-black' | 'hc-light';

export function monacoThemeFor(bodyClasses: Iterable<string>): MonacoBaseTheme {
  const classes = new Set(bodyClasses);
  if (classes.has('vscode-high-contrast-light')) return 'hc-light';
  if (classes.has('vscode-high-contrast')) return 'hc-black';
  if (classes.has('vscode-light')) return 'vs';
  // VS Code's default theme is dark, and a page outside VS Code has no class at all.
  return 'vs-dark';
}

/** The editor font from VS Code's CSS variables, with the fallbacks VS Code itself uses. */
export function editorFont(style: { getPropertyValue(name: string): string }): {
  fontFamily: string;
  fontSize: number;
} {
  const family = style.getPropertyValue('--vscode-editor-font-family').trim();
  const size = Number.parseFloat(style.getPropertyValue('--vscode-editor-font-size'));
  return {
    fontFamily: family || 'Menlo, Monaco, "Courier New", monospace',
    fontSize: Number.isFinite(size) && size >= 6 && size <= 100 ? size : 13,
  };
}

/**
 * Colours that make the editor look like the panel's other inputs: VS Code's input background and
 * foreground, when they are plain hex colours (the only form Monaco's theme accepts).
 */
export function inputColors(style: { getPropertyValue(name: string): string }): Record<string, string> {
  const colors: Record<string, string> = {};
  const pick = (themeKey: string, variable: string): void => {
    const value = style.getPropertyValue(variable).trim();
    if (/^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value)) colors[themeKey] = value;
  };
  pick('editor.background', '--vscode-input-background');
  pick('editor.foreground', '--vscode-input-foreground');
  return colors;
}
