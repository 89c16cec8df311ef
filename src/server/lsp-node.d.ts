// tsconfig resolves modules the node10 way, which ignores package "exports"; esbuild honours them.
// These map the exported `/node` subpaths to the files they point at so both agree.
declare module 'vscode-languageserver/node' {
  export * from 'vscode-languageserver/lib/node/main';
}
declare module 'vscode-languageserver-protocol/node' {
  export * from 'vscode-languageserver-protocol/lib/node/main';
}
declare module 'vscode-jsonrpc/node' {
  export * from 'vscode-jsonrpc/lib/node/main';
}
declare module 'vscode-languageclient/node' {
  export * from 'vscode-languageclient/lib/node/main';
}
