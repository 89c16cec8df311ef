// The demo event families, one function each: what a DNS server, a web proxy, a firewall, a sign-in
// service, an EDR and a DHCP server log for the demo company. Each draws from the world's random
// source in a fixed order, so the same seed gives the same events.
import { BENIGN_DOMAINS, IOC_DOMAINS, IOC_IPS, PROCESSES_NIX, PROCESSES_WIN, USER_AGENTS } from './demo-catalog';
import type { DemoWorld, Host, Udm } from './demo-world';

/** One event of the kind `roll` (0-1) picks, from `host` at `t`; `bad` marks a compromised host's misdeed. */
export function demoEvent(w: DemoWorld, roll: number, host: Host, t: number, bad: boolean): Udm {
  if (roll < 0.3) return dnsQuery(w, host, t, bad);
  if (roll < 0.55) return webRequest(w, host, t, bad);
  if (roll < 0.77) return connection(w, host, t, bad);
  if (roll < 0.85) return login(w, host, t, bad);
  if (roll < 0.97) return processLaunch(w, host, t, bad);
  return dhcpLease(w, host, t);
}

/** A DNS lookup through the domain controller; a compromised host sometimes resolves an IoC domain. */
function dnsQuery(w: DemoWorld, host: Host, t: number, bad: boolean): Udm {
  const { rng, dc, ipOf, nounOf, metadata } = w;
  const ioc = bad ? rng.pick(IOC_DOMAINS) : undefined;
  const name = ioc ? ioc.domain : rng.pick(BENIGN_DOMAINS);
  const answer = ioc ? '198.51.100.23' : publicIpFor(name);
  const udm: Udm = {
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
  return udm;
}

/** A web request through the proxy; one to an IoC domain may be blocked. */
function webRequest(w: DemoWorld, host: Host, t: number, bad: boolean): Udm {
  const { rng, nounOf, metadata } = w;
  const ioc = bad ? rng.pick(IOC_DOMAINS) : undefined;
  const domain = ioc ? ioc.domain : rng.pick(BENIGN_DOMAINS);
  const ip = ioc ? '198.51.100.23' : publicIpFor(domain);
  const blocked = Boolean(ioc) && rng.chance(0.5);
  const path = rng.pick(['/', '/index.html', '/api/v1/status', '/login', '/assets/app.js', '/download/update.bin']);
  const udm: Udm = {
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
  return udm;
}

/** A firewall-logged outbound connection, to a server, a public site or (when compromised) an IoC address. */
function connection(w: DemoWorld, host: Host, t: number, bad: boolean): Udm {
  const { rng, serverHosts, ipOf, assetOf, nounOf, metadata } = w;
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
  const udm: Udm = {
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
  return udm;
}

/** A sign-in, through SSO or Windows; compromised hosts fail most of theirs. */
function login(w: DemoWorld, host: Host, t: number, bad: boolean): Udm {
  const { rng, users, serverHosts, ipOf, assetOf, nounOf, metadata } = w;
  const user = host.owner ?? rng.pick(users);
  const server = rng.pick(serverHosts);
  const failed = rng.chance(bad ? 0.7 : 0.06);
  const sso = rng.chance(0.4);
  const udm: Udm = {
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
  return udm;
}

/** A process launch seen by the EDR; on a compromised Windows host, the known-bad binary. */
function processLaunch(w: DemoWorld, host: Host, t: number, bad: boolean): Udm {
  const { rng, badHashes, nounOf, hashesOf, metadata } = w;
  const win = host.platform === 'WINDOWS';
  const path = bad && win ? 'C:\\Users\\Public\\svch0st.exe' : win ? rng.pick(PROCESSES_WIN) : rng.pick(PROCESSES_NIX);
  const hashes = path.endsWith('svch0st.exe') ? badHashes : hashesOf(path);
  const parent = win ? 'C:\\Windows\\explorer.exe' : '/usr/lib/systemd/systemd';
  const commandLine = path.endsWith('svch0st.exe')
    ? `${path} -k netsvcs -connect cdn-update-check.test:443`
    : path.endsWith('powershell.exe')
      ? `${path} -NoProfile -Command Get-ChildItem`
      : path;
  const principal = nounOf(host, t);
  principal.process = { pid: String(1000 + rng.int(60000)), file: { fullPath: parent } };
  const udm: Udm = {
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
  return udm;
}

/** A DHCP lease: the address the host has today. */
function dhcpLease(w: DemoWorld, host: Host, t: number): Udm {
  const { dc, ipOf, assetOf, metadata } = w;
  const ip = ipOf(host, t);
  const udm: Udm = {
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
  return udm;
}

function alertResult(ruleName: string, summary: string, severity: string, category: string, action: string): Udm {
  return {
    action: [action],
    ruleName,
    summary,
    severity,
    category: [category],
    alertState: 'ALERTING',
    confidence: 'HIGH_CONFIDENCE',
  };
}

function publicIpFor(domain: string): string {
  let h = 2166136261;
  for (let i = 0; i < domain.length; i++) h = Math.imul(h ^ domain.charCodeAt(i), 16777619);
  const a = [34, 35, 52, 104, 140, 151, 172, 185][(h >>> 24) & 7];
  return `${a}.${(h >>> 16) & 255}.${(h >>> 8) & 255}.${(h & 253) + 1}`;
}

function urlOf(domain: string, path: string): string {
  return `https://${domain}${path}`;
}
