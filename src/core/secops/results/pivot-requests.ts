// What a pivot asks the service for: the call and its indicator, decided from the pivot action and
// the value it starts from. Pure, so that the request each of the 22 actions makes can be checked
// without a client.
import type { ArtifactIndicator, AssetIndicator, UserIndicator } from '../client';
import type { PivotAction } from './pivots';

export type PivotRequest =
  | { call: 'assetEvents'; asset: AssetIndicator }
  | { call: 'assets'; artifact: ArtifactIndicator }
  | { call: 'iocDetails'; artifact: Pick<ArtifactIndicator, 'domainName' | 'destinationIpAddress'> }
  | { call: 'assetAliases'; asset: AssetIndicator }
  | { call: 'userAliases'; user: UserIndicator }
  | { call: 'rawLog'; name: string }
  | { call: 'fullEvent'; name: string };

export type PivotCall = PivotRequest['call'];

/** Which indicator field a value fills, by the part of the action after the call. */
const ASSET_FIELDS: Record<string, keyof AssetIndicator> = {
  hostname: 'hostname',
  ip: 'assetIpAddress',
  mac: 'mac',
  productId: 'productId',
};
const ARTIFACT_FIELDS: Record<string, keyof ArtifactIndicator> = {
  domain: 'domainName',
  ip: 'destinationIpAddress',
  md5: 'hashMd5',
  sha1: 'hashSha1',
  sha256: 'hashSha256',
};
const USER_FIELDS: Record<string, keyof UserIndicator> = {
  email: 'email',
  username: 'username',
  windowsSid: 'windowsSid',
  employeeId: 'employeeId',
  productObjectId: 'productObjectId',
};

export function pivotRequest(action: PivotAction, value: string): PivotRequest {
  const [call, field = ''] = action.split('.') as [PivotCall, string | undefined];
  switch (call) {
    case 'assetEvents':
      return { call, asset: { [ASSET_FIELDS[field] ?? 'productId']: value } };
    case 'assetAliases':
      return { call, asset: aliasAsset(field, value) };
    case 'assets':
      return { call, artifact: { [ARTIFACT_FIELDS[field]]: value } };
    case 'iocDetails':
      return { call, artifact: field === 'domain' ? { domainName: value } : { destinationIpAddress: value } };
    case 'userAliases':
      return { call, user: { [USER_FIELDS[field] ?? 'username']: value } };
    case 'rawLog':
    case 'fullEvent':
      return { call, name: value };
  }
}

function aliasAsset(field: string, value: string): AssetIndicator {
  if (field !== 'productId') return { [ASSET_FIELDS[field] ?? 'productId']: value };
  // The alias call takes the number alone; an events-style "CS:1234" gives its number.
  const m = /^[A-Za-z]{2}:(\d+)$/.exec(value);
  return { productId: m ? m[1] : value };
}
