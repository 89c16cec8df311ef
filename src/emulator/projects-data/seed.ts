// The projects the sandbox's caller can see through Cloud Resource Manager v3. The first holds the
// demo data (its number is the one the gRPC half resolves to it); the others exist so a project
// picker has something to page, filter and choose between. Fixed timestamps keep answers stable.
import { DEMO_PROJECT_ID, DEMO_PROJECT_NUMBER } from '../grpc/store';

export interface SandboxProject {
  name: string;
  parent: string;
  projectId: string;
  state: 'ACTIVE' | 'DELETE_REQUESTED';
  displayName: string;
  createTime: string;
  updateTime: string;
  deleteTime?: string;
  etag: string;
  labels: Record<string, string>;
}

function project(id: string, number: string, displayName: string, extra: Partial<SandboxProject> = {}): SandboxProject {
  return {
    name: `projects/${number}`,
    parent: 'organizations/433637338589',
    projectId: id,
    state: 'ACTIVE',
    displayName,
    createTime: '2024-03-04T09:15:00.000Z',
    updateTime: '2024-03-04T09:15:00.000Z',
    etag: `W/"${Buffer.from(id).toString('base64url')}"`,
    labels: {},
    ...extra,
  };
}

export const SANDBOX_PROJECTS: readonly SandboxProject[] = [
  project(DEMO_PROJECT_ID, DEMO_PROJECT_NUMBER, 'Cloudbench Demo', { labels: { env: 'demo' } }),
  project('cloudbench-staging', '234567890123', 'Cloudbench Staging', { labels: { env: 'staging' } }),
  project('fraud-analytics-prod', '345678901234', 'Fraud Analytics', { labels: { env: 'prod', team: 'risk' } }),
  project('ml-research-eu', '456789012345', 'ML Research EU', {
    parent: 'folders/918273645',
    labels: { team: 'research' },
  }),
  project('vision-pilot-2023', '567890123456', 'Vision Pilot 2023', {
    state: 'DELETE_REQUESTED',
    deleteTime: '2026-01-10T12:00:00.000Z',
  }),
];
