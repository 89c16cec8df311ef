// Monaco's switch for what Tab does (its own module, without types in the package).
declare module 'monaco-editor/esm/vs/editor/browser/config/tabFocus.js' {
  export const TabFocus: { setTabFocusMode(tabFocusMode: boolean): void; getTabFocusMode(): boolean };
}
