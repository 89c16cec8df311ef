// What the Models commands share: the tree and its view, the client of the current connection,
// the details documents, the operations registry, and the filter.
import type * as vscode from 'vscode';
import type { ModelRegistryClient } from '../../core/models/client';
import type * as WireModuleType from '../../core/models/wire';
import type { EvaluatedAnnotation } from '../../core/models/types';
import type * as ImportModuleType from './import-files';
import type { OperationsRegistry } from '../operations/registry';
import type { Connection, Services } from '../services';
import type { MetricsPanels } from './metrics-panel';
import type { DetailsDocuments } from './details-documents';
import type { ModelsNode, ModelsTreeProvider } from './tree';

export interface ModelsContext {
  readonly extension: vscode.ExtensionContext;
  readonly services: Services;
  readonly provider: ModelsTreeProvider;
  readonly view: vscode.TreeView<ModelsNode>;
  readonly details: DetailsDocuments;
  /** The metrics panels open in this window. */
  readonly metrics: MetricsPanels;
  /** The one operation runner and the Operations view's list (services.operations). */
  readonly operations: OperationsRegistry;
  /** Evaluated annotations imported in this window, by slice (the service cannot list them). */
  readonly annotations: Map<string, EvaluatedAnnotation[]>;
  connection(): Connection;
  /** The client of the current connection; undefined without a project. */
  client(): ModelRegistryClient | undefined;
  filter(): string | undefined;
  /** Keeps the filter for the workspace, shows it on the view and reloads the tree. */
  setFilter(filter: string | undefined): Promise<void>;
}

/** The client, or an error that says how to get one. */
export function needClient(ctx: ModelsContext): ModelRegistryClient {
  const client = ctx.client();
  if (!client) throw new Error('Select a Google Cloud project first (Cloudbench: Select Project…).');
  return client;
}

/** The node a command was run on, if it is one of `kinds`; else an error that says where to run it. */
export function nodeOf<K extends Array<abstract new (...args: never[]) => ModelsNode>>(
  node: unknown,
  ...kinds: K
): InstanceType<K[number]> {
  const found = kinds.find((k) => node instanceof k);
  if (!found) throw new Error('Run this command from a node of the Models view.');
  return node as InstanceType<K[number]>;
}

// The gRPC stack and the proto descriptor cost tens of milliseconds to load, so they are required on
// first use (a project being browsed), not when the extension activates.
type WireModule = typeof WireModuleType;
type ImportModule = typeof ImportModuleType;
/* eslint-disable @typescript-eslint/no-require-imports */
export const lazyImports = (): ImportModule => require('./import-files') as ImportModule;
export const toProto3Json: WireModule['toProto3Json'] = (type, value) =>
  (require('../../core/models/wire') as WireModule).toProto3Json(type, value);
/* eslint-enable @typescript-eslint/no-require-imports */
