// A check that runs before a modal question ("Checking endpoints…" before "Delete model?"). The
// editor keeps a progress notification on screen for a while after its task ends (so it does not
// flash), which would leave it behind the modal dialog that follows. So a quick check shows no
// notification at all, and after a slow one the caller waits until the notification is gone.
import * as vscode from 'vscode';

/** A check that ends within this time shows no progress notification. */
export const QUIET_CHECK_MS = 400;
/**
 * How long the editor keeps a progress notification on screen at the least, from when it appears
 * (800 ms in VS Code's progress service), with a margin.
 */
export const NOTIFICATION_LINGER_MS = 900;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` with a cancellable progress notification titled `title` when it takes longer than
 * QUIET_CHECK_MS, and resolves (or rejects) once the notification is off the screen, so a modal
 * dialog shown next is not drawn over it.
 */
export async function checkBeforeModal<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const running = task(controller.signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quiet = await Promise.race([
    running.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), QUIET_CHECK_MS))),
  ]);
  clearTimeout(timer);
  if (quiet) return running;
  let shownAt = Date.now();
  try {
    return await vscode.window.withProgress<T>(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (_progress, token) => {
        shownAt = Date.now();
        const listener = token.onCancellationRequested(() => controller.abort());
        return running.finally(() => {
          listener.dispose();
        });
      },
    );
  } finally {
    const left = shownAt + NOTIFICATION_LINGER_MS - Date.now();
    if (left > 0) await sleep(left);
  }
}
