// Cloud Resource Manager v3 over REST: the projects the credentials can see (projects.search) and
// one project by ID or number (projects.get), for the project picker.
import { serviceRestClient, type RestClient, type ServiceRestOptions } from '../google/rest';
import { paginate, type Page } from '../paging';

export const DEFAULT_RESOURCE_MANAGER_ENDPOINT = 'https://cloudresourcemanager.googleapis.com';

/** A project as projects.search and projects.get return it (google.cloud.resourcemanager.v3.Project). */
export interface Project {
  /** "projects/NUMBER". */
  name: string;
  projectId: string;
  displayName?: string;
  state?: 'STATE_UNSPECIFIED' | 'ACTIVE' | 'DELETE_REQUESTED';
  parent?: string;
  createTime?: string;
  updateTime?: string;
  deleteTime?: string;
  etag?: string;
  labels?: Record<string, string>;
}

interface SearchProjectsResponse {
  projects?: Project[];
  nextPageToken?: string;
}

export type ResourceManagerClientOptions = ServiceRestOptions;

export interface SearchProjectsOptions {
  /** The search expression, e.g. `state:ACTIVE` or `displayName:prod*`. */
  query?: string;
  pageSize?: number;
  pageToken?: string;
  signal?: AbortSignal;
}

/** A project ID (6-30 characters, a lower-case letter first) or a project number. */
export const PROJECT_ID_OR_NUMBER = /^([a-z][a-z0-9-]{4,28}[a-z0-9]|[0-9]{1,20})$/;

/** The project number of "projects/NUMBER". */
export function projectNumber(project: Pick<Project, 'name'>): string {
  return project.name.startsWith('projects/') ? project.name.slice('projects/'.length) : project.name;
}

export class ResourceManagerClient {
  private readonly rest: RestClient;

  constructor(options: ResourceManagerClientOptions) {
    this.rest = serviceRestClient(options, DEFAULT_RESOURCE_MANAGER_ENDPOINT);
  }

  get baseUrl(): string {
    return this.rest.base;
  }

  /** One page of the projects the caller may get that match the query (in no particular order). */
  async searchProjects(options: SearchProjectsOptions = {}): Promise<Page<Project>> {
    const response = await this.rest.request<SearchProjectsResponse>({
      method: 'GET',
      path: '/v3/projects:search',
      query: {
        query: options.query || undefined,
        pageSize: options.pageSize,
        pageToken: options.pageToken || undefined,
      },
      methodName: 'cloudresourcemanager.projects.search',
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { items: response.projects ?? [], nextPageToken: response.nextPageToken || undefined };
  }

  /** Every matching project, fetching further pages as the consumer iterates. */
  iterateProjects(options: Omit<SearchProjectsOptions, 'pageToken'> = {}): AsyncGenerator<Project, void, undefined> {
    return paginate(
      (pageToken, signal) =>
        this.searchProjects({ ...options, ...(pageToken ? { pageToken } : {}), ...(signal ? { signal } : {}) }),
      options.signal,
    );
  }

  /**
   * The project with this ID or number. An unknown project and one the caller may not see both
   * answer PERMISSION_DENIED, as Google does, so a typo never reveals which projects exist.
   */
  async getProject(idOrNumber: string, options: { signal?: AbortSignal } = {}): Promise<Project> {
    const id = idOrNumber.trim();
    if (!PROJECT_ID_OR_NUMBER.test(id)) throw new TypeError(`"${idOrNumber}" is not a project ID or number.`);
    return this.rest.request<Project>({
      method: 'GET',
      path: `/v3/projects/${encodeURIComponent(id)}`,
      methodName: 'cloudresourcemanager.projects.get',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}
