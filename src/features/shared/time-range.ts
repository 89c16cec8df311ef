// The UDM search time range: kept per workspace, picked from presets or as a custom range.
import * as vscode from 'vscode';
import { CancelledError } from '../../core/google/errors';
import {
  PRESET_LABELS,
  describeTimeRange,
  isTimeRangeSpec,
  parseTimeInput,
  type TimePreset,
  type TimeRangeSpec,
} from '../../core/secops/timerange';
import type { Services } from '../services';

const TIME_RANGE_KEY = 'cloudbench.search.timeRange';

/** The time range searches run over: the user's pick in this workspace, else the setting's preset. */
export class TimeRangeState {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  spec: TimeRangeSpec;

  constructor(
    private readonly context: vscode.ExtensionContext,
    services: Services,
  ) {
    context.subscriptions.push(this.emitter);
    const stored = context.workspaceState.get<unknown>(TIME_RANGE_KEY);
    this.spec = isTimeRangeSpec(stored)
      ? stored
      : { kind: 'preset', preset: services.connection().settings.search.defaultTimeRange };
    // Until the user picks a range in this workspace, the setting decides (also when it changes).
    context.subscriptions.push(
      services.onDidChangeSettings((change) => {
        if (!change.changed.has('search')) return;
        if (isTimeRangeSpec(context.workspaceState.get<unknown>(TIME_RANGE_KEY))) return;
        const preset = services.connection().settings.search.defaultTimeRange;
        if (this.spec.kind === 'preset' && this.spec.preset === preset) return;
        this.spec = { kind: 'preset', preset };
        this.emitter.fire();
      }),
    );
  }

  async set(spec: TimeRangeSpec): Promise<void> {
    this.spec = spec;
    await this.context.workspaceState.update(TIME_RANGE_KEY, spec);
    this.emitter.fire();
  }
}

export async function pickTimeRange(current: TimeRangeSpec): Promise<TimeRangeSpec | undefined> {
  type Item = vscode.QuickPickItem & { spec?: TimeRangeSpec };
  const presets: Item[] = (Object.keys(PRESET_LABELS) as TimePreset[]).map((preset) => ({
    label: PRESET_LABELS[preset],
    spec: { kind: 'preset', preset },
    ...(current.kind === 'preset' && current.preset === preset ? { description: '(current)' } : {}),
  }));
  const custom: Item = {
    label: 'Custom range…',
    detail:
      current.kind === 'custom'
        ? `Current: ${describeTimeRange(current)}`
        : 'Start and end as RFC 3339 times, "now" or offsets like -2h',
  };
  const picked = await vscode.window.showQuickPick<Item>([...presets, custom], {
    title: 'UDM Search Time Range',
    placeHolder: 'Events from…',
  });
  if (!picked) return undefined;
  if (picked.spec) return picked.spec;
  const now = Date.now();
  const start = await askTime(
    'Custom time range: start (inclusive)',
    current.kind === 'custom' ? current.start : '-2h',
    'RFC 3339 (2024-05-01T12:00:00Z), "now", or an offset such as -2h, -30m, -7d',
    now,
  );
  if (start === undefined) return undefined;
  const startValue = parseTimeInput(start, now);
  if ('error' in startValue) throw new CancelledError();
  const end = await askTime(
    'Custom time range: end (exclusive)',
    current.kind === 'custom' ? current.end : 'now',
    'RFC 3339, "now", or an offset such as -1h',
    now,
    (value) =>
      Date.parse(value) <= Date.parse(startValue.value)
        ? `The end must come after the start (${startValue.value}).`
        : undefined,
  );
  if (end === undefined) return undefined;
  const endValue = parseTimeInput(end, now);
  if ('error' in endValue) return undefined;
  return { kind: 'custom', start: startValue.value, end: endValue.value };
}

/** Asks for a time (parsed against `now`), refusing what does not parse or what `check` refuses. */
function askTime(
  title: string,
  value: string,
  prompt: string,
  now: number,
  check: (value: string) => string | undefined = () => undefined,
): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    value,
    prompt,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const r = parseTimeInput(v, now);
      return 'error' in r ? r.error : check(r.value);
    },
  });
}
