// Reading result rows as columns: dotted paths through nested JSON, arrays flattened, plus the
// default columns each kind of result opens with. Pure: runs in the webview and in Node tests.

export type ResultKind =
  'udm' | 'assetEvents' | 'assets' | 'iocMatches' | 'iocDetails' | 'assetAliases' | 'userAliases' | 'alerts';

export interface ColumnSpec {
  /** Dotted path from the row root; arrays are stepped through without an index ("principal.ip"). */
  id: string;
  label: string;
  /** Alternative paths tried in order when the first gives nothing (e.g. hostname, then IP). */
  fallbacks?: string[];
}

/** Where the UDM event sits inside a row of each kind (udmSearch rows are {name, udm}). */
export function eventRoot(kind: ResultKind): string {
  return kind === 'udm' ? 'udm.' : '';
}

/** The artifact indicator fields of the Search API, domain first. */
const ARTIFACT_KEYS = ['domainName', 'destinationIpAddress', 'hashSha256', 'hashSha1', 'hashMd5'];

export function defaultColumns(kind: ResultKind): ColumnSpec[] {
  const r = eventRoot(kind);
  switch (kind) {
    case 'udm':
    case 'assetEvents':
      return [
        { id: `${r}metadata.eventTimestamp`, label: 'Time' },
        { id: `${r}metadata.eventType`, label: 'Event type' },
        {
          id: `${r}principal.hostname`,
          label: 'Principal',
          fallbacks: [`${r}principal.ip`, `${r}principal.user.userid`, `${r}principal.asset.hostname`],
        },
        {
          id: `${r}target.hostname`,
          label: 'Target',
          fallbacks: [`${r}target.ip`, `${r}target.url`, `${r}target.user.userid`],
        },
        {
          id: `${r}securityResult.action`,
          label: 'Security result',
          fallbacks: [`${r}securityResult.severity`, `${r}securityResult.summary`],
        },
      ];
    case 'assets':
      return [
        { id: 'asset.hostname', label: 'Asset', fallbacks: ['asset.assetIpAddress', 'asset.mac', 'asset.productId'] },
        { id: 'firstSeenArtifactInfo.seenTime', label: 'First seen' },
        { id: 'lastSeenArtifactInfo.seenTime', label: 'Last seen' },
        {
          id: 'firstSeenArtifactInfo.artifactIndicator.domainName',
          label: 'Artifact',
          fallbacks: ARTIFACT_KEYS.slice(1).map((k) => `firstSeenArtifactInfo.artifactIndicator.${k}`),
        },
      ];
    case 'iocMatches':
      return [
        { id: 'artifact.domainName', label: 'Artifact', fallbacks: ARTIFACT_KEYS.slice(1).map((k) => `artifact.${k}`) },
        { id: 'sources.category', label: 'Category' },
        { id: 'sources.confidenceScore.normalizedConfidenceScore', label: 'Confidence' },
        { id: 'sources.rawSeverity', label: 'Severity' },
        { id: 'firstSeenTime', label: 'First seen' },
        { id: 'lastSeenTime', label: 'Last seen' },
      ];
    case 'iocDetails':
      return [
        { id: 'category', label: 'Category' },
        { id: 'addresses.domain', label: 'Address', fallbacks: ['addresses.ipAddress'] },
        { id: 'addresses.port', label: 'Ports' },
        { id: 'confidenceScore.strRawConfidenceScore', label: 'Confidence' },
        { id: 'rawSeverity', label: 'Severity' },
        { id: 'firstActiveTime', label: 'First active' },
        { id: 'lastActiveTime', label: 'Last active' },
        { id: 'sourceUrl', label: 'Source' },
      ];
    case 'assetAliases':
      // Each indicator its own column: an alias row is a hostname, IP and MAC seen together, and
      // what changes from one row to the next (a daily new IP) must show.
      return [
        { id: 'entity.asset.hostname', label: 'Hostname' },
        { id: 'entity.asset.ip', label: 'IP' },
        { id: 'entity.asset.mac', label: 'MAC' },
        { id: 'entity.asset.assetId', label: 'Asset ID' },
        { id: 'metadata.interval.startTime', label: 'From' },
        { id: 'metadata.interval.endTime', label: 'To' },
      ];
    case 'userAliases':
      return [
        { id: 'entity.user.userid', label: 'User', fallbacks: ['entity.user.productObjectId'] },
        { id: 'entity.user.emailAddresses', label: 'Email' },
        { id: 'entity.user.userDisplayName', label: 'Name' },
        { id: 'entity.user.title', label: 'Title' },
        { id: 'metadata.interval.startTime', label: 'From' },
        { id: 'metadata.interval.endTime', label: 'To' },
      ];
    case 'alerts':
      return [
        { id: 'asset', label: 'Asset' },
        { id: 'alertInfos.name', label: 'Alert' },
        { id: 'alertInfos.severity', label: 'Severity' },
        { id: 'alertInfos.timestamp', label: 'Time' },
      ];
  }
}

/** The path of the timestamp a histogram bins on, per kind. */
export function timeField(kind: ResultKind): string | undefined {
  switch (kind) {
    case 'udm':
    case 'assetEvents':
      return `${eventRoot(kind)}metadata.eventTimestamp`;
    case 'iocMatches':
      return 'iocIngestTime';
    case 'assets':
      return 'lastSeenArtifactInfo.seenTime';
    default:
      return undefined;
  }
}

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** Adds the values at `segs[i..]` below `value` to `out`, stepping through arrays at any level. */
export function collect(value: unknown, segs: readonly string[], i: number, out: unknown[]): void {
  if (i === segs.length) {
    if (Array.isArray(value)) for (const v of value as unknown[]) out.push(v);
    else if (value !== undefined) out.push(value);
    return;
  }
  const seg = segs[i];
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      if (item !== null && typeof item === 'object' && !Array.isArray(item) && hasOwn(item, seg))
        collect((item as Record<string, unknown>)[seg], segs, i + 1, out);
    }
  } else if (value !== null && typeof value === 'object' && hasOwn(value, seg)) {
    collect((value as Record<string, unknown>)[seg], segs, i + 1, out);
  }
}

/**
 * A row's time in epoch ms, as the order newest first, the table and the held rows all read it: the
 * first value at `path` when it is a string, else NaN.
 */
export function timeReader(path: string): (row: unknown) => number {
  const segs = path.split('.');
  const values: unknown[] = [];
  return (row) => {
    values.length = 0;
    collect(row, segs, 0, values);
    const v = values[0];
    return typeof v === 'string' ? Date.parse(v) : Number.NaN;
  };
}

/** Every value at `path`, stepping through arrays at any level. */
export function valuesAt(root: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(root, path === '' ? [] : path.split('.'), 0, out);
  return out;
}

/** A cell's text: scalars as they are, objects as compact JSON, several values joined by ", ". */
export function cellText(row: unknown, column: ColumnSpec): string {
  for (const path of [column.id, ...(column.fallbacks ?? [])]) {
    const values = valuesAt(row, path);
    if (values.length > 0) return values.map(scalarText).join(', ');
  }
  return '';
}

export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * Every leaf path present in the rows (arrays stepped through), in first-seen order: the choices of
 * the column chooser. `limit` bounds the work for very wide, very long results.
 */
export function discoverColumns(rows: readonly unknown[], limit = 2000): string[] {
  // A tree of the keys seen, each node holding its dotted path: walking 10,000 events of a few KB
  // looks keys up instead of building (and throwing away) a path string per leaf.
  const found: string[] = [];
  const root: PathNode = { path: '', leaf: false, children: undefined };
  const walk = (value: unknown, node: PathNode, depth: number): void => {
    if (found.length >= limit || depth > 12) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, node, depth + 1);
      return;
    }
    if (value !== null && typeof value === 'object') {
      const children = (node.children ??= new Map<string, PathNode>());
      for (const key of Object.keys(value)) {
        let child = children.get(key);
        if (!child) {
          child = { path: node.path ? `${node.path}.${key}` : key, leaf: false, children: undefined };
          children.set(key, child);
        }
        walk((value as Record<string, unknown>)[key], child, depth + 1);
      }
      return;
    }
    if (node.path && !node.leaf) {
      node.leaf = true;
      found.push(node.path);
    }
  };
  for (const row of rows) {
    walk(row, root, 0);
    if (found.length >= limit) break;
  }
  return found;
}

interface PathNode {
  readonly path: string;
  /** Whether the path was found holding a value (not only objects or arrays). */
  leaf: boolean;
  children: Map<string, PathNode> | undefined;
}

/** A readable label for a discovered path: its last two segments. */
/** A column path as the user names the field: the UDM field name without the answer's `udm.` root. */
export function fieldName(path: string, kind: ResultKind): string {
  const root = eventRoot(kind);
  return root && path.startsWith(root) ? path.slice(root.length) : path;
}

export function labelFor(path: string): string {
  const parts = path.split('.');
  return parts.slice(-2).join('.');
}
