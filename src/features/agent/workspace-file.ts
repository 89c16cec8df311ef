// A workspace file named by a tool input, read as hostile input: a path relative to an open folder
// (no "..", not absolute), the file itself (not a symbolic link, and on disk not reached through a
// linked folder that leads out of the workspace folder), a size limit, strict UTF-8.
import { realpath } from 'node:fs/promises';
import { relative as relativePath, isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import { clip } from '../../core/agent/answer';

/** Whether `path` (resolved) lies inside `folder` (resolved). */
function inside(folder: string, path: string): boolean {
  const rel = relativePath(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A workspace file named by a tool input: inside an open folder, never through `..` or a link out of it. */
export async function workspaceFile(relative: string, maxBytes: number): Promise<{ uri: vscode.Uri; text: string }> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) throw new Error('No folder is open, so there is no workspace file to read.');
  const shown = JSON.stringify(clip(relative, 200));
  const parts = relative
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p && p !== '.');
  if (parts.some((p) => p === '..') || /^([a-z]:|\/)/i.test(relative) || parts.length === 0)
    throw new Error(`${shown} must be a path relative to the workspace folder, without "..".`);
  for (const folder of folders) {
    const uri = vscode.Uri.joinPath(folder.uri, ...parts);
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch {
      continue;
    }
    if ((stat.type & vscode.FileType.SymbolicLink) !== 0)
      throw new Error(`${shown} is a symbolic link; give the file itself.`);
    if ((stat.type & vscode.FileType.File) === 0) throw new Error(`${shown} is not a file.`);
    if (folder.uri.scheme === 'file' && !inside(await realpath(folder.uri.fsPath), await realpath(uri.fsPath)))
      throw new Error(`${shown} is reached through a link to a place outside the workspace folder; not read.`);
    if (stat.size > maxBytes) throw new Error(`${shown} is larger than ${maxBytes} bytes.`);
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.byteLength > maxBytes) throw new Error(`${shown} is larger than ${maxBytes} bytes.`);
    return { uri, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  }
  throw new Error(`No file ${shown} in the workspace folder(s).`);
}
