// Entities beside the events: people, the IoC feed and reference lists. Demo content is fixed;
// the admin entities:ingest call adds more.

export interface DirectoryUser {
  userid: string;
  userDisplayName: string;
  emailAddresses: string[];
  windowsSid: string;
  employeeId: string;
  productObjectId: string;
  title: string;
  companyName: string;
  department?: string[];
  /** Hostnames the user owns (relations OWNS). */
  hosts: string[];
  /** Validity of the directory record in ms since the epoch. */
  startTime: number;
  endTime: number;
}

export interface IocSource {
  source: string;
  category: string;
  rawSeverity: string;
  /** 0-100 */
  confidence: number;
  sourceUrl: string;
  ports: number[];
  firstActiveTime: number;
  lastActiveTime: number;
}

export interface IocEntry {
  kind: 'domain' | 'ip';
  value: string;
  ingestTime: number;
  sources: IocSource[];
}

export interface ReferenceList {
  name: string;
  description: string;
  lines: string[];
  contentType: 'CONTENT_TYPE_DEFAULT_STRING' | 'REGEX' | 'CIDR';
  createTime: number;
}

export const COMPANY = 'Example Corp';
