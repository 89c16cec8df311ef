// Typing replayed over the LSP wire against the language server, run by bench/udm.ts: what the
// editor sends while someone types in a 2,000-line search or rule file, and what it costs the
// server per key press (CPU time of its process, which a shared machine does not inflate with
// waiting), with the requests by method (count, cancelled, round trip, bytes answered).
//
// The editor's pattern, as VS Code and vscode-languageclient send it: each key press is an
// incremental didChange and a diagnostics pull (the pull in flight is cancelled, and pulled again
// when its answer comes back); a completion request where a word starts or at a trigger
// character; semantic tokens at most every 300 ms while typing (as edits when the server offers
// them); folding, outline and quick fixes once typing pauses.
import { readFileSync } from 'node:fs';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import { LspClient } from '../test/integration/server/lsp-client';
import { ruleText } from './_yaral-lib';

const KEY_MS = 80;
const TOKENS_EVERY_MS = 300;
const TRIGGERS = new Set(['.', '"', '=', '$', '%', '#']);

export function bigQuery(lines: number): string {
  const out = ['// 2,000 lines: one long hunt'];
  for (let i = 1; out.length < lines - 1; i++)
    out.push(`(principal.hostname = "host-${i}" and metadata.event_type = "USER_LOGIN") or`);
  out.push('principal.ip = "10.0.0.1"');
  return `${out.join('\n')}\n`;
}

export interface Place {
  label: string;
  text: string;
  languageId: string;
  /** 0-based line whose end the typing starts at */
  line: number;
  typed: string;
}

export function places(): Place[] {
  const query = bigQuery(2000);
  const rule = `${ruleText(2000)}\n`;
  const ruleLines = rule.split('\n').length;
  return [
    {
      label: '2k lines',
      text: query,
      languageId: 'udm',
      line: 2000,
      typed: ' or target.ip = "10.1.2.3" and metadata.event_type = "USER_LOGIN"',
    },
    {
      label: '2k lines middle',
      text: query,
      languageId: 'udm',
      line: 999,
      typed: ' target.ip = "10.1.2.3" or metadata.event_type = "USER_LOGIN" or',
    },
    { label: '2k-line rule', text: rule, languageId: 'yaral', line: ruleLines - 3, typed: ' and #e1 > 2 and $o1 > 0' },
    {
      label: '2k-line rule middle',
      text: rule,
      languageId: 'yaral',
      line: 999,
      typed: ' or $e1.target.ip = "10.1.2.3" and $e1.metadata.event_type = "USER_LOGIN"',
    },
  ];
}

interface MethodStats {
  count: number;
  cancelled: number;
  ms: number;
  bytes: number;
}

export interface ReplayResult {
  cpuPerKey: number;
  byMethod: Map<string, MethodStats>;
}

function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Linux reports clock ticks of 10 ms.
  return (Number(f[11]) + Number(f[12])) * 10;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function replay(place: Place, keys: number): Promise<ReplayResult> {
  const { client, initializeResult } = await LspClient.start({
    textDocument: { diagnostic: { dynamicRegistration: false } },
  });
  const byMethod = new Map<string, MethodStats>();
  const stat = (method: string): MethodStats => {
    let s = byMethod.get(method);
    if (!s) byMethod.set(method, (s = { count: 0, cancelled: 0, ms: 0, bytes: 0 }));
    return s;
  };
  const request = async <R>(
    method: string,
    params: unknown,
    token?: CancellationTokenSource,
  ): Promise<R | undefined> => {
    const s = stat(method);
    s.count++;
    const t0 = performance.now();
    try {
      const r = token
        ? await client.connection.sendRequest<R>(method, params, token.token)
        : await client.connection.sendRequest<R>(method, params);
      s.ms += performance.now() - t0;
      s.bytes += JSON.stringify(r ?? null).length;
      return r;
    } catch {
      s.ms += performance.now() - t0;
      s.cancelled++;
      return undefined;
    }
  };
  try {
    const uri = `file:///bench/typing.${place.languageId}`;
    const tokensCap = initializeResult.capabilities.semanticTokensProvider as { full?: { delta?: boolean } | boolean };
    const delta = typeof tokensCap.full === 'object' && tokensCap.full.delta === true;
    await client.open(uri, place.text, 1, place.languageId);
    const textDocument = { uri };

    // One pull in flight at a time; a change cancels it and it is asked again once answered.
    let pullResultId: string | undefined;
    let active: { cts: CancellationTokenSource; done: Promise<void> } | undefined;
    let again = false;
    const startPull = (): void => {
      const cts = new CancellationTokenSource();
      const done = request<{ resultId?: string }>(
        'textDocument/diagnostic',
        { textDocument, previousResultId: pullResultId },
        cts,
      ).then((r) => {
        if (r?.resultId) pullResultId = r.resultId;
        active = undefined;
        if (again) {
          again = false;
          startPull();
        }
      });
      active = { cts, done };
    };
    const pull = (): void => {
      if (active) {
        active.cts.cancel();
        again = true;
      } else startPull();
    };
    let tokensId: string | undefined;
    let tokensInFlight: Promise<unknown> | undefined;
    const tokens = (): void => {
      if (tokensInFlight) return;
      const method = delta && tokensId ? 'textDocument/semanticTokens/full/delta' : 'textDocument/semanticTokens/full';
      tokensInFlight = request<{ resultId?: string }>(method, { textDocument, previousResultId: tokensId }).then(
        (r) => {
          if (r?.resultId) tokensId = r.resultId;
          tokensInFlight = undefined;
        },
      );
    };
    const settle = async (): Promise<void> => {
      while (active || tokensInFlight) await Promise.all([active?.done, tokensInFlight]);
    };
    pull();
    tokens();
    await settle();

    const lines = place.text.split('\n');
    let line = place.line;
    let character = lines[line].length;
    let version = 1;
    let lastTokens = performance.now();
    const pending: Array<Promise<unknown>> = [];
    const cpu0 = processCpuMs(client.pid!);
    let previous = '';
    for (let k = 0; k < keys; k++) {
      const i = k % (place.typed.length + 1);
      const c = i === place.typed.length ? '\n' : place.typed[i];
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [{ range: { start: { line, character }, end: { line, character } }, text: c }],
      });
      if (c === '\n') {
        line++;
        character = 0;
      } else character++;
      pull();
      const word = /\w/.test(c);
      if (TRIGGERS.has(c) || (word && !/\w/.test(previous)))
        pending.push(request('textDocument/completion', { textDocument, position: { line, character } }));
      previous = c;
      if (performance.now() - lastTokens >= TOKENS_EVERY_MS) {
        lastTokens = performance.now();
        tokens();
      }
      if (c === '\n') {
        // A pause at the end of each line: what the editor asks once typing stops.
        await Promise.all(pending.splice(0));
        for (const method of ['textDocument/foldingRange', 'textDocument/documentSymbol'])
          pending.push(request(method, { textDocument }));
        pending.push(
          request('textDocument/codeAction', {
            textDocument,
            range: { start: { line, character }, end: { line, character } },
            context: { diagnostics: [] },
          }),
        );
      }
      await sleep(KEY_MS);
    }
    tokens();
    await Promise.all(pending);
    await settle();
    const cpu = processCpuMs(client.pid!) - cpu0;
    return { cpuPerKey: cpu / keys, byMethod };
  } finally {
    await client.stop();
  }
}

export function requestLines(r: ReplayResult): string[] {
  return [...r.byMethod]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(
      ([method, s]) =>
        `    ${method.replace('textDocument/', '')}: ${s.count} requests${s.cancelled ? ` (${s.cancelled} cancelled or "content modified")` : ''}, round trips ${Math.round(s.ms)} ms in all, ${Math.round(s.bytes / 1024)} KiB answered`,
    );
}

/** Prints the replay's figures for every place (bench/udm.ts, or this file run on its own). */
export async function printTypingReplay(keys = 120): Promise<void> {
  for (const place of places()) {
    const r = await replay(place, keys);
    console.log(`udm typing server CPU per key press ${place.label} ms: ${r.cpuPerKey.toFixed(1)} ms`);
    for (const line of requestLines(r)) console.log(line);
  }
}

if (require.main === module) {
  printTypingReplay(Number(process.env.CLOUDBENCH_TYPING_KEYS ?? 120)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
