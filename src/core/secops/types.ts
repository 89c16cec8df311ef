// JSON shapes of the Search API v1 (lowerCamelCase, 64-bit integers as strings, bytes as base64).
// Only the fields the product reads are typed; everything else passes through as unknown.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface UdmNoun {
  hostname?: string;
  ip?: string[];
  mac?: string[];
  port?: number;
  url?: string;
  user?: { userid?: string; emailAddresses?: string[]; [key: string]: unknown };
  asset?: JsonObject;
  [key: string]: unknown;
}

export interface UdmEvent {
  metadata?: {
    id?: string;
    eventTimestamp?: string;
    ingestedTimestamp?: string;
    collectedTimestamp?: string;
    eventType?: string;
    productLogId?: string;
    vendorName?: string;
    productName?: string;
    productEventType?: string;
    [key: string]: unknown;
  };
  principal?: UdmNoun;
  target?: UdmNoun;
  src?: UdmNoun;
  securityResult?: Array<{ action?: string[]; [key: string]: Json | undefined }>;
  network?: JsonObject;
  [key: string]: unknown;
}

export interface UdmSearchEvent {
  name: string;
  udm: UdmEvent;
}

export interface UdmSearchResponse {
  events: UdmSearchEvent[];
  moreDataAvailable: boolean;
}

export interface ListEventsResponse {
  events: UdmEvent[];
  uri: string[];
  moreDataAvailable: boolean;
}

export interface ArtifactSeenInfo {
  artifactIndicator?: JsonObject;
  seenTime?: string;
}

export interface AssetAssociation {
  asset?: JsonObject;
  firstSeenArtifactInfo?: ArtifactSeenInfo;
  lastSeenArtifactInfo?: ArtifactSeenInfo;
}

export interface ListAssetsResponse {
  assets: AssetAssociation[];
  uri: string[];
}

export interface AssetAlias {
  metadata?: { interval?: { startTime?: string; endTime?: string } };
  entity?: { asset?: JsonObject };
}

export interface ListAssetAliasesResponse {
  aliases: AssetAlias[];
}

export interface UserAlias {
  metadata?: JsonObject;
  entity?: { user?: JsonObject };
  relations?: JsonObject[];
}

export interface ListUserAliasesResponse {
  userAliases: UserAlias[];
}

export interface IocMatch {
  artifact?: JsonObject;
  firstSeenTime?: string;
  lastSeenTime?: string;
  iocIngestTime?: string;
  sources?: JsonObject[];
  uri?: string[];
}

export interface ListIocsResponse {
  matches: IocMatch[];
  moreDataAvailable: boolean;
}

export interface IocDetailsSource {
  addresses?: JsonObject[];
  category?: string;
  confidenceScore?: JsonObject;
  firstActiveTime?: string;
  lastActiveTime?: string;
  rawSeverity?: string;
  sourceUrl?: string;
}

export interface ListIocDetailsResponse {
  sources: IocDetailsSource[];
  uri: string[];
}

export interface RawLog {
  sourceProduct?: string;
  logBytes?: string;
  type?: string;
}

export interface GetLogResponse {
  log: RawLog;
}

export interface GetEventResponse {
  udm: UdmEvent;
}

export interface ListAlertsResponse {
  alerts: JsonObject[];
  userAlerts: JsonObject[];
}

export interface ReferenceList {
  name?: string;
  description?: string;
  lines: string[];
  createTime?: string;
  [key: string]: unknown;
}
