// Select Project…: the projects the credentials can see (Cloud Resource Manager projects.search,
// page by page while the picker is open), recently used ones first, filtered as the user types by
// display name, ID or number. A typed ID or number the list does not show is checked with
// projects.get before it is used, so a typo never becomes the project every view calls.
import * as vscode from 'vscode';
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

function toRecent(project: Project): RecentProject {
  return {
    projectId: project.projectId,
    number: projectNumber(project),
    ...(project.displayName ? { displayName: project.displayName } : {}),
  };
}

/** A server's text as a quick-pick label: "$(name)" would otherwise be drawn as an icon. */
function plainLabel(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}

function itemFor(project: RecentProject, current: string | undefined): PickItem {
  const isCurrent = current !== undefined && (current === project.projectId || current === project.number);
  return {
    label: plainLabel(project.displayName || project.projectId),
    description: plainLabel(isCurrent ? `${project.projectId} · current project` : project.projectId),
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
  const recents = context.globalState.get<RecentProject[]>(RECENT_STATE, []).filter((r) => !!r?.projectId);
  const picker = new ProjectPicker(resourceManagerClient(services), services.connection().project, recents);
  await picker.pick(async (chosen) => {
    const next = [chosen, ...recents.filter((r) => r.projectId !== chosen.projectId)].slice(0, RECENT_LIMIT);
    await context.globalState.update(RECENT_STATE, next);
    await vscode.workspace
      .getConfiguration('cloudbench')
      .update('project', chosen.projectId, vscode.ConfigurationTarget.Global);
  });
}

/** One open picker: the recent projects, the pages of projects.search as they come, and what is typed. */
class ProjectPicker {
  private readonly listed = new Map<string, RecentProject>();
  private listError: string | undefined;
  private loading = true;
  private typedItem: PickItem | undefined;
  private checking = false;
  private readonly abort = new AbortController();
  private readonly picker = vscode.window.createQuickPick<PickItem>();

  constructor(
    private readonly client: ResourceManagerClient,
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
        detail: `${this.listError} Type a project ID or number instead.`,
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
        for (const p of page.items)
          if (p.state === undefined || p.state === 'ACTIVE') this.listed.set(p.projectId, toRecent(p));
        token = page.nextPageToken;
        pages += 1;
        this.updateTyped(this.picker.value);
      } while (token && pages < MAX_PAGES);
      if (token) log.info(`project list stopped after ${pages} pages; type a filter or an ID to find others`);
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
      resolve(toRecent(found));
    } catch (err) {
      if (this.abort.signal.aborted) return;
      const refused = refusal(typed, err);
      this.typedItem = refused
        ? { label: `$(error) ${typed}`, detail: refused, alwaysShow: true, typedEntry: true }
        : {
            label: `$(warning) Use project "${typed}" unchecked`,
            detail: `Could not check the project: ${describeError(err)} Press Enter again to use it anyway.`,
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
