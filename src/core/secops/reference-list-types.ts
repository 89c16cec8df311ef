// Requests and answers of the reference-list methods of the Search API client.
import type { ReferenceListContentType, ReferenceListLineError } from './reference-lists';
import type { ReferenceList } from './types';

export type ReferenceListView = 'BASIC' | 'FULL';

/** A reference list as the client hands it on: content type defaulted; lines are empty in the BASIC view. */
export interface ReferenceListDetails extends ReferenceList {
  name: string;
  description: string;
  contentType: ReferenceListContentType;
}

export interface ListReferenceListsRequest {
  view?: ReferenceListView;
  pageSize?: number;
  pageToken?: string;
}

export interface ListReferenceListsPage {
  lists: ReferenceListDetails[];
  nextPageToken?: string;
}

export interface CreateReferenceListRequest {
  name: string;
  description: string;
  contentType: ReferenceListContentType;
  lines: readonly string[];
}

export interface UpdateReferenceListRequest {
  name: string;
  description?: string;
  contentType?: ReferenceListContentType;
  lines?: readonly string[];
}

export interface VerifyReferenceListResult {
  success: boolean;
  /** 1-based line numbers; -1 is about the whole list. */
  errors: ReferenceListLineError[];
}
