// Secrets must never reach a log line, whatever component wrote it: this runs on every message.
const PATTERNS: Array<[RegExp, string]> = [
  [/AIza[0-9A-Za-z_-]{35}/g, 'AIza…(redacted)'],
  [/\bya29\.[0-9A-Za-z_.-]+/g, 'ya29.…(redacted)'],
  [/(bearer\s+)[^\s"',;]+/gi, '$1…(redacted)'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, '(private key redacted)'],
  [
    /("(?:private_key|keyString|key_string|access_token|refresh_token|client_secret)"\s*:\s*")[^"]*"/gi,
    '$1(redacted)"',
  ],
  [/([?&](?:key|keyString|access_token)=)[^&\s]+/gi, '$1(redacted)'],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
