// Files Cloudbench writes through VS Code's file system (exports, reports, chart images): written
// whole to a temporary sibling, then renamed over the target, so a crash, a full disk or a remote
// connection lost mid-write leaves the old file or none, never a truncated one.
import * as vscode from 'vscode';

function temporarySibling(target: vscode.Uri): vscode.Uri {
  const slash = target.path.lastIndexOf('/');
  const folder = target.path.slice(0, slash + 1);
  const name = target.path.slice(slash + 1);
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return target.with({ path: `${folder}.${name}.${unique}.tmp` });
}

/** Writes `data` to `target` atomically (temporary file in the same folder, then rename). */
export async function writeFileAtomic(target: vscode.Uri, data: Uint8Array): Promise<void> {
  const temp = temporarySibling(target);
  try {
    await vscode.workspace.fs.writeFile(temp, data);
    await vscode.workspace.fs.rename(temp, target, { overwrite: true });
  } catch (err) {
    await Promise.resolve(vscode.workspace.fs.delete(temp, { useTrash: false })).catch(() => undefined);
    throw err;
  }
}

/** True when something exists at `uri`. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
