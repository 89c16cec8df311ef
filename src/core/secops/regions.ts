// Search API base URLs per SecOps region. Regional hosts insert "<region>-" before the service host;
// the US multi-region has no prefix.

export interface SecOpsRegion {
  /** Value of the cloudbench.secops.region setting. */
  id: string;
  label: string;
  baseUrl: string;
}

const HOST = 'backstory.googleapis.com';

function regional(prefix: string): string {
  return `https://${prefix}-${HOST}`;
}

export const SECOPS_REGIONS: readonly SecOpsRegion[] = Object.freeze([
  { id: 'us', label: 'United States multi-region', baseUrl: `https://${HOST}` },
  { id: 'europe', label: 'Europe multi-region', baseUrl: regional('europe') },
  { id: 'southamerica-east1', label: 'São Paulo', baseUrl: regional('southamerica-east1') },
  { id: 'northamerica-northeast2', label: 'Canada', baseUrl: regional('northamerica-northeast2') },
  { id: 'me-central2', label: 'Dammam', baseUrl: regional('me-central2') },
  { id: 'me-central1', label: 'Doha', baseUrl: regional('me-central1') },
  { id: 'europe-west3', label: 'Frankfurt', baseUrl: regional('europe-west3') },
  { id: 'asia-southeast2', label: 'Jakarta', baseUrl: regional('asia-southeast2') },
  { id: 'africa-south1', label: 'Johannesburg', baseUrl: regional('africa-south1') },
  { id: 'europe-west2', label: 'London', baseUrl: regional('europe-west2') },
  { id: 'asia-south1', label: 'Mumbai', baseUrl: regional('asia-south1') },
  { id: 'europe-west9', label: 'Paris', baseUrl: regional('europe-west9') },
  { id: 'europe-central2', label: 'Warsaw', baseUrl: regional('europe-central2') },
  { id: 'asia-southeast1', label: 'Singapore', baseUrl: regional('asia-southeast1') },
  { id: 'australia-southeast1', label: 'Sydney', baseUrl: regional('australia-southeast1') },
  { id: 'me-west1', label: 'Tel Aviv', baseUrl: regional('me-west1') },
  { id: 'asia-northeast1', label: 'Tokyo', baseUrl: regional('asia-northeast1') },
  { id: 'europe-west12', label: 'Turin', baseUrl: regional('europe-west12') },
  { id: 'europe-west6', label: 'Zurich', baseUrl: regional('europe-west6') },
]);

export class SecOpsConfigError extends Error {
  constructor(
    message: string,
    /** The setting the user has to fix. */
    readonly setting: string,
  ) {
    super(message);
    this.name = 'SecOpsConfigError';
  }
}

/**
 * The base URL to call: the endpoint override when set (for the sandbox or a proxy), otherwise the
 * region's host. Unknown regions and malformed overrides are refused with the setting to fix.
 */
export function resolveSecOpsBaseUrl(opts: { region?: string; endpointOverride?: string }): string {
  const override = opts.endpointOverride?.trim();
  if (override) {
    let url: URL;
    try {
      url = new URL(override);
    } catch {
      throw new SecOpsConfigError(
        `cloudbench.endpoints.secops is not a URL: "${override}". Use e.g. https://backstory.googleapis.com or http://127.0.0.1:PORT for the sandbox.`,
        'cloudbench.endpoints.secops',
      );
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new SecOpsConfigError(
        `cloudbench.endpoints.secops must use http or https, got "${url.protocol}".`,
        'cloudbench.endpoints.secops',
      );
    }
    if (url.search || url.hash) {
      throw new SecOpsConfigError(
        'cloudbench.endpoints.secops must not carry a query or fragment.',
        'cloudbench.endpoints.secops',
      );
    }
    return url.toString().replace(/\/+$/, '');
  }
  const id = (opts.region ?? 'us').trim() || 'us';
  const region = SECOPS_REGIONS.find((r) => r.id === id);
  if (!region) {
    throw new SecOpsConfigError(
      `Unknown SecOps region "${id}" in cloudbench.secops.region. Pick one of: ${SECOPS_REGIONS.map((r) => r.id).join(', ')}.`,
      'cloudbench.secops.region',
    );
  }
  return region.baseUrl;
}
