// A minimal LSP client over a spawned `node dist/server.js --stdio`, for tests and benchmarks.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import {
  createMessageConnection,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';

const ROOT = join(__dirname, '..', '..', '..');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * dist/server.js when the build is up to date (the artifact users get); otherwise the same entry
 * point bundled into a temporary directory, so a stale or missing build never decides a test.
 */
export function serverPath(): string {
  // Benchmarks compare with another build of the server (e.g. one unpacked from an older package).
  if (process.env.CLOUDBENCH_LSP_SERVER) return process.env.CLOUDBENCH_LSP_SERVER;
  const dist = join(ROOT, 'dist', 'server.js');
  const sources = Math.max(newestSource(join(ROOT, 'src/udm')), newestSource(join(ROOT, 'src/server')));
  if (existsSync(dist) && statSync(dist).mtimeMs >= sources) return dist;
  const out = join(mkdtempSync(join(tmpdir(), 'udm-server-')), 'server.js');
  buildSync({
    entryPoints: [join(ROOT, 'src/server/main.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: out,
    logLevel: 'error',
  });
  return out;
}

export interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: Array<{
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    message: string;
    severity?: number;
    source?: string;
    code?: string | number;
    data?: unknown;
  }>;
}

export class LspClient {
  readonly connection: MessageConnection;
  private readonly waiters: Array<{ uri: string; resolve: (p: PublishedDiagnostics) => void }> = [];
  readonly published: PublishedDiagnostics[] = [];
  private readonly subscription: { dispose(): void };

  private constructor(
    private readonly proc: ChildProcess,
    ipc = false,
  ) {
    this.connection = ipc
      ? createMessageConnection(new IPCMessageReader(proc), new IPCMessageWriter(proc))
      : createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    // Lives as long as the connection, which stop() disposes.
    this.subscription = this.connection.onNotification('textDocument/publishDiagnostics', (p: PublishedDiagnostics) => {
      this.published.push(p);
      const i = this.waiters.findIndex((w) => w.uri === p.uri);
      if (i >= 0) this.waiters.splice(i, 1)[0].resolve(p);
    });
    this.connection.listen();
  }

  /** Starts the server with `--stdio`, or with `--node-ipc` as the extension does when `ipc` is set. */
  static async start(
    capabilities: Record<string, unknown> = {},
    initializationOptions?: unknown,
    ipc = false,
  ): Promise<{ client: LspClient; initializeResult: { capabilities: Record<string, unknown> } }> {
    const proc = ipc
      ? fork(serverPath(), ['--node-ipc'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
      : spawn(process.execPath, [serverPath(), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const client = new LspClient(proc, ipc);
    const initializeResult = await client.connection.sendRequest<{ capabilities: Record<string, unknown> }>(
      'initialize',
      {
        processId: process.pid,
        rootUri: null,
        capabilities,
        initializationOptions,
      },
    );
    await client.connection.sendNotification('initialized', {});
    return { client, initializeResult };
  }

  /** The server's process id (benchmarks read its CPU time). */
  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** Resolves with the next diagnostics published for `uri`. */
  nextDiagnostics(uri: string): Promise<PublishedDiagnostics> {
    return new Promise((resolve) => this.waiters.push({ uri, resolve }));
  }

  open(uri: string, text: string, version = 1, languageId = 'udm'): Promise<void> {
    return this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version, text },
    });
  }

  change(uri: string, text: string, version: number): Promise<void> {
    return this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest<R>(method, params);
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => {
      if (this.proc.exitCode !== null) resolve();
      else this.proc.once('exit', () => resolve());
    });
    try {
      await this.connection.sendRequest('shutdown');
      await this.connection.sendNotification('exit');
    } catch {
      this.proc.kill();
    }
    await exited;
    this.subscription.dispose();
    this.connection.dispose();
  }
}
