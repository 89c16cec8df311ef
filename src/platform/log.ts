import * as vscode from 'vscode';
import { describeError, isCancellation, isExpectedFailure } from '../core/google/errors';
import { redactSecrets } from '../core/secrets';

/** A logger for one component; every line goes to the one "Cloudbench" log channel, secrets redacted. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
  /**
   * A failed request or command: an expected failure (bad input, permissions, not found,
   * throttling, network, credentials) as one warning line with the request name and the words the
   * user saw; an unexpected one at error level with its stack; a user's cancel at debug level.
   */
  failure(what: string, err: unknown): void;
}

let channel: vscode.LogOutputChannel | undefined;

export function initLogging(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('Cloudbench', { log: true });
  context.subscriptions.push(channel);
  return channel;
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

export function getLogger(component: string): Logger {
  const tag = `[${component}] `;
  const write = (level: 'trace' | 'debug' | 'info' | 'warn', message: string): void => {
    channel?.[level](redactSecrets(tag + message));
  };
  return {
    trace: (m) => write('trace', m),
    debug: (m) => write('debug', m),
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m, err) => channel?.error(redactSecrets(tag + m + (err === undefined ? '' : `\n${describe(err)}`))),
    failure: (what, err) => {
      if (isCancellation(err)) return write('debug', `${what}: cancelled`);
      if (!isExpectedFailure(err)) {
        channel?.error(redactSecrets(`${tag}${what} failed\n${describe(err)}`));
        return;
      }
      const method = (err as { options?: { method?: unknown } } | null)?.options?.method;
      const request = typeof method === 'string' && !what.includes(method) ? ` (${method})` : '';
      write('warn', `${what}${request}: ${describeError(err).replace(/\s*\n\s*/g, ' ')}`);
    },
  };
}

export function showLogs(): void {
  channel?.show(true);
}
