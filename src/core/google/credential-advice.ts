// What to tell someone whose credentials failed: the cause in words and the next step that fits
// the service and where the credentials came from.
import { redactSecrets } from '../secrets';
import {
  ADC_LOGIN_COMMAND,
  ADC_SECOPS_LOGIN_COMMAND,
  type CredentialType,
  type CredentialService,
  type CredentialProblem,
  type CredentialFix,
  type CredentialOrigin,
  CredentialsError,
} from './credential-types';

export function settingOf(origin: CredentialOrigin): string | undefined {
  return origin.kind === 'setting' ? origin.setting : undefined;
}

export function chooseFileFix(service: CredentialService): CredentialFix {
  return service === 'secops'
    ? { label: 'Choose SecOps Key File…', command: 'cloudbench.chooseSecOpsCredentialsFile' }
    : { label: 'Choose Credentials File…', command: 'cloudbench.chooseCredentialsFile' };
}

/** The next step for a broken or unusable credentials source, fitting the service and source. */
export function nextStep(
  origin: CredentialOrigin,
  service: CredentialService,
  problem: CredentialProblem,
): { text: string; fixes: CredentialFix[] } {
  if (service === 'secops' && ((origin.kind === 'setting' && !origin.chosen) || problem === 'missing')) {
    const text =
      problem === 'revoked'
        ? 'Ask your Google SecOps administrator for a new service-account key file and choose it in cloudbench.secops.credentialsFile.'
        : 'Choose the service-account key file Google SecOps gave you (cloudbench.secops.credentialsFile).';
    return {
      text,
      fixes: [
        chooseFileFix('secops'),
        {
          label: 'Open Settings',
          command: 'workbench.action.openSettings',
          args: ['cloudbench.secops.credentialsFile'],
        },
      ],
    };
  }
  if (origin.kind === 'setting' && origin.chosen) {
    return {
      text: `${service === 'secops' ? 'Choose the service-account key file Google SecOps gave you' : 'Choose another key file'}; ${origin.setting} was not changed.`,
      fixes: [chooseFileFix(service)],
    };
  }
  if (origin.kind === 'setting') {
    const text =
      problem === 'revoked'
        ? `Create a new key for the service account, or choose another file in ${origin.setting}.`
        : `Choose a valid key file in ${origin.setting}, or clear the setting to use application default credentials.`;
    return {
      text,
      fixes: [
        chooseFileFix(service),
        { label: 'Open Settings', command: 'workbench.action.openSettings', args: [origin.setting] },
      ],
    };
  }
  if (origin.kind === 'env') {
    return {
      text: 'Fix or unset GOOGLE_APPLICATION_CREDENTIALS (then restart VS Code), or choose a credentials file.',
      fixes: [chooseFileFix(service)],
    };
  }
  const command = service === 'secops' ? ADC_SECOPS_LOGIN_COMMAND : ADC_LOGIN_COMMAND;
  return {
    text: `Run \`${command}\` in a terminal, or choose a credentials file.`,
    fixes: [{ label: 'Copy Command', copy: command }, chooseFileFix(service)],
  };
}

export function fail(
  origin: CredentialOrigin,
  service: CredentialService,
  problem: CredentialProblem,
  what: string,
  cause?: unknown,
): CredentialsError {
  const step = nextStep(origin, service, problem);
  return new CredentialsError(redactSecrets(`${what} ${step.text}`), settingOf(origin), {
    problem,
    fixes: step.fixes,
    ...(cause !== undefined ? { cause } : {}),
  });
}

// ---- Token errors --------------------------------------------------------------------------------

export const NETWORK_CODES =
  /^(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_\w+|ERR_SOCKET\w*|ECONNABORTED)$/;
export const TLS_CODES =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_\w+|ERR_TLS_\w+)$/;

export function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && !/^\d+$/.test(code)) return code;
    const errno = (e as { errno?: unknown }).errno;
    if (typeof errno === 'string') return errno;
  }
  return undefined;
}

export function oauthError(err: unknown): { error?: string; description?: string } {
  const data = (err as { response?: { data?: unknown } } | null)?.response?.data;
  if (data && typeof data === 'object') {
    const d = data as { error?: unknown; error_description?: unknown };
    return {
      ...(typeof d.error === 'string' ? { error: d.error } : {}),
      ...(typeof d.error_description === 'string' ? { description: d.error_description } : {}),
    };
  }
  return {};
}

/** Turns a token failure from google-auth-library into a message with the cause and the next step. */
export function explainTokenError(
  err: unknown,
  origin: CredentialOrigin,
  service: CredentialService,
  context: { type?: CredentialType; account?: string; tokenHost?: string } = {},
): CredentialsError {
  if (err instanceof CredentialsError) return err;
  const { error, description } = oauthError(err);
  const message = (err as Error)?.message ?? String(err);
  const said = description ? `${error}: ${description}` : (error ?? message);
  const who = context.account ? ` for ${context.account}` : '';
  const source = origin.label;
  const code = errorCode(err);
  if (
    /Could not load the default credentials|Unable to detect a Project Id|metadata/i.test(message) &&
    origin.kind === 'metadata'
  ) {
    return fail(origin, service, 'missing', `No Google Cloud credentials were found: ${source}.`, err);
  }
  if (error === 'invalid_grant' || error === 'invalid_client' || error === 'unauthorized_client') {
    const text = `${description ?? ''} ${message}`;
    if (/iat|exp\b|timeframe|clock/i.test(text)) {
      return fail(
        origin,
        service,
        'clock-skew',
        `Google refused the sign-in from ${source}${who} because this computer's clock is off (${said}). Set the system clock to the right time (turn on automatic time sync), then try again.`,
        err,
      );
    }
    if (context.type === 'authorized_user' || origin.kind === 'gcloud') {
      return fail(
        origin,
        service,
        'revoked',
        `The Google login in ${source} has expired or was revoked (${said}).`,
        err,
      );
    }
    return fail(
      origin,
      service,
      'revoked',
      `Google refused the key in ${source}${who}: the key or its service account was deleted or disabled (${said}).`,
      err,
    );
  }
  if (error === 'invalid_scope') {
    return fail(origin, service, 'scope-missing', `Google refused the scopes asked for with ${source} (${said}).`, err);
  }
  if (code && (NETWORK_CODES.test(code) || TLS_CODES.test(code))) {
    const host = context.tokenHost ?? 'oauth2.googleapis.com';
    const tls = TLS_CODES.test(code)
      ? ' The certificate chain is not trusted: behind a TLS-inspecting proxy, add its CA with NODE_EXTRA_CA_CERTS.'
      : ' Check the network connection and any proxy (HTTPS_PROXY), then try again.';
    return new CredentialsError(
      `The Google token endpoint ${host} could not be reached for ${source} (${code}).${tls}`,
      settingOf(origin),
      {
        problem: 'unreachable',
        cause: err,
        fixes: [{ label: 'Check Connection', command: 'cloudbench.checkConnection' }],
      },
    );
  }
  return fail(origin, service, 'failed', `Getting a Google access token with ${source} failed: ${said}.`, err);
}
