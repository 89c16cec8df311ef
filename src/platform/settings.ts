import * as vscode from 'vscode';
import { DEFAULT_RETRY, type RetryPolicy } from '../core/google/retry';

export interface CloudbenchSettings {
  project: string | undefined;
  locations: string[];
  credentialsFile: string | undefined;
  endpoints: { models: string | undefined; apiKeys: string | undefined; secops: string | undefined };
  universeDomain: string | undefined;
  secops: { region: string; credentialsFile: string | undefined };
  search: { defaultLimit: number; defaultTimeRange: '1h' | '24h' | '7d' };
  retry: RetryPolicy;
  timeoutMs: number;
  sandboxSeed: 'demo' | 'empty';
}

/** A setting whose value cannot be used; the message names the setting and says what is wrong. */
export interface SettingProblem {
  setting: string;
  message: string;
}

const PROJECT = /^([a-z][a-z0-9-]{4,28}[a-z0-9]|[0-9]{1,20}|[a-z][a-z0-9.:-]*)$/;
const HOST_PORT = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

function text(config: vscode.WorkspaceConfiguration, key: string): string | undefined {
  const value = config.get<unknown>(key);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function checkUrl(setting: string, value: string | undefined, problems: SettingProblem[]): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return value.replace(/\/+$/, '');
  } catch {
    problems.push({ setting, message: `"${value}" is not an http(s) URL such as https://apikeys.googleapis.com.` });
    return undefined;
  }
}

/** Reads every cloudbench.* setting, keeping what is usable and listing what is not. */
export function readSettings(): { settings: CloudbenchSettings; problems: SettingProblem[] } {
  const config = vscode.workspace.getConfiguration('cloudbench');
  const problems: SettingProblem[] = [];

  let project = text(config, 'project');
  if (project !== undefined && !PROJECT.test(project)) {
    problems.push({ setting: 'cloudbench.project', message: `"${project}" is not a project ID or number.` });
    project = undefined;
  }

  const rawLocations = config.get<unknown>('locations');
  const locations = Array.isArray(rawLocations) ? rawLocations.filter((l): l is string => typeof l === 'string' && /^[a-z][a-z0-9-]*$/.test(l)) : [];
  if (Array.isArray(rawLocations) && locations.length !== rawLocations.length) {
    problems.push({ setting: 'cloudbench.locations', message: 'Some entries are not location ids such as us-central1 and were ignored.' });
  }

  let models = text(config, 'endpoints.models');
  if (models !== undefined) {
    const stripped = models.replace(/^(https?|grpcs?|dns):(\/\/\/?)?/, '');
    if (!HOST_PORT.test(stripped)) {
      problems.push({ setting: 'cloudbench.endpoints.models', message: `"${models}" is not host:port, e.g. us-central1-aiplatform.googleapis.com:443 or 127.0.0.1:50051.` });
      models = undefined;
    } else {
      models = stripped;
    }
  }

  const region = text(config, 'secops.region') ?? 'us';
  const limit = config.get<number>('search.defaultLimit', 10000);
  const range = config.get<string>('search.defaultTimeRange', '24h');
  const timeoutSeconds = config.get<number>('requests.timeoutSeconds', 60);
  const maxRetries = config.get<number>('requests.maxRetries', DEFAULT_RETRY.maxRetries);
  const initialBackoffMs = config.get<number>('requests.initialBackoffMs', DEFAULT_RETRY.initialBackoffMs);
  const seed = config.get<string>('sandbox.seed', 'demo');

  const numberIn = (setting: string, value: unknown, min: number, max: number, fallback: number): number => {
    if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) return value;
    problems.push({ setting, message: `must be a number from ${min} to ${max}; using ${fallback}.` });
    return fallback;
  };

  const settings: CloudbenchSettings = {
    project,
    locations,
    credentialsFile: text(config, 'credentialsFile'),
    endpoints: {
      models,
      apiKeys: checkUrl('cloudbench.endpoints.apiKeys', text(config, 'endpoints.apiKeys'), problems),
      secops: checkUrl('cloudbench.endpoints.secops', text(config, 'endpoints.secops'), problems),
    },
    universeDomain: text(config, 'universeDomain'),
    secops: { region, credentialsFile: text(config, 'secops.credentialsFile') },
    search: {
      defaultLimit: Math.round(numberIn('cloudbench.search.defaultLimit', limit, 1, 10000, 10000)),
      defaultTimeRange: range === '1h' || range === '7d' ? range : '24h',
    },
    retry: {
      ...DEFAULT_RETRY,
      maxRetries: Math.round(numberIn('cloudbench.requests.maxRetries', maxRetries, 0, 10, DEFAULT_RETRY.maxRetries)),
      initialBackoffMs: numberIn('cloudbench.requests.initialBackoffMs', initialBackoffMs, 10, 60000, DEFAULT_RETRY.initialBackoffMs),
    },
    timeoutMs: numberIn('cloudbench.requests.timeoutSeconds', timeoutSeconds, 1, 600, 60) * 1000,
    sandboxSeed: seed === 'empty' ? 'empty' : 'demo',
  };
  return { settings, problems };
}
