// Rule texts more than one test runs.

/** A one-event rule over the C2 address whose risk score says whether the port was 4444. */
export const C2_RULE = `rule c2_connection {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "NETWORK_CONNECTION"
    $e.target.ip = "198.51.100.23"
  outcome:
    $risk_score = if($e.target.port = 4444, 90, 75)
  condition:
    $e
}
`;

/**
 * `$p1`…`$pN = $e.principal.ip`, each placeholder equal to the next, all of them in the match: over
 * events with 16 addresses each, 16^N combinations per event of which 16 hold, so no cap on rows
 * stops it, only the engine's work limit counting every combination.
 */
export function placeholderBombRule(placeholders = 7): string {
  const ps = Array.from({ length: placeholders }, (_, i) => `$p${i + 1}`);
  return [
    'rule placeholder_bomb {',
    '  meta:',
    '    description = "placeholders bound to one repeated field, each equal to the next"',
    '  events:',
    '    $e.metadata.event_type = "NETWORK_CONNECTION"',
    ...ps.map((p) => `    $e.principal.ip = ${p}`),
    ...ps.slice(1).map((p, k) => `    ${ps[k]} = ${p}`),
    '  match:',
    `    ${ps.join(', ')} over 1h`,
    '  condition:',
    '    $e',
    '}',
    '',
  ].join('\n');
}
