// The operations that were being followed when the window closed, in the workspace state, so that a
// reloaded window follows them again from their real start (elapsed times do not restart).
import type * as vscode from 'vscode';

export interface JournalEntry {
  /** The feature that follows it again ("models", "keys"). */
  source: string;
  /** The feature's own kind ("copy", "apikeys.keys.delete"). */
  kind: string;
  /** The server's operation name. */
  name: string;
  title: string;
  resource: string;
  /** When it started (epoch ms). */
  started: number;
  /** The resource it makes, when known before it ends (a copy's destination model). */
  target?: string;
}

const KEY = 'cloudbench.operations.running';
/** Where Models kept its running operations before every feature shared the journal. */
const LEGACY_MODELS_KEY = 'cloudbench.models.runningOperations';

function isEntry(value: unknown): value is JournalEntry {
  const e = value as Partial<JournalEntry> | null;
  return (
    !!e &&
    typeof e.source === 'string' &&
    typeof e.kind === 'string' &&
    typeof e.name === 'string' &&
    typeof e.title === 'string' &&
    typeof e.resource === 'string' &&
    typeof e.started === 'number' &&
    Number.isFinite(e.started)
  );
}

export class OperationJournal {
  constructor(
    private readonly memento: vscode.Memento | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The entries a feature follows again; state written by an older version is read too. */
  entries(source?: string): JournalEntry[] {
    const all = this.read();
    return source === undefined ? all : all.filter((e) => e.source === source);
  }

  add(entry: JournalEntry): void {
    const rest = this.read().filter((e) => e.name !== entry.name);
    void this.memento?.update(KEY, [...rest, entry]);
  }

  remove(name: string): void {
    const all = this.read();
    if (all.some((e) => e.name === name))
      void this.memento?.update(
        KEY,
        all.filter((e) => e.name !== name),
      );
  }

  private read(): JournalEntry[] {
    if (!this.memento) return [];
    const stored = this.memento.get<unknown>(KEY, []);
    const entries = Array.isArray(stored) ? stored.filter(isEntry) : [];
    const legacy = this.memento.get<unknown>(LEGACY_MODELS_KEY, []);
    if (Array.isArray(legacy) && legacy.length) {
      // Entries of the older Models journal had no source and no start time: now is the best guess.
      const taken = new Set(entries.map((e) => e.name));
      for (const old of legacy as Array<Partial<JournalEntry>>) {
        const entry = { ...old, source: 'models', started: this.now() };
        if (isEntry(entry) && !taken.has(entry.name)) entries.push(entry);
      }
      void this.memento.update(LEGACY_MODELS_KEY, undefined);
      void this.memento.update(KEY, entries);
    }
    return entries;
  }
}
