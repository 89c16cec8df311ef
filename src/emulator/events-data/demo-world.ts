// The demo company as its telemetry sees it: people, the laptops, workstations and servers they use
// (laptops take a new DHCP lease each day; three machines are compromised), and the shared nouns and
// metadata every demo event is built from. Nouns are shared between events so that 50,000 events
// hold few distinct values.
import { uuid4, type Rng } from '../random';
import { formatRfc3339 } from './time';
import { PEOPLE } from './demo-catalog';
import { COMPANY, type DirectoryUser } from './directory';

export type Udm = Record<string, unknown>;

const DAY = 86_400_000;

export interface Host {
  hostname: string;
  kind: 'LAPTOP' | 'WORKSTATION' | 'SERVER';
  platform: 'WINDOWS' | 'MAC' | 'LINUX';
  platformVersion: string;
  mac: string;
  assetId: string;
  productObjectId: string;
  manufacturer: string;
  model: string;
  /** Servers keep one address; laptops get a new DHCP lease every day. */
  staticIp?: string;
  index: number;
  owner?: DirectoryUser;
  compromised: boolean;
}

export interface FileHashes {
  md5: string;
  sha1: string;
  sha256: string;
}

/** What the event families draw on: the seeded random source, the machines and the shared nouns. */
export interface DemoWorld {
  rng: Rng;
  users: DirectoryUser[];
  dc: Host;
  clients: Host[];
  serverHosts: Host[];
  badHashes: FileHashes;
  ipOf: (h: Host, t: number) => string;
  assetOf: (h: Host, ip: string) => Udm;
  nounOf: (h: Host, t: number, port?: number) => Udm;
  hashesOf: (path: string) => FileHashes;
  /** An event's metadata, with a new random id that `lastName` then returns. */
  metadata: (
    t: number,
    eventType: string,
    vendorName: string,
    productName: string,
    productEventType: string,
    logType: string,
  ) => Udm;
  lastName: () => string;
}

function demoUsers(rng: Rng, anchor: number): DirectoryUser[] {
  return PEOPLE.map(([first, last, title, dept], i) => ({
    userid: `${first}.${last}`,
    userDisplayName: `${first[0].toUpperCase()}${first.slice(1)} ${last[0].toUpperCase()}${last.slice(1)}`,
    emailAddresses: [`${first}.${last}@example.com`],
    windowsSid: `S-1-5-21-3623811015-3361044348-30300820-${1104 + i}`,
    employeeId: `E${10_240 + i * 7}`,
    productObjectId: uuid4(rng),
    title,
    companyName: COMPANY,
    department: [dept],
    hosts: [],
    startTime: anchor - (400 + i * 11) * DAY,
    endTime: anchor + 365 * DAY,
  }));
}

function demoHosts(rng: Rng, users: DirectoryUser[]): Host[] {
  const hosts: Host[] = [];
  const addHost = (h: Omit<Host, 'index' | 'mac' | 'assetId' | 'productObjectId' | 'compromised'>): Host => {
    const host: Host = {
      ...h,
      index: hosts.length,
      mac: `00:1a:2b:${rng.hex(1)}:${rng.hex(1)}:${rng.hex(1)}`,
      // Numeric after the type prefix, so ListEvents ("CS:123") and the alias calls (123) name the same asset.
      assetId: `CS:${4_000_000_000 + hosts.length * 7919 + rng.int(7000)}`,
      productObjectId: uuid4(rng),
      compromised: false,
    };
    hosts.push(host);
    return host;
  };
  users.forEach((u, i) => {
    const mac = i % 3 === 1;
    const h = addHost({
      hostname: `lt-${u.userid.split('.')[0]}-${String(i + 1).padStart(2, '0')}`,
      kind: 'LAPTOP',
      platform: mac ? 'MAC' : 'WINDOWS',
      platformVersion: mac ? 'macOS 14.6' : 'Windows 11 23H2',
      manufacturer: mac ? 'Apple' : 'Lenovo',
      model: mac ? 'MacBook Pro' : 'ThinkPad T14',
      owner: u,
    });
    u.hosts.push(h.hostname);
    if (i % 5 === 3) {
      const w = addHost({
        hostname: `ws-${u.userid.split('.')[0]}-${String(i + 1).padStart(2, '0')}`,
        kind: 'WORKSTATION',
        platform: 'LINUX',
        platformVersion: 'Ubuntu 24.04',
        manufacturer: 'Dell',
        model: 'Precision 3680',
        owner: u,
      });
      u.hosts.push(w.hostname);
    }
  });
  const servers = [
    'srv-dc-01',
    'srv-web-01',
    'srv-web-02',
    'srv-db-01',
    'srv-build-01',
    'srv-files-01',
    'srv-mail-01',
    'k8s-node-1',
    'k8s-node-2',
    'k8s-node-3',
  ];
  servers.forEach((name, i) =>
    addHost({
      hostname: name,
      kind: 'SERVER',
      platform: i === 0 || i === 5 ? 'WINDOWS' : 'LINUX',
      platformVersion: i === 0 || i === 5 ? 'Windows Server 2022' : 'Debian 12',
      manufacturer: 'Google',
      model: 'Compute Engine n2-standard-4',
      staticIp: `10.10.0.${10 + i}`,
    }),
  );
  return hosts;
}

/** The demo world of the week before `anchor`; the random draws happen in a fixed order. */
export function demoWorld(rng: Rng, anchor: number): DemoWorld {
  const start = anchor - 7 * DAY;
  const users = demoUsers(rng, anchor);
  const hosts = demoHosts(rng, users);
  const dc = hosts.find((h) => h.hostname === 'srv-dc-01')!;
  for (const name of ['lt-ben-02', 'lt-rosa-18', 'ws-dev-04']) {
    const h = hosts.find((x) => x.hostname === name);
    if (h) h.compromised = true;
  }
  const clients = hosts.filter((h) => h.kind !== 'SERVER');
  const serverHosts = hosts.filter((h) => h.kind === 'SERVER');
  const ipOf = (h: Host, t: number): string => {
    if (h.staticIp) return h.staticIp;
    const day = Math.floor((t - start) / DAY);
    return `10.20.${1 + (h.index % 2)}.${10 + ((h.index * 3 + day * 7) % 200)}`;
  };
  const assetCache = new Map<string, Udm>();
  const assetOf = (h: Host, ip: string): Udm => {
    const key = `${h.hostname}|${ip}`;
    let a = assetCache.get(key);
    if (!a) {
      a = {
        productObjectId: h.productObjectId,
        hostname: h.hostname,
        assetId: h.assetId,
        ip: [ip],
        mac: [h.mac],
        hardware: [{ manufacturer: h.manufacturer, model: h.model }],
        platformSoftware: { platform: h.platform, platformVersion: h.platformVersion },
        type: h.kind,
      };
      assetCache.set(key, a);
    }
    return a;
  };
  const userNouns = new Map<DirectoryUser, Udm>();
  const userOf = (u: DirectoryUser): Udm => {
    let n = userNouns.get(u);
    if (!n)
      userNouns.set(
        u,
        (n = { userid: u.userid, emailAddresses: u.emailAddresses, userDisplayName: u.userDisplayName }),
      );
    return n;
  };
  const nounOf = (h: Host, t: number, port?: number): Udm => {
    const ip = ipOf(h, t);
    // The arrays and user come from the shared asset and host: 50,000 events, few distinct values.
    const asset = assetOf(h, ip);
    const noun: Udm = { hostname: h.hostname, ip: asset.ip, mac: asset.mac, asset };
    if (port !== undefined) noun.port = port;
    if (h.owner) noun.user = userOf(h.owner);
    return noun;
  };

  const badHashes = { md5: rng.hex(16), sha1: rng.hex(20), sha256: rng.hex(32) };
  const fileHashes = new Map<string, FileHashes>();
  const hashesOf = (path: string): FileHashes => {
    let f = fileHashes.get(path);
    if (!f) fileHashes.set(path, (f = { md5: rng.hex(16), sha1: rng.hex(20), sha256: rng.hex(32) }));
    return f;
  };

  let lastName = '';
  const idBytes = Buffer.alloc(16);
  const metadata: DemoWorld['metadata'] = (t, eventType, vendorName, productName, productEventType, logType) => {
    const collected = t + 1000 + rng.int(4000);
    for (let i = 0; i < 16; i++) idBytes[i] = rng.int(256);
    lastName = idBytes.toString('hex');
    return {
      ...metadataStamp(rng, idBytes, t, collected),
      eventType,
      vendorName,
      productName,
      productEventType,
      logType,
    };
  };
  return {
    rng,
    users,
    dc,
    clients,
    serverHosts,
    badHashes,
    ipOf,
    assetOf,
    nounOf,
    hashesOf,
    metadata,
    lastName: () => lastName,
  };
}

/** The id and times every event's metadata starts with; the ingestion delay is drawn here. */
export function metadataStamp(rng: Rng, idBytes: Buffer, t: number, collected: number): Udm {
  return {
    id: idBytes.toString('base64'),
    productLogId: rng.hex(8),
    eventTimestamp: formatRfc3339(t),
    collectedTimestamp: formatRfc3339(collected),
    ingestedTimestamp: formatRfc3339(collected + 2000 + rng.int(20_000)),
  };
}
