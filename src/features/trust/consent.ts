// The user's explicit opt-in for a token host outside the universe domain: asked once per host, with
// the exact host in the question, and remembered in user settings (never in a workspace).
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import { ALLOWED_HOSTS_SETTING, type ConsentRequest } from '../../core/google/token-policy';
import { userLevelValue } from '../../platform/settings';
import { getLogger } from '../../platform/log';

const log = getLogger('trust');
export const ALLOW_CHOICE = 'Allow and Remember';

export async function askTokenHostConsent(request: ConsentRequest): Promise<boolean> {
  log.warn(`asking before sending Google credentials to ${request.display} (outside ${request.universeDomain})`);
  const host = safeText(request.display);
  const choice = await vscode.window.showWarningMessage(
    `Send your Google credentials to ${host}?`,
    {
      modal: true,
      detail:
        `${host} is not a Google API host of the universe ${safeText(request.universeDomain)}, yet an endpoint in ` +
        `your user settings points there. Allow it only if you set that endpoint yourself and trust the server: it ` +
        `will receive your Google access token. Your answer is remembered in ${ALLOWED_HOSTS_SETTING} (user settings).`,
    },
    ALLOW_CHOICE,
  );
  if (choice !== ALLOW_CHOICE) {
    log.warn(`Google credentials not sent to ${request.display}: not allowed`);
    return false;
  }
  const config = vscode.workspace.getConfiguration('cloudbench');
  const current = userLevelValue<unknown>(config, 'allowedTokenHosts');
  const hosts = Array.isArray(current) ? current.filter((h): h is string => typeof h === 'string') : [];
  if (!hosts.includes(request.display))
    await config.update('allowedTokenHosts', [...hosts, request.display], vscode.ConfigurationTarget.Global);
  log.info(`${request.display} allowed to receive Google credentials`);
  return true;
}
