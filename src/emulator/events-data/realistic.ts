// Events shaped like production UDM: every noun (principal, src, target, observer, intermediary)
// carries host, addresses, asset, user and process with its parent, and events carry enrichment,
// several security results and additional fields, so an answer is 3-6 KB of JSON per event, as
// Google's are. Same people, IoCs and lists as the demo seed; 30 days of events, deterministic.
// Hosts, assets and users are built once and shared by the events that name them (stored events are
// never modified), so 14,000 events of ~4 KB each cost far less memory than their JSON.
import { generateDemo, type DemoData, type Udm } from './demo';
import { metadataStamp } from './demo-world';
import type { DirectoryUser } from './directory';
import { createRng, uuid4, type Rng } from '../random';
import { formatRfc3339 } from './time';

const DAY = 86_400_000;
export const REALISTIC_DAYS = 30;
export const REALISTIC_COUNT = 14_000;
/** The most events a realistic reset may ask for (`npm run bench -- scale` asks for 110,000: about 600 MB of JSON). */
export const MAX_REALISTIC_EVENTS = 200_000;

const OFFICES = [
  { name: 'HQ Lisbon', city: 'Lisbon', countryOrRegion: 'Portugal', lat: 38.7223, lng: -9.1393 },
  { name: 'Berlin Office', city: 'Berlin', countryOrRegion: 'Germany', lat: 52.52, lng: 13.405 },
  { name: 'Remote', city: 'Dublin', countryOrRegion: 'Ireland', lat: 53.3498, lng: -6.2603 },
] as const;

const EXTERNAL = [
  {
    domain: 'github.com',
    ip: '140.82.121.4',
    asn: '36459',
    org: 'GitHub, Inc.',
    city: 'Frankfurt',
    country: 'Germany',
  },
  {
    domain: 'slack.com',
    ip: '34.226.36.51',
    asn: '14618',
    org: 'Amazon.com, Inc.',
    city: 'Ashburn',
    country: 'United States',
  },
  {
    domain: 'login.microsoftonline.com',
    ip: '20.190.159.2',
    asn: '8075',
    org: 'Microsoft Corporation',
    city: 'Amsterdam',
    country: 'Netherlands',
  },
  {
    domain: 'registry.npmjs.org',
    ip: '104.16.3.35',
    asn: '13335',
    org: 'Cloudflare, Inc.',
    city: 'San Francisco',
    country: 'United States',
  },
  {
    domain: 'drive.google.com',
    ip: '142.250.185.78',
    asn: '15169',
    org: 'Google LLC',
    city: 'Frankfurt',
    country: 'Germany',
  },
  {
    domain: 'cdn-update-check.test',
    ip: '198.51.100.23',
    asn: '64500',
    org: 'Example Hosting',
    city: 'Unknown',
    country: 'Unknown',
  },
] as const;

const WIN_CHAINS = [
  [
    'C:\\Windows\\explorer.exe',
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    '"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe" --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en-US',
  ],
  [
    'C:\\Windows\\System32\\services.exe',
    'C:\\Windows\\System32\\svchost.exe',
    'C:\\Windows\\system32\\svchost.exe -k NetworkService -p -s Dnscache',
  ],
  [
    'C:\\Windows\\explorer.exe',
    'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    'powershell.exe -NoProfile -ExecutionPolicy Bypass -Command "Get-ChildItem -Path $env:USERPROFILE\\Documents -Filter *.xlsx | Select-Object FullName, Length"',
  ],
  [
    'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE',
    'C:\\Windows\\System32\\cmd.exe',
    'cmd.exe /c "echo \\"quoted {braces} [brackets]\\" > %TEMP%\\note.txt"',
  ],
] as const;
const NIX_CHAINS = [
  [
    '/usr/lib/systemd/systemd',
    '/usr/sbin/sshd',
    '/usr/sbin/sshd -D -o AuthorizedKeysCommand=/usr/bin/sss_ssh_authorizedkeys',
  ],
  ['/usr/bin/bash', '/usr/local/bin/node', 'node /srv/app/server.js --port=8080 --log-format={"level":"info"}'],
  ['/usr/bin/bash', '/usr/bin/curl', "curl -sS -H 'Accept: application/json' https://registry.npmjs.org/undici"],
  [
    '/usr/lib/systemd/systemd',
    '/usr/bin/python3',
    '/usr/bin/python3 /opt/agent/collector.py --config /etc/agent/collector.yaml',
  ],
] as const;

const RULES = [
  ['Outbound connection to rare domain', 'NETWORK_SUSPICIOUS', 'MEDIUM', 'ALLOW'],
  ['Process launched from user profile', 'SOFTWARE_SUSPICIOUS', 'LOW', 'ALLOW'],
  ['Known command and control address', 'NETWORK_COMMAND_AND_CONTROL', 'HIGH', 'BLOCK'],
  ['Encoded PowerShell command line', 'SOFTWARE_MALICIOUS', 'HIGH', 'QUARANTINE'],
  ['Sign-in from new country', 'AUTH_VIOLATION', 'MEDIUM', 'CHALLENGE'],
  ['Policy: unsanctioned cloud storage', 'POLICY_VIOLATION', 'LOW', 'ALLOW'],
] as const;

interface RealHost {
  hostname: string;
  platform: 'WINDOWS' | 'LINUX' | 'MAC';
  noun: Udm;
  short: Udm;
  owner?: DirectoryUser;
  /** A few processes each host runs, shared by its events. */
  processes: Udm[];
}

export function generateRealistic(anchor: number, count = REALISTIC_COUNT): DemoData {
  const base = generateDemo(anchor, 0);
  const rng = createRng(0x4ea1_15c0);
  const start = anchor - REALISTIC_DAYS * DAY;
  const userNouns = new Map<DirectoryUser, Udm>();
  base.users.forEach((u, i) => userNouns.set(u, userNoun(u, i)));

  const hosts: RealHost[] = [];
  const addHost = (hostname: string, platform: RealHost['platform'], kind: string, owner?: DirectoryUser): void => {
    hosts.push(realHost(rng, hosts.length, hostname, platform, kind, owner, owner && userNouns.get(owner)));
  };
  base.users.forEach((u, i) => addHost(u.hosts[0] ?? `lt-${u.userid}`, i % 3 === 1 ? 'MAC' : 'WINDOWS', 'LAPTOP', u));
  const admin = base.users.find((u) => u.userid === 'hugo.silva') ?? base.users[0];
  for (const name of ['srv-dc-01', 'srv-web-01', 'srv-db-01', 'srv-files-01', 'k8s-node-1', 'k8s-node-2'])
    addHost(name, name.includes('dc') || name.includes('files') ? 'WINDOWS' : 'LINUX', 'SERVER', admin);
  const servers = hosts.filter((h) => h.noun.asset && (h.noun.asset as Udm).type === 'SERVER');
  const proxy = servers[1];
  const sensor = servers[0];

  const hashes = new Map<string, Udm>();
  const fileOf = (path: string): Udm => {
    let f = hashes.get(path);
    if (!f) {
      f = {
        fullPath: path,
        md5: rng.hex(16),
        sha256: rng.hex(32),
        size: String(40_000 + rng.int(30_000_000)),
      };
      hashes.set(path, f);
    }
    return f;
  };
  const processOf = (h: RealHost): Udm => {
    if (h.processes.length < 6) {
      const chain = h.platform === 'WINDOWS' ? rng.pick(WIN_CHAINS) : rng.pick(NIX_CHAINS);
      const ppid = 1000 + rng.int(30_000);
      h.processes.push({
        pid: String(ppid + 1 + rng.int(500)),
        commandLine: chain[2],
        file: fileOf(chain[1]),
        parentProcess: { pid: String(ppid), commandLine: chain[0], file: { fullPath: chain[0] } },
      });
    }
    return rng.pick(h.processes);
  };
  const nounWithProcess = (h: RealHost, port?: number, short = false): Udm => {
    const process = processOf(h);
    const n: Udm = {
      ...(short ? h.short : h.noun),
      // A relay sees which program spoke, not its ancestry.
      process: short ? { pid: process.pid, file: { fullPath: (process.file as Udm).fullPath } } : process,
    };
    if (port !== undefined) n.port = port;
    return n;
  };
  const resultPool = Array.from({ length: 400 }, (_, i) => securityResult(rng, i < 40, anchor - rng.int(60) * DAY));

  // The far end as the proxy saw it: the serving host's own details are not known, only who fronts it.
  const targetOf = (h: RealHost): Udm => ({
    user: { userid: 'svc-gateway', emailAddresses: ['svc-gateway@example.com'] },
    mac: h.short.mac,
    asset: h.short.asset,
    process: { pid: String(1 + rng.int(65_000)), file: { fullPath: (processOf(h).file as Udm).fullPath } },
  });

  const events: DemoData['events'] = [];
  const idBytes = Buffer.alloc(16);
  for (let n = 0; n < count; n++) {
    const t = start + Math.floor(rng.next() * REALISTIC_DAYS * DAY);
    const host = rng.pick(hosts);
    const ext = rng.pick(EXTERNAL);
    const bad = ext.domain.endsWith('.test');
    const kind = rng.int(4);
    const eventType = ['NETWORK_DNS', 'NETWORK_HTTP', 'NETWORK_CONNECTION', 'PROCESS_LAUNCH'][kind];
    const udm: Udm = {
      metadata: realMetadata(rng, idBytes, t, kind, eventType),
      principal: nounWithProcess(host, 49152 + rng.int(16000)),
      src: nounWithProcess(host, undefined, true),
      target: {
        hostname: ext.domain,
        ip: [ext.ip],
        port: kind === 0 ? 53 : 443,
        url: `https://${ext.domain}/api/v${1 + rng.int(3)}/items?id=${rng.hex(4)}&q=%22x%22`,
        administrativeDomain: ext.domain.split('.').slice(-2).join('.'),
        application: ext.org,
        ipGeoArtifact: [
          {
            ip: ext.ip,
            location: { city: ext.city, countryOrRegion: ext.country },
            network: { asn: ext.asn, organizationName: ext.org, carrierName: ext.org },
          },
        ],
        ...targetOf(rng.pick(servers)),
      },
      observer: nounWithProcess(sensor, undefined, true),
      intermediary: [nounWithProcess(proxy, 3128, true)],
      securityResult: Array.from({ length: 2 + rng.int(2) }, (_, i) =>
        bad && i === 0 ? resultPool[rng.int(40)] : resultPool[40 + rng.int(360)],
      ),
      network: networkOf(kind, rng, ext.domain, ext.ip),
      additional: {
        sessionId: uuid4(rng),
        sensorVersion: '7.18.18103.0',
        policyName: bad ? 'Block known C2' : 'Default allow',
        bytesRatio: Math.round(rng.next() * 1000) / 1000,
        tags: ['edr', 'proxy', bad ? 'ioc' : 'baseline'],
        raw: { ruleUuid: uuid4(rng), zone: host.platform === 'LINUX' ? 'dmz' : 'corp' },
      },
    };
    events.push({ udm, t, name: idBytes.toString('hex') });
  }
  return { events, users: base.users, iocs: base.iocs, lists: base.lists };
}

/** A host with the full noun the endpoint agent reports and the short one sensors and proxies report. */
function realHost(
  rng: Rng,
  i: number,
  hostname: string,
  platform: RealHost['platform'],
  kind: string,
  owner: DirectoryUser | undefined,
  ownerNoun: Udm | undefined,
): RealHost {
  const ip = kind === 'SERVER' ? `10.10.0.${10 + i}` : `10.20.${1 + (i % 2)}.${10 + ((i * 37) % 200)}`;
  const mac = `00:1a:2b:${rng.hex(1)}:${rng.hex(1)}:${rng.hex(1)}`;
  const office = OFFICES[i % OFFICES.length];
  const asset: Udm = {
    productObjectId: uuid4(rng),
    hostname,
    assetId: `CS:${4_100_000_000 + i * 7919}`,
    ip: [ip],
    mac: [mac],
    hardware: [
      {
        manufacturer: platform === 'MAC' ? 'Apple' : kind === 'SERVER' ? 'Google' : 'Lenovo',
        model: platform === 'MAC' ? 'MacBook Pro' : kind === 'SERVER' ? 'Compute Engine n2-standard-4' : 'ThinkPad T14',
      },
    ],
    platformSoftware: {
      platform,
      platformVersion: platform === 'WINDOWS' ? 'Windows 11 23H2' : platform === 'MAC' ? 'macOS 14.6' : 'Debian 12',
    },
    location: { name: office.name },
    type: kind,
  };
  const noun: Udm = {
    hostname,
    assetId: asset.assetId,
    ip: asset.ip,
    mac: asset.mac,
    platform,
    platformVersion: (asset.platformSoftware as Udm).platformVersion,
    asset,
    namespace: 'corp',
  };
  if (owner) noun.user = ownerNoun;
  // Sensors and proxies report themselves more tersely than the endpoint agent.
  const short: Udm = {
    hostname,
    ip: asset.ip,
    mac: asset.mac,
    asset: { hostname, assetId: asset.assetId, ip: asset.ip, type: kind },
  };
  if (owner) short.user = { userid: owner.userid, emailAddresses: owner.emailAddresses };
  return { hostname, platform, noun, short, owner, processes: [] };
}

/** An event's metadata; `idBytes` receives the event's new random id. */
function realMetadata(rng: Rng, idBytes: Buffer, t: number, kind: number, eventType: string): Udm {
  for (let i = 0; i < 16; i++) idBytes[i] = rng.int(256);
  const collected = t + 1000 + rng.int(4000);
  return {
    ...metadataStamp(rng, idBytes, t, collected),
    eventType,
    vendorName: kind === 3 ? 'CrowdStrike' : 'Palo Alto Networks',
    productName: kind === 3 ? 'Falcon' : 'PAN-OS',
    productVersion: kind === 3 ? '7.18.18103' : '11.1.2',
    productEventType: ['dns', 'url', 'traffic', 'ProcessRollup2'][kind],
    logType: kind === 3 ? 'CS_EDR' : 'PAN_FIREWALL',
    enrichmentState: 'ENRICHED',
    ingestionLabels: [
      { key: 'collector', value: 'forwarder-eu-1' },
      { key: 'environment', value: 'production' },
    ],
  };
}

function userNoun(u: DirectoryUser, i: number): Udm {
  const [first = '', last = ''] = u.userid.split('.');
  const office = OFFICES[i % OFFICES.length];
  return {
    userid: u.userid,
    userDisplayName: u.userDisplayName,
    emailAddresses: u.emailAddresses,
    windowsSid: u.windowsSid,
    employeeId: u.employeeId,
    firstName: first.charAt(0).toUpperCase() + first.slice(1),
    lastName: last.charAt(0).toUpperCase() + last.slice(1),
    title: u.title,
    companyName: u.companyName,
    department: u.department ?? [],
    accountType: 'DOMAIN_ACCOUNT_TYPE',
    officeAddress: { name: office.name, countryOrRegion: office.countryOrRegion },
  };
}

function securityResult(rng: Rng, bad: boolean, t: number): Udm {
  const [ruleName, category, severity, action] = bad ? RULES[2] : rng.pick(RULES);
  return {
    ruleName,
    ruleId: `ru_${rng.hex(8)}`,
    category: [category],
    severity,
    confidence: rng.pick(['LOW_CONFIDENCE', 'MEDIUM_CONFIDENCE', 'HIGH_CONFIDENCE']),
    action: [action],
    alertState: severity === 'HIGH' ? 'ALERTING' : 'NOT_ALERTING',
    riskScore: 10 + rng.int(90),
    detectionFields: [{ key: 'technique', value: rng.pick(['T1071.001', 'T1059.001', 'T1567.002']) }],
    firstDiscoveredTime: formatRfc3339(t),
  };
}

function networkOf(kind: number, rng: Rng, domain: string, ip: string): Udm {
  const net: Udm = {
    sentBytes: String(200 + rng.int(50_000)),
    receivedBytes: String(500 + rng.int(2_000_000)),
    ipProtocol: kind === 0 ? 'UDP' : 'TCP',
    direction: 'OUTBOUND',
    sessionId: rng.hex(8),
  };
  if (kind === 0) {
    net.applicationProtocol = 'DNS';
    net.dns = {
      id: rng.int(65536),
      response: true,
      recursionDesired: true,
      recursionAvailable: true,
      responseCode: 0,
      questions: [{ name: domain, type: 1, class: 1 }],
      answers: [{ name: domain, type: 1, class: 1, ttl: 300, data: ip }],
    };
  } else {
    net.applicationProtocol = 'HTTPS';
    net.http = {
      method: rng.pick(['GET', 'POST']),
      userAgent:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      responseCode: rng.pick([200, 200, 204, 301, 403]),
    };
    net.tls = {
      version: 'TLSv1.3',
      cipher: 'TLS_AES_128_GCM_SHA256',
      curve: 'x25519',
      established: true,
      client: { serverName: domain, ja3: rng.hex(16) },
      server: { certificate: { issuer: 'CN=Example Issuing CA 1', subject: `CN=${domain}` } },
    };
  }
  return net;
}
