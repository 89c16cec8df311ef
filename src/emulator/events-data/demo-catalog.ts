// The fixed catalogue of the demo company: its people, the sites its machines visit, the threat
// intelligence it subscribes to and the reference lists its security team keeps.
import type { IocEntry, ReferenceList } from './directory';

const DAY = 86_400_000;
export const PEOPLE = [
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

export const BENIGN_DOMAINS = [
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
export const IOC_DOMAINS = [
  { domain: 'cdn-update-check.test', category: 'Malware Command and Control Server', severity: 'High', confidence: 92 },
  { domain: 'payroll-portal-login.test', category: 'Phishing', severity: 'High', confidence: 88 },
  { domain: 'share-docs-online.test', category: 'Phishing', severity: 'Medium', confidence: 71 },
  { domain: 'xmr-pool-mining.test', category: 'Cryptocurrency Mining', severity: 'Medium', confidence: 65 },
  { domain: 'ads-tracker-pixel.test', category: 'Adware', severity: 'Low', confidence: 40 },
] as const;
export const IOC_IPS = [
  { ip: '198.51.100.23', category: 'Malware Command and Control Server', severity: 'High', confidence: 90 },
  { ip: '203.0.113.66', category: 'Scanner', severity: 'Medium', confidence: 60 },
  { ip: '192.0.2.200', category: 'Tor Exit Node', severity: 'Low', confidence: 55 },
] as const;

export const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  'curl/8.5.0',
  'python-requests/2.32.3',
] as const;

export const PROCESSES_WIN = [
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE',
  'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
  'C:\\Windows\\System32\\cmd.exe',
  'C:\\Users\\Public\\AppData\\Local\\Microsoft\\Teams\\current\\Teams.exe',
  'C:\\Windows\\explorer.exe',
] as const;
export const PROCESSES_NIX = [
  '/usr/bin/python3',
  '/usr/bin/bash',
  '/usr/bin/ssh',
  '/usr/local/bin/node',
  '/usr/bin/curl',
  '/usr/sbin/sshd',
] as const;

/** The IoC entries the demo intelligence feed holds, dated from the start of the demo week. */
export function demoIocs(start: number, anchor: number): IocEntry[] {
  return [
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
}

/** The reference lists the demo security team keeps. */
export function demoLists(start: number): ReferenceList[] {
  return [
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
}
