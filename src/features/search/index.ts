import type * as vscode from 'vscode';
import type { Services } from '../services';

// Placeholder until the feature lands; its owner replaces this file.
export function activateSearch(_context: vscode.ExtensionContext, _services: Services): void {}
