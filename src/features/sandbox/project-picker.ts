// Select Project…: the projects the credentials can see (Cloud Resource Manager projects.search,
// page by page while the picker is open), recently used ones first, filtered as the user types by
// display name, ID or number. A typed ID or number the list does not show is checked with
// projects.get before it is used, so a typo never becomes the project every view calls. What the
// service lists is checked against the project ID grammar before it is offered or saved, and every
// name it gives is shown through safeText (no icon or link from a project's name).
import * as vscode from 'vscode';
import { MESSAGE_LIMIT, safeText } from '../../core/display';
import { GoogleApiError, describeError } from '../../core/google/errors';
import {
  PROJECT_ID_OR_NUMBER,
  ResourceManagerClient,
  projectNumber,
  type Project,
} from '../../core/resourcemanager/client';
import { getLogger } from '../../platform/log';
import { restClientSettings, type Services } from '../services';

const log = getLogger('projects');
const RECENT_STATE = 'cloudbench.recentProjects';
const RECENT_LIMIT = 8;
const PAGE_SIZE = 100;
/** Bound on the pages read for one picker: past it the user types an ID or a filter instead. */
const MAX_PAGES = 20;

/** What the picker remembers of a project the user chose (no secrets: names only). */
interface RecentProject {
  projectId: string;
  number?: string;
  displayName?: string;
}

type PickItem = vscode.QuickPickItem & {
  project?: RecentProject;
  typed?: string;
  /** The row that stands for what is typed in the box (checked with projects.get on Enter). */
  typedEntry?: boolean;
  /** A typed project whose check could not run; a second Enter uses it unchecked. */
  unchecked?: boolean;
};

export function resourceManagerClient(services: Services): ResourceManagerClient {
  return new ResourceManagerClient(restClientSettings(services.connection(), 'resourcemanager'));
}

/** A project number: digits only. */
const isProjectNumber = (v: unknown): v is string => typeof v === 'string' && /^[0-9]{1,20}$/.test(v);

/**
 * A project ID as Google defines it: 6 to 30 lowercase letters, digits or hyphens, starting with a
 * letter and not ending with a hyphen (the ID half of PROJECT_ID_OR_NUMBER, never a number).
 */
export function isProjectId(v: unknown): v is string {
  return typeof v === 'string' && PROJECT_ID_OR_NUMBER.test(v) && !isProjectNumber(v);
}

/** A project as the picker keeps it, or undefined when its ID is not a project ID. */
function recentOf(projectId: unknown, number: unknown, displayName: unknown): RecentProject | undefined {
  if (!isProjectId(projectId)) return undefined;
  return {
    projectId,
    ...(isProjectNumber(number) ? { number } : {}),
    ...(typeof displayName === 'string' && displayName ? { displayName } : {}),
  };
}

function toRecent(project: Project): RecentProject | undefined {
  return recentOf(project.projectId, projectNumber(project), project.displayName);
}

/** The recent projects kept in global state, each checked again (it may come from an older version). */
export function keptRecents(value: unknown): RecentProject[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((r: Partial<RecentProject> | null) => {
    const recent = r && typeof r === 'object' ? recentOf(r.projectId, r.number, r.displayName) : undefined;
    return recent ? [recent] : [];
  });
}

function itemFor(project: RecentProject, current: string | undefined): PickItem {
  const isCurrent = current !== undefined && (current === project.projectId || current === project.number);
  return {
    label: safeText(project.displayName || project.projectId),
    description: safeText(isCurrent ? `${project.projectId} · current project` : project.projectId),
    ...(project.number ? { detail: `Project number ${project.number}` } : {}),
    project,
  };
}

function matchesTyped(project: RecentProject, typed: string): boolean {
  return project.projectId === typed || project.number === typed;
}

/** Why a typed project cannot be used, in the user's words, or undefined when it could not be checked. */
function refusal(typed: string, err: unknown): string | undefined {
  if (err instanceof GoogleApiError && (err.status === 'PERMISSION_DENIED' || err.status === 'NOT_FOUND'))
    return `Project "${typed}" does not exist, or these credentials cannot see it (${err.status}).`;
  return undefined;
}

export async function pickProject(context: vscode.ExtensionContext, services: Services): Promise<void> {
  await pickAndKeepProject(resourceManagerClient(services), services.connection().project, context.globalState, (id) =>
    vscode.workspace.getConfiguration('cloudbench').update('project', id, vscode.ConfigurationTarget.Global),
  );
}

/** The part of the Resource Manager client the picker calls. */
export type ProjectLister = Pick<ResourceManagerClient, 'searchProjects' | 'getProject'>;

/**
 * Shows the picker, then keeps the chosen project in the recent projects and hands its ID to
 * `setProject` (the cloudbench.project setting). Nothing that is not a project ID or number is kept.
 */
export async function pickAndKeepProject(
  client: ProjectLister,
  current: string | undefined,
  state: Pick<vscode.Memento, 'get' | 'update'>,
  setProject: (projectId: string) => Thenable<void>,
): Promise<void> {
  const recents = keptRecents(state.get<unknown>(RECENT_STATE));
  const picker = new ProjectPicker(client, current, recents);
  await picker.pick(async (chosen) => {
    if (!PROJECT_ID_OR_NUMBER.test(chosen.projectId))
      throw new Error(`"${safeText(chosen.projectId)}" is not a project ID or number; nothing was saved.`);
    const next = [chosen, ...recents.filter((r) => r.projectId !== chosen.projectId)]
      .filter((r) => isProjectId(r.projectId))
      .slice(0, RECENT_LIMIT);
    await state.update(RECENT_STATE, next);
    await setProject(chosen.projectId);
  });
}

/** One open picker: the recent projects, the pages of projects.search as they come, and what is typed. */
class ProjectPicker {
  private readonly listed = new Map<string, RecentProject>();
  private listError: string | undefined;
  /** Listed projects left out because their IDs are not project IDs. */
  private refused = 0;
  private loading = true;
  private typedItem: PickItem | undefined;
  private checking = false;
  private readonly abort = new AbortController();
  private readonly picker = vscode.window.createQuickPick<PickItem>();

  constructor(
    private readonly client: ProjectLister,
    private readonly current: string | undefined,
    private readonly recents: readonly RecentProject[],
  ) {
    const picker = this.picker;
    picker.title = 'Select Google Cloud Project';
    picker.placeholder = 'Filter by name, ID or number, or type a project ID or number';
    picker.matchOnDescription = true;
    picker.matchOnDetail = true;
    picker.ignoreFocusOut = true;
    picker.busy = true;
  }

  /** Shows the picker and hands `use` the project the user chose (nothing when it was closed). */
  async pick(use: (project: RecentProject) => Promise<void>): Promise<void> {
    const listeners: vscode.Disposable[] = [];
    const accepted = new Promise<RecentProject | undefined>((resolve) => {
      listeners.push(
        this.picker.onDidHide(() => resolve(undefined)),
        this.picker.onDidChangeValue((value) => this.updateTyped(value)),
        this.picker.onDidAccept(() => void this.accept(resolve)),
      );
    });
    this.render();
    this.picker.show();
    void this.load();
    try {
      // The picker stays up until the choice is kept.
      const chosen = await accepted;
      if (chosen) await use(chosen);
    } finally {
      this.abort.abort();
      for (const l of listeners) l.dispose();
      this.picker.dispose();
    }
  }

  private render(): void {
    const { picker, listed, current } = this;
    const items: PickItem[] = [];
    const recentIds = new Set<string>();
    const recentItems = this.recents.map((r) => {
      recentIds.add(r.projectId);
      return itemFor(listed.get(r.projectId) ?? r, current);
    });
    if (recentItems.length > 0) items.push({ label: 'Recently used', kind: vscode.QuickPickItemKind.Separator });
    items.push(...recentItems);
    const others = [...listed.values()].filter((p) => !recentIds.has(p.projectId));
    if (others.length > 0 || this.loading || this.listError)
      items.push({
        label: this.loading ? 'Projects you can see (loading…)' : 'Projects you can see',
        kind: vscode.QuickPickItemKind.Separator,
      });
    items.push(...others.map((p) => itemFor(p, current)));
    if (this.listError)
      items.push({
        label: '$(warning) The project list could not be loaded',
        detail: `${safeText(this.listError, 'plain', MESSAGE_LIMIT)} Type a project ID or number instead.`,
        alwaysShow: true,
      });
    if (this.refused > 0)
      items.push({
        label: `$(warning) ${this.refused} listed project${this.refused === 1 ? '' : 's'} left out`,
        detail: 'Their IDs are not project IDs (6–30 lowercase letters, digits or hyphens, starting with a letter).',
        alwaysShow: true,
      });
    // Last, so that the projects a filter matches stay first and keep their places as the user types.
    if (this.typedItem) items.push(this.typedItem);
    const active = picker.activeItems[0];
    picker.items = items;
    // Keep the user's place while pages arrive.
    const again =
      active && items.find((i) => i.project?.projectId === active.project?.projectId && i.typed === active.typed);
    if (again) picker.activeItems = [again];
  }

  private updateTyped(value: string): void {
    const typed = value.trim();
    const known = [...this.recents, ...this.listed.values()].some((p) => matchesTyped(p, typed));
    this.typedItem =
      PROJECT_ID_OR_NUMBER.test(typed) && !known
        ? {
            label: `$(arrow-right) Use project "${typed}"`,
            description: /^\d+$/.test(typed) ? 'project number' : 'project ID',
            detail: 'Checks that the project exists and that these credentials can see it.',
            alwaysShow: true,
            typedEntry: true,
            typed,
          }
        : undefined;
    this.render();
  }

  private async load(): Promise<void> {
    const { abort } = this;
    let token: string | undefined;
    let pages = 0;
    try {
      do {
        // Only live projects can hold models and keys; ones pending deletion are left out.
        const page = await this.client.searchProjects({
          query: 'state:ACTIVE',
          pageSize: PAGE_SIZE,
          ...(token ? { pageToken: token } : {}),
          signal: abort.signal,
        });
        for (const p of page.items) {
          if (p.state !== undefined && p.state !== 'ACTIVE') continue;
          const recent = toRecent(p);
          if (recent) this.listed.set(recent.projectId, recent);
          else this.refused += 1;
        }
        token = page.nextPageToken;
        pages += 1;
        this.updateTyped(this.picker.value);
      } while (token && pages < MAX_PAGES);
      if (token) log.info(`project list stopped after ${pages} pages; type a filter or an ID to find others`);
      if (this.refused) log.warn(`left out ${this.refused} listed projects whose IDs are not project IDs`);
    } catch (err) {
      if (abort.signal.aborted) return;
      log.warn(`projects.search failed: ${describeError(err)}`);
      this.listError = describeError(err);
    } finally {
      this.loading = false;
      this.picker.busy = false;
      if (!abort.signal.aborted) this.render();
    }
  }

  /** Enter: a listed project is used; a typed one is checked with projects.get first. */
  private async accept(resolve: (project: RecentProject) => void): Promise<void> {
    const { picker } = this;
    const item = picker.selectedItems[0] ?? picker.activeItems[0];
    if (!item) return;
    if (item.project) {
      resolve(item.project);
      return;
    }
    if (!item.typedEntry || this.checking) return;
    // What is in the box now, not what the row said when it was drawn: the user may have typed
    // on while an earlier check was answered.
    const typed = picker.value.trim();
    if (!PROJECT_ID_OR_NUMBER.test(typed)) return;
    if (item.unchecked && item.typed === typed) {
      resolve({ projectId: typed });
      return;
    }
    this.checking = true;
    picker.busy = true;
    try {
      const found = await this.client.getProject(typed, { signal: this.abort.signal });
      const recent = toRecent(found);
      if (!recent)
        throw new Error(`the service answered with a project ID that is not one (${safeText(found.projectId)})`);
      resolve(recent);
    } catch (err) {
      if (this.abort.signal.aborted) return;
      const refused = refusal(typed, err);
      this.typedItem = refused
        ? { label: `$(error) ${typed}`, detail: refused, alwaysShow: true, typedEntry: true }
        : {
            label: `$(warning) Use project "${typed}" unchecked`,
            detail: `Could not check the project: ${safeText(describeError(err), 'plain', MESSAGE_LIMIT)} Press Enter again to use it anyway.`,
            alwaysShow: true,
            typedEntry: true,
            typed,
            unchecked: true,
          };
      this.render();
    } finally {
      this.checking = false;
      picker.busy = this.loading;
    }
  }
}
