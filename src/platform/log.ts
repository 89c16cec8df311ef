import * as vscode from 'vscode';
import { redactSecrets } from '../core/secrets';

/** A logger for one component; every line goes to the one "Cloudbench" log channel, secrets redacted. */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
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
  };
}

export function showLogs(): void {
  channel?.show(true);
}
