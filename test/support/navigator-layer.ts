// The ATT&CK Navigator layer format (4.5) as a JSON Schema written from MITRE's format definition
// (test/fixtures/navigator/layer-4.5.schema.json), and the checks the schema cannot say.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';

const SCHEMA = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'navigator', 'layer-4.5.schema.json'), 'utf8'),
) as object;

const validate = new Ajv({ allErrors: true, strict: true }).compile(SCHEMA);

/** The schema's complaints about `layer` (empty when it is a valid layer). */
export function layerErrors(layer: unknown): string[] {
  const errors: string[] = [];
  if (!validate(layer))
    for (const e of validate.errors ?? []) errors.push(`${e.instancePath || '/'} ${e.message ?? ''}`);
  // "maxValue must be > minValue" (Gradient object).
  const gradient = (layer as { gradient?: { minValue?: unknown; maxValue?: unknown } }).gradient;
  if (gradient && typeof gradient.minValue === 'number' && typeof gradient.maxValue === 'number')
    if (!(gradient.maxValue > gradient.minValue)) errors.push('/gradient maxValue must be > minValue');
  return errors;
}

export function assertValidLayer(layer: unknown): void {
  assert.deepEqual(layerErrors(layer), [], JSON.stringify(layer, null, 2).slice(0, 2000));
}

/** The enterprise tactics' short names as ATT&CK publishes them (the Navigator's `tactic` values). */
export const ENTERPRISE_SHORT_NAMES = [
  'reconnaissance',
  'resource-development',
  'initial-access',
  'execution',
  'persistence',
  'privilege-escalation',
  'defense-evasion',
  'credential-access',
  'discovery',
  'lateral-movement',
  'collection',
  'command-and-control',
  'exfiltration',
  'impact',
];
