// Deterministic demo telemetry for a small company: ~50,000 UDM events over the 7 days before the
// reset time, with hosts whose DHCP addresses change daily, users who own them, a few compromised
// machines that reach IoC domains, and raw logs derived from the events.
import { createRng, uuid4, type Rng } from './random';
import { formatRfc3339 } from './time';
import { COMPANY, type DirectoryUser, type IocEntry, type ReferenceList } from './directory';

export type Udm = Record<string, unknown>;

export interface DemoData {
  events: Array<{ udm: Udm; t: number; name: string }>;
  users: DirectoryUser[];
  iocs: IocEntry[];
  lists: ReferenceList[];
}

const DAY = 86_400_000;
const PEOPLE = [
  ['ana', 'lima', 'Security Engineer', 'Security'],
  ['ben', 'okafor', 'Software Engineer', 'Engineering'],
  ['chloe', 'martin', 'Product Manager', 'Product'],
  ['dev', 'patel', 'Site Reliability Engineer', 'Engineering'],
  ['elena', 'rossi', 'Finance Analyst', 'Finance'],
  ['farid', 'haddad', 'Sales Director', 'Sales'],
  ['grace', 'kim', 'Data Scientist', 'Engineering'],
  ['hugo', 'silva', 'IT Administrator', 'IT'],
  ['ines', 'costa', 'Designer', 'Product'],
  ['jonas', 'weber', 'Software Engineer', 'Engineering'],
  ['kaya', 'yilmaz', 'Recruiter', 'People'],
  ['liam', 'murphy', 'Account Executive', 'Sales'],
  ['mei', 'chen', 'Engineering Manager', 'Engineering'],
  ['nora', 'berg', 'Legal Counsel', 'Legal'],
  ['omar', 'farouk', 'Support Engineer', 'Support'],
  ['priya', 'nair', 'Security Analyst', 'Security'],
  ['quinn', 'taylor', 'Marketing Lead', 'Marketing'],
  ['rosa', 'garcia', 'Payroll Specialist', 'Finance'],
  ['sam', 'cohen', 'Software Engineer', 'Engineering'],
  ['tara', 'singh', 'CFO', 'Finance'],
  ['uma', 'iyer', 'QA Engineer', 'Engineering'],
  ['victor', 'dubois', 'Office Manager', 'Operations'],
] as const;

const BENIGN_DOMAINS = [
  'www.google.com',
  'github.com',
  'api.github.com',
  'slack.com',
  'zoom.us',
  'login.microsoftonline.com',
  'outlook.office365.com',
  'update.googleapis.com',
  's3.amazonaws.com',
  'cdn.jsdelivr.net',
  'registry.npmjs.org',
  'pypi.org',
  'docs.python.org',
  'en.wikipedia.org',
  'www.youtube.com',
  'drive.google.com',
  'accounts.google.com',
  'fonts.gstatic.com',
  'ocsp.digicert.com',
  'time.windows.com',
  'intranet.example.com',
  'wiki.example.com',
  'jira.example.com',
  'mail.example.com',
] as const;

/** IoC domains live under the reserved .test TLD so demo data never names a real site as malicious. */
const IOC_DOMAINS = [
  { domain: 'cdn-update-check.test', category: 'Malware Command and Control Server', severity: 'High', confidence: 92 },
  { domain: 'payroll-portal-login.test', category: 'Phishing', severity: 'High', confidence: 88 },
  { domain: 'share-docs-online.test', category: 'Phishing', severity: 'Medium', confidence: 71 },
  { domain: 'xmr-pool-mining.test', category: 'Cryptocurrency Mining', severity: 'Medium', confidence: 65 },
  { domain: 'ads-tracker-pixel.test', category: 'Adware', severity: 'Low', confidence: 40 },
] as const;
const IOC_IPS = [
  { ip: '198.51.100.23', category: 'Malware Command and Control Server', severity: 'High', confidence: 90 },
  { ip: '203.0.113.66', category: 'Scanner', severity: 'Medium', confidence: 60 },
  { ip: '192.0.2.200', category: 'Tor Exit Node', severity: 'Low', confidence: 55 },
] as const;

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  'curl/8.5.0',
  'python-requests/2.32.3',
] as const;

const PROCESSES_WIN = [
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE',
  'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
  'C:\\Windows\\System32\\cmd.exe',
  'C:\\Users\\Public\\AppData\\Local\\Microsoft\\Teams\\current\\Teams.exe',
  'C:\\Windows\\explorer.exe',
] as const;
const PROCESSES_NIX = [
  '/usr/bin/python3',
  '/usr/bin/bash',
  '/usr/bin/ssh',
  '/usr/local/bin/node',
  '/usr/bin/curl',
  '/usr/sbin/sshd',
] as const;

interface Host {
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

function hashHex(rng: Rng, bytes: number): string {
  return rng.hex(bytes);
}

function publicIpFor(domain: string): string {
  let h = 2166136261;
  for (let i = 0; i < domain.length; i++) h = Math.imul(h ^ domain.charCodeAt(i), 16777619);
  const a = [34, 35, 52, 104, 140, 151, 172, 185][(h >>> 24) & 7];
  return `${a}.${(h >>> 16) & 255}.${(h >>> 8) & 255}.${(h & 253) + 1}`;
}

export function generateDemo(anchor: number, count = 50_000): DemoData {
  const rng = createRng(0x5ec0_0ded);
  const start = anchor - 7 * DAY;
  const users: DirectoryUser[] = PEOPLE.map(([first, last, title, dept], i) => ({
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

  const badHashes = { md5: hashHex(rng, 16), sha1: hashHex(rng, 20), sha256: hashHex(rng, 32) };
  const fileHashes = new Map<string, { md5: string; sha1: string; sha256: string }>();
  const hashesOf = (path: string): { md5: string; sha1: string; sha256: string } => {
    let f = fileHashes.get(path);
    if (!f) fileHashes.set(path, (f = { md5: hashHex(rng, 16), sha1: hashHex(rng, 20), sha256: hashHex(rng, 32) }));
    return f;
  };

  const events: Array<{ udm: Udm; t: number; name: string }> = [];
  let lastName = '';
  const idBytes = Buffer.alloc(16);
  const metadata = (
    t: number,
    eventType: string,
    vendorName: string,
    productName: string,
    productEventType: string,
    logType: string,
  ): Udm => {
    const collected = t + 1000 + rng.int(4000);
    for (let i = 0; i < 16; i++) idBytes[i] = rng.int(256);
    lastName = idBytes.toString('hex');
    return {
      id: idBytes.toString('base64'),
      productLogId: rng.hex(8),
      eventTimestamp: formatRfc3339(t),
      collectedTimestamp: formatRfc3339(collected),
      ingestedTimestamp: formatRfc3339(collected + 2000 + rng.int(20_000)),
      eventType,
      vendorName,
      productName,
      productEventType,
      logType,
    };
  };
  const alertResult = (ruleName: string, summary: string, severity: string, category: string, action: string): Udm => ({
    action: [action],
    ruleName,
    summary,
    severity,
    category: [category],
    alertState: 'ALERTING',
    confidence: 'HIGH_CONFIDENCE',
  });

  for (let n = 0; n < count; n++) {
    let t = start + Math.floor(rng.next() * 7 * DAY);
    // Fewer events at night (UTC 00-06), as in a real office.
    if (new Date(t).getUTCHours() < 6 && rng.chance(0.6)) t = start + Math.floor(rng.next() * 7 * DAY);
    const roll = rng.next();
    const host = rng.chance(0.8) ? rng.pick(clients) : rng.pick(serverHosts);
    const bad = host.compromised && rng.chance(0.06);
    let udm: Udm;
    if (roll < 0.3) {
      const ioc = bad ? rng.pick(IOC_DOMAINS) : undefined;
      const name = ioc ? ioc.domain : rng.pick(BENIGN_DOMAINS);
      const answer = ioc ? '198.51.100.23' : publicIpFor(name);
      udm = {
        metadata: metadata(t, 'NETWORK_DNS', 'Microsoft', 'Windows DNS Server', 'DNS query', 'WINDOWS_DNS'),
        principal: nounOf(host, t, 49152 + rng.int(16000)),
        target: { hostname: dc.hostname, ip: [ipOf(dc, t)], port: 53 },
        network: {
          applicationProtocol: 'DNS',
          ipProtocol: 'UDP',
          dns: {
            questions: [{ name, type: 1 }],
            answers: [{ name, type: 1, class: 1, ttl: 300, data: answer }],
            response: true,
          },
        },
      };
      if (ioc)
        udm.securityResult = [
          alertResult(
            'DNS lookup of known-bad domain',
            `${host.hostname} resolved ${name}`,
            ioc.severity.toUpperCase(),
            'NETWORK_MALICIOUS',
            'ALLOW',
          ),
        ];
    } else if (roll < 0.55) {
      const ioc = bad ? rng.pick(IOC_DOMAINS) : undefined;
      const domain = ioc ? ioc.domain : rng.pick(BENIGN_DOMAINS);
      const ip = ioc ? '198.51.100.23' : publicIpFor(domain);
      const blocked = Boolean(ioc) && rng.chance(0.5);
      const path = rng.pick(['/', '/index.html', '/api/v1/status', '/login', '/assets/app.js', '/download/update.bin']);
      udm = {
        metadata: metadata(t, 'NETWORK_HTTP', 'Zscaler', 'Internet Access', 'web', 'ZSCALER_WEBPROXY'),
        principal: nounOf(host, t, 49152 + rng.int(16000)),
        target: { hostname: domain, ip: [ip], port: 443, url: `https://${domain}${path}` },
        network: {
          applicationProtocol: 'HTTPS',
          ipProtocol: 'TCP',
          sentBytes: String(200 + rng.int(4000)),
          receivedBytes: String(500 + rng.int(900_000)),
          http: {
            method: rng.chance(0.8) ? 'GET' : 'POST',
            responseCode: blocked ? 403 : rng.chance(0.95) ? 200 : rng.pick([301, 404, 500]),
            userAgent: rng.pick(USER_AGENTS),
          },
        },
        securityResult: [
          ioc
            ? alertResult(
                'Web request to IoC domain',
                `${host.hostname} requested ${urlOf(domain, path)}`,
                ioc.severity.toUpperCase(),
                ioc.category === 'Phishing' ? 'PHISHING' : 'NETWORK_MALICIOUS',
                blocked ? 'BLOCK' : 'ALLOW',
              )
            : { action: ['ALLOW'] },
        ],
      };
    } else if (roll < 0.77) {
      const ioc = bad ? rng.pick(IOC_IPS) : undefined;
      const toServer = !ioc && rng.chance(0.5);
      const dest = toServer ? rng.pick(serverHosts) : undefined;
      const ip = ioc ? ioc.ip : dest ? ipOf(dest, t) : publicIpFor(rng.pick(BENIGN_DOMAINS));
      const port = ioc
        ? rng.pick([4444, 8443, 9001])
        : dest
          ? rng.pick([22, 443, 445, 3389, 5432])
          : rng.pick([443, 80, 993]);
      const blocked = Boolean(ioc) && rng.chance(0.3);
      const target: Udm = { ip: [ip], port };
      if (dest) {
        target.hostname = dest.hostname;
        target.asset = assetOf(dest, ip);
      }
      udm = {
        metadata: metadata(t, 'NETWORK_CONNECTION', 'Palo Alto Networks', 'PAN-OS', 'TRAFFIC', 'PAN_FIREWALL'),
        principal: nounOf(host, t, 49152 + rng.int(16000)),
        target,
        network: {
          ipProtocol: 'TCP',
          direction: 'OUTBOUND',
          sentBytes: String(100 + rng.int(200_000)),
          receivedBytes: String(100 + rng.int(2_000_000)),
          sessionId: String(100000 + rng.int(900000)),
        },
        securityResult: [
          ioc
            ? alertResult(
                'Connection to IoC address',
                `${host.hostname} connected to ${ip}:${port}`,
                ioc.severity.toUpperCase(),
                'NETWORK_COMMAND_AND_CONTROL',
                blocked ? 'BLOCK' : 'ALLOW',
              )
            : { action: ['ALLOW'] },
        ],
      };
    } else if (roll < 0.85) {
      const user = host.owner ?? rng.pick(users);
      const server = rng.pick(serverHosts);
      const failed = rng.chance(bad ? 0.7 : 0.06);
      const sso = rng.chance(0.4);
      udm = {
        metadata: metadata(
          t,
          'USER_LOGIN',
          sso ? 'Okta' : 'Microsoft',
          sso ? 'Okta' : 'Windows Security',
          sso ? 'user.session.start' : '4624',
          sso ? 'OKTA' : 'WINEVTLOG',
        ),
        principal: nounOf(host, t),
        target: sso
          ? {
              hostname: 'login.example.com',
              application: 'Okta',
              user: {
                userid: user.userid,
                emailAddresses: user.emailAddresses,
                userDisplayName: user.userDisplayName,
                windowsSid: user.windowsSid,
              },
            }
          : {
              hostname: server.hostname,
              ip: [ipOf(server, t)],
              asset: assetOf(server, ipOf(server, t)),
              user: {
                userid: user.userid,
                emailAddresses: user.emailAddresses,
                userDisplayName: user.userDisplayName,
                windowsSid: user.windowsSid,
              },
            },
        extensions: {
          auth: {
            type: sso ? 'SSO' : 'MACHINE',
            mechanism: [sso ? 'USERNAME_PASSWORD' : rng.pick(['INTERACTIVE', 'REMOTE_INTERACTIVE', 'NETWORK'])],
          },
        },
        securityResult: [
          failed && bad
            ? alertResult(
                'Repeated failed logins',
                `Failed login for ${user.userid} from ${host.hostname}`,
                'MEDIUM',
                'AUTH_VIOLATION',
                'BLOCK',
              )
            : { action: [failed ? 'BLOCK' : 'ALLOW'] },
        ],
      };
    } else if (roll < 0.97) {
      const win = host.platform === 'WINDOWS';
      const path =
        bad && win ? 'C:\\Users\\Public\\svch0st.exe' : win ? rng.pick(PROCESSES_WIN) : rng.pick(PROCESSES_NIX);
      const hashes = path.endsWith('svch0st.exe') ? badHashes : hashesOf(path);
      const parent = win ? 'C:\\Windows\\explorer.exe' : '/usr/lib/systemd/systemd';
      const commandLine = path.endsWith('svch0st.exe')
        ? `${path} -k netsvcs -connect cdn-update-check.test:443`
        : path.endsWith('powershell.exe')
          ? `${path} -NoProfile -Command Get-ChildItem`
          : path;
      const principal = nounOf(host, t);
      principal.process = { pid: String(1000 + rng.int(60000)), file: { fullPath: parent } };
      udm = {
        metadata: metadata(t, 'PROCESS_LAUNCH', 'CrowdStrike', 'Falcon', 'ProcessRollup2', 'CS_EDR'),
        principal,
        target: { process: { pid: String(1000 + rng.int(60000)), commandLine, file: { fullPath: path, ...hashes } } },
      };
      if (hashes === badHashes)
        udm.securityResult = [
          alertResult(
            'Known malicious binary executed',
            `${path} ran on ${host.hostname}`,
            'CRITICAL',
            'SOFTWARE_MALICIOUS',
            'ALLOW',
          ),
        ];
    } else {
      const ip = ipOf(host, t);
      udm = {
        metadata: metadata(t, 'NETWORK_DHCP', 'ISC', 'DHCP Server', 'DHCPACK', 'ISC_DHCP'),
        principal: { hostname: host.hostname, mac: [host.mac], ip: [ip], asset: assetOf(host, ip) },
        target: { hostname: 'srv-dc-01', ip: [ipOf(dc, t)], port: 67 },
        network: {
          applicationProtocol: 'DHCP',
          ipProtocol: 'UDP',
          dhcp: {
            opcode: 'BOOTREPLY',
            type: 'ACK',
            yiaddr: ip,
            chaddr: host.mac,
            clientHostname: host.hostname,
            leaseTimeSeconds: 86400,
          },
        },
      };
    }
    events.push({ udm, t, name: lastName });
  }

  const iocs: IocEntry[] = [
    ...IOC_DOMAINS.map((d, i) => ({
      kind: 'domain' as const,
      value: d.domain,
      ingestTime: start - (20 + i) * DAY,
      sources: [
        {
          source: i % 2 === 0 ? 'Mandiant Threat Intelligence' : 'Open Source Intel Feed',
          category: d.category,
          rawSeverity: d.severity,
          confidence: d.confidence,
          sourceUrl: `https://intel.example.org/indicators/${encodeURIComponent(d.domain)}`,
          ports: [80, 443],
          firstActiveTime: start - (60 + i * 3) * DAY,
          lastActiveTime: anchor - i * DAY,
        },
      ],
    })),
    ...IOC_IPS.map((d, i) => ({
      kind: 'ip' as const,
      value: d.ip,
      ingestTime: start - (10 + i) * DAY,
      sources: [
        {
          source: 'Open Source Intel Feed',
          category: d.category,
          rawSeverity: d.severity,
          confidence: d.confidence,
          sourceUrl: `https://intel.example.org/indicators/${d.ip}`,
          ports: [4444, 8443, 9001],
          firstActiveTime: start - (30 + i) * DAY,
          lastActiveTime: anchor - DAY,
        },
      ],
    })),
  ];
  const lists: ReferenceList[] = [
    {
      name: 'suspicious_domains',
      description: 'Domains the security team watches',
      lines: IOC_DOMAINS.map((d) => d.domain),
      contentType: 'CONTENT_TYPE_DEFAULT_STRING',
      createTime: start - 30 * DAY,
    },
    {
      name: 'admin_users',
      description: 'Accounts with administrative rights',
      lines: ['hugo.silva', 'ana.lima', 'dev.patel'],
      contentType: 'CONTENT_TYPE_DEFAULT_STRING',
      createTime: start - 90 * DAY,
    },
    {
      name: 'corp_networks',
      description: 'Internal address ranges',
      lines: ['10.10.0.0/16', '10.20.0.0/16'],
      contentType: 'CIDR',
      createTime: start - 120 * DAY,
    },
    {
      name: 'bad_process_paths',
      description: 'Process paths that should never run',
      lines: ['.*\\\\Users\\\\Public\\\\.*\\.exe', '/tmp/\\..*'],
      contentType: 'REGEX',
      createTime: start - 15 * DAY,
    },
    // The lists below carry comment lines (`//`), as lists maintained by a team do.
    {
      name: 'critical_servers',
      description: 'Servers whose sign-ins and changes are reviewed daily',
      lines: [
        '// Tier 0: identity and data',
        'srv-dc-01',
        'srv-db-01',
        'srv-files-01',
        '// Tier 1: mail',
        'srv-mail-01',
      ],
      contentType: 'CONTENT_TYPE_DEFAULT_STRING',
      createTime: start - 60 * DAY,
    },
    {
      name: 'threat_ip_ranges',
      description: 'Address ranges of known command-and-control and scanning infrastructure',
      lines: [
        '// From the threat-intel feed; reviewed weekly',
        '198.51.100.0/24',
        '203.0.113.64/26',
        '2001:db8:bad::/48',
      ],
      contentType: 'CIDR',
      createTime: start - 5 * DAY,
    },
    {
      name: 'server_networks',
      description: 'The data-centre server subnet',
      lines: ['10.10.0.0/24'],
      contentType: 'CIDR',
      createTime: start - 200 * DAY,
    },
    {
      name: 'phishing_domain_patterns',
      description: 'Look-alike login and file-sharing domains',
      lines: ['// Credential-harvesting look-alikes', '.*-login\\.test$', '^share-.*\\.test$'],
      contentType: 'REGEX',
      createTime: start - 20 * DAY,
    },
  ];
  return { events, users, iocs, lists };
}

function urlOf(domain: string, path: string): string {
  return `https://${domain}${path}`;
}
