// Workspace trust: what a workspace's own settings files try to decide about credentials, and what
// the user is told about it. The settings themselves are read from user level only
// (platform/settings.ts); this feature finds the workspace's attempts and says, once, which
// settings were ignored (names, never values).
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { isSensitiveSetting, SENSITIVE_SETTINGS } from '../../platform/settings';
import type { Feature, FeatureStart } from '../../platform/command-table';
import { afterActivation } from '../../platform/after-activation';
import { getLogger } from '../../platform/log';

const log = getLogger('trust');
const REPORTED_KEY = 'cloudbench.trust.reportedSettings';
export const MANAGE_TRUST = 'Manage Workspace Trust';
export const OPEN_USER_SETTINGS = 'Open User Settings';

/** Removes // and /* *\/ comments and trailing commas outside strings, as settings.json allows them. */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else {
      out += c;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/**
 * Every sensitive cloudbench.* setting a settings file sets: dotted keys, the nested form
 * ({"cloudbench": {"endpoints": …}}) and language-specific blocks ("[udm]": {…}).
 */
export function sensitiveSettingsIn(text: string): string[] {
  const found = new Set<string>();
  const stripped = stripJsonComments(text);
  let json: unknown;
  try {
    json = JSON.parse(stripped);
  } catch {
    // A file the editor can still half-read: fall back to its keys.
    for (const m of stripped.matchAll(/"(cloudbench\.[A-Za-z0-9_.-]+)"\s*:/g))
      if (m[1] && isSensitiveSetting(m[1])) found.add(m[1]);
    return [...found].sort();
  }
  const walk = (value: unknown, prefix: string): void => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [key, child] of Object.entries(value)) {
      if (/^\[.*\]$/.test(key)) {
        if (prefix === '') walk(child, '');
        continue;
      }
      const name = prefix ? `${prefix}.${key}` : key;
      if (isSensitiveSetting(name)) found.add(name);
      else if (name === 'cloudbench' || name.startsWith('cloudbench.')) walk(child, name);
    }
  };
  walk(json, '');
  return [...found].sort();
}

/** The sensitive settings this workspace tries to set, from its settings files and what the editor reports. */
export async function workspaceSettingAttempts(): Promise<string[]> {
  const names = new Set<string>();
  const config = vscode.workspace.getConfiguration('cloudbench');
  for (const name of SENSITIVE_SETTINGS) {
    const seen = config.inspect(name.slice('cloudbench.'.length));
    if (seen?.workspaceValue !== undefined || seen?.workspaceFolderValue !== undefined) names.add(name);
  }
  const files = (vscode.workspace.workspaceFolders ?? []).map((f) =>
    vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'),
  );
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile && workspaceFile.scheme !== 'untitled') files.push(workspaceFile);
  for (const uri of files) {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      continue;
    }
    for (const name of sensitiveSettingsIn(text)) names.add(name);
  }
  return [...names].sort();
}

/** The notice, worded for the trust state; names the settings, never their values. */
export function ignoredSettingsMessage(names: readonly string[], trusted: boolean): string {
  const list = names.join(', ');
  const mode = trusted ? '' : ' (Restricted Mode)';
  // Trust does not change this rule, so the notice must not suggest that trusting would.
  return (
    `This workspace${mode} tries to set ${list}. Cloudbench ignored ${names.length === 1 ? 'it' : 'them'}: ` +
    'settings that decide where your Google credentials go, or whose credentials are used, come from your user settings only, ' +
    (trusted
      ? 'whether a workspace is trusted or not.'
      : 'in Restricted Mode and in trusted workspaces alike, so trusting this workspace would not apply them either.')
  );
}

function activateTrust(context: vscode.ExtensionContext): FeatureStart<undefined> {
  const trusted = (): boolean => vscode.workspace.isTrusted;

  let running: Promise<void> | undefined;
  const check = (): Promise<void> =>
    (running ??= (async () => {
      const names = await workspaceSettingAttempts();
      if (names.length === 0) return;
      log.warn(`workspace settings ignored: ${names.join(', ')}`);
      const reported = new Set(context.workspaceState.get<string[]>(REPORTED_KEY, []));
      if (names.every((n) => reported.has(n))) return;
      await context.workspaceState.update(REPORTED_KEY, [...new Set([...reported, ...names])].sort());
      const choice = await vscode.window.showWarningMessage(
        safeText(ignoredSettingsMessage(names, trusted()), 'plain', MESSAGE_LIMIT),
        MANAGE_TRUST,
        OPEN_USER_SETTINGS,
      );
      if (choice === MANAGE_TRUST) await vscode.commands.executeCommand('workbench.trust.manage');
      if (choice === OPEN_USER_SETTINGS)
        await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:cloudbench.cloudbench');
    })()
      .catch((err: unknown) => log.error('could not read the workspace settings files', err))
      .finally(() => {
        running = undefined;
      }));

  // Reading the settings files and watching them waits until activation has returned.
  afterActivation(context, 'workspace trust check', () => {
    log.info(
      trusted()
        ? 'workspace trusted'
        : 'Restricted Mode: UDM language features, the sandbox and browsing with user settings work',
    );
    void check();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(folder, '.vscode/settings.json'),
      );
      context.subscriptions.push(watcher, watcher.onDidChange(check), watcher.onDidCreate(check));
    }
  });
  context.subscriptions.push(
    vscode.workspace.onDidChangeWorkspaceFolders(() => void check()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => log.info('workspace trusted')),
  );
  return { ctx: undefined };
}

/** Says which of the workspace's own settings were ignored; it has no commands. */
export const trustFeature: Feature<undefined, unknown> = {
  name: 'Workspace trust',
  commands: {},
  activate: activateTrust,
};
