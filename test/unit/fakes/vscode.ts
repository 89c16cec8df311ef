// A stand-in for the `vscode` module in unit tests: records commands, tree views and providers the
// extension registers; every other API answers with an inert value. Install it with useFakeVscode().
import Module from 'node:module';
import { posix } from 'node:path';

export interface FakeVscodeRecord {
  commands: Map<string, (...args: unknown[]) => unknown>;
  contextKeys: Map<string, unknown>;
  messages: Array<{ level: 'info' | 'warning' | 'error'; text: string }>;
}

export const record: FakeVscodeRecord = { commands: new Map(), contextKeys: new Map(), messages: [] };

/** A value that accepts any property access, call or construction, for APIs a test does not look at. */
function inert(): any {
  const target = function () {
    /* inert */
  };
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => '';
      if (prop === Symbol.iterator)
        return function* () {
          /* empty */
        };
      if (prop === 'dispose') return () => undefined;
      if (!cache.has(prop)) cache.set(prop, inert());
      return cache.get(prop);
    },
    set(_t, prop, value) {
      cache.set(prop, value);
      return true;
    },
    apply: () => inert(),
    construct: () => inert(),
  });
}

class Disposable {
  static from(...items: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  constructor(private readonly fn: () => unknown = () => undefined) {}
  dispose(): void {
    this.fn();
  }
}

class EventEmitter<T> {
  private listeners: Array<(e: T) => unknown> = [];
  event = (listener: (e: T) => unknown): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

class Uri {
  constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  get fsPath(): string {
    return this.path;
  }
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static parse(value: string): Uri {
    return new Uri(value.split(':')[0] ?? 'file', value.replace(/^[a-z][a-z0-9+.-]*:\/*/, '/'));
  }
  static from(components: { scheme: string; path?: string; query?: string }): Uri {
    return new Uri(components.scheme, `${components.path ?? ''}${components.query ? `?${components.query}` : ''}`);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    // Like VS Code's: the path is normalized, so "report.md/../charts" is the report's folder.
    return new Uri(base.scheme, posix.normalize([base.path, ...parts].join('/')));
  }
  with(change: { scheme?: string; path?: string } = {}): Uri {
    return new Uri(change.scheme ?? this.scheme, change.path ?? this.path);
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

class FileSystemError extends Error {
  static FileNotFound(what?: unknown): FileSystemError {
    return new FileSystemError(`FileNotFound: ${String(what)}`);
  }
  static NoPermissions(what?: unknown): FileSystemError {
    return new FileSystemError(`NoPermissions: ${String(what)}`);
  }
  static Unavailable(what?: unknown): FileSystemError {
    return new FileSystemError(`Unavailable: ${String(what)}`);
  }
}

class TreeItem {
  constructor(
    public label: unknown,
    public collapsibleState?: number,
  ) {}
}

/** The fake's objects with their own properties as built: tests replace members, resetFakeVscode() puts them back. */
const pristine = new Map<object, Map<PropertyKey, PropertyDescriptor>>();

function remember<T extends object>(target: T): T {
  const props = new Map<PropertyKey, PropertyDescriptor>();
  for (const key of Reflect.ownKeys(target)) props.set(key, Object.getOwnPropertyDescriptor(target, key)!);
  pristine.set(target, props);
  return target;
}

/**
 * Puts the fake back as it was built: members a test replaced or added (window.showQuickPick,
 * workspace.workspaceFolders, configuration.get, Uri.from, ...) and what it recorded (commands,
 * context keys, messages). test/support/isolate-files.ts runs it before every test file.
 */
export function resetFakeVscode(): void {
  for (const [target, props] of pristine) {
    for (const key of Reflect.ownKeys(target)) {
      const d = Object.getOwnPropertyDescriptor(target, key)!;
      if (!props.has(key) && d.configurable) delete (target as Record<PropertyKey, unknown>)[key];
    }
    for (const [key, d] of props) {
      const now = Object.getOwnPropertyDescriptor(target, key);
      const same = now && now.value === d.value && now.get === d.get && now.set === d.set;
      if (!same && (now?.configurable ?? true)) Object.defineProperty(target, key, d);
    }
  }
  record.commands.clear();
  record.contextKeys.clear();
  record.messages.length = 0;
}

const configuration = {
  get: (_key: string, fallback?: unknown) => fallback,
  has: () => false,
  inspect: () => undefined,
  update: async () => undefined,
};

const fake: Record<string, unknown> = new Proxy(
  remember({
    Disposable,
    EventEmitter,
    Uri,
    TreeItem,
    ThemeIcon: class {
      constructor(
        readonly id: string,
        readonly color?: unknown,
      ) {}
    },
    ThemeColor: class {
      constructor(readonly id: string) {}
    },
    TabInputText: class {
      constructor(readonly uri: unknown) {}
    },
    MarkdownString: class {
      value = '';
      constructor(v = '') {
        this.value = v;
      }
      appendMarkdown(v: string) {
        this.value += v;
        return this;
      }
      appendText(v: string) {
        this.value += v;
        return this;
      }
      appendCodeblock(v: string) {
        this.value += v;
        return this;
      }
    },
    CodeLens: class {
      constructor(
        readonly range: unknown,
        readonly command?: unknown,
      ) {}
    },
    Range: class {
      constructor(...args: unknown[]) {
        void args;
      }
    },
    Position: class {
      constructor(
        readonly line: number,
        readonly character: number,
      ) {}
    },
    Selection: class {
      constructor(...args: unknown[]) {
        void args;
      }
    },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    FileSystemError,
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    Diagnostic: class {
      source?: string;
      constructor(
        readonly range: unknown,
        readonly message: string,
        readonly severity?: number,
      ) {}
    },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    commands: new Proxy(
      remember({
        registerCommand(id: string, fn: (...args: unknown[]) => unknown) {
          if (record.commands.has(id)) throw new Error(`command '${id}' already exists`);
          record.commands.set(id, fn);
          return new Disposable(() => record.commands.delete(id));
        },
        executeCommand: async (id: string, ...args: unknown[]) => {
          if (id === 'setContext') record.contextKeys.set(String(args[0]), args[1]);
          return undefined;
        },
        getCommands: async () => [...record.commands.keys()],
      }),
      { get: (t, p) => (p in t ? (t as any)[p] : inert()) },
    ),
    window: new Proxy(
      remember({
        showInformationMessage: async (text: string) => {
          record.messages.push({ level: 'info', text });
          return undefined;
        },
        showWarningMessage: async (text: string) => {
          record.messages.push({ level: 'warning', text });
          return undefined;
        },
        showErrorMessage: async (text: string) => {
          record.messages.push({ level: 'error', text });
          return undefined;
        },
        createOutputChannel: () => inert(),
      }),
      { get: (t, p) => (p in t ? (t as any)[p] : inert()) },
    ),
    // A plain object, so tests can replace the clipboard's methods and the code under test sees them.
    env: new Proxy(remember({ clipboard: { writeText: async () => undefined, readText: async () => '' } }), {
      get: (t, p) => (p in t ? (t as any)[p] : inert()),
    }),
    // Tests may put their own registerDefinitionProvider… here (put back by resetFakeVscode()).
    languages: new Proxy(remember({}), { get: (t, p) => (p in t ? (t as any)[p] : inert()) }),
    notebooks: new Proxy({}, { get: () => inert() }),
    tests: new Proxy(remember({}), { get: (t, p) => (p in t ? (t as any)[p] : inert()) }),
    extensions: new Proxy(remember({}), { get: (t, p) => (p in t ? (t as any)[p] : inert()) }),
    TestRunProfileKind: { Run: 1, Debug: 2, Coverage: 3 },
    Location: class {
      constructor(
        readonly uri: unknown,
        readonly range: unknown,
      ) {}
    },
    TestMessage: class TestMessage {
      location?: unknown;
      expectedOutput?: string;
      actualOutput?: string;
      constructor(readonly message: unknown) {}
      static diff(message: unknown, expected: string, actual: string): TestMessage {
        const m = new TestMessage(message);
        m.expectedOutput = expected;
        m.actualOutput = actual;
        return m;
      }
    },
    TestRunRequest: class {
      constructor(
        readonly include?: unknown,
        readonly exclude?: unknown,
        readonly profile?: unknown,
      ) {}
    },
    workspace: new Proxy(
      remember({
        getConfiguration: () => configuration,
        onDidChangeConfiguration: () => new Disposable(),
        workspaceFolders: undefined,
        textDocuments: [],
      }),
      { get: (t, p) => (p in t ? (t as any)[p] : inert()) },
    ),
  }),
  { get: (t, p) => (p in t ? (t as any)[p] : inert()) },
);
remember(configuration);
remember(Uri);

let installed = false;

/** Makes `require('vscode')` return the fake for the rest of the test run. */
export function useFakeVscode(): typeof record {
  if (!installed) {
    installed = true;
    const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
    const original = mod._load;
    mod._load = function (request: string, ...rest: unknown[]) {
      if (request === 'vscode') return fake;
      return original.call(this, request, ...rest);
    };
  }
  return record;
}

/** A minimal ExtensionContext whose subscriptions the test can dispose. */
export function fakeExtensionContext(packageJSON: unknown, extensionPath: string): any {
  const state = new Map<string, unknown>();
  const memento = {
    get: (k: string, d?: unknown) => (state.has(k) ? state.get(k) : d),
    update: async (k: string, v: unknown) => {
      state.set(k, v);
    },
    keys: () => [...state.keys()],
  };
  return {
    subscriptions: [] as Array<{ dispose(): unknown }>,
    extensionUri: Uri.file(extensionPath),
    extensionPath,
    extension: { packageJSON, id: 'cloudbench.cloudbench' },
    globalState: memento,
    workspaceState: memento,
    secrets: {
      get: async () => undefined,
      store: async () => undefined,
      delete: async () => undefined,
      onDidChange: () => new Disposable(),
    },
    globalStorageUri: Uri.file(`${extensionPath}/.tmp/global`),
    storageUri: undefined,
    logUri: Uri.file(`${extensionPath}/.tmp/log`),
    asAbsolutePath: (p: string) => `${extensionPath}/${p}`,
  };
}
