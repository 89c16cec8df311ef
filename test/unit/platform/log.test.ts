import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { fakeExtensionContext, useFakeVscode } from '../fakes/vscode';
import { CredentialsError } from '../../../src/core/google/credentials';
import { CancelledError, GoogleApiError } from '../../../src/core/google/errors';
import type * as LogModule from '../../../src/platform/log';

type Line = { level: string; text: string };

/** A fresh copy of the log module writing into a recording channel. */
function recordingLogger(): { log: LogModule.Logger; lines: Line[] } {
  useFakeVscode();

  const vscode = require('vscode') as { window: Record<string, unknown> };
  const lines: Line[] = [];
  const at = (level: string) => (text: string) => lines.push({ level, text });
  vscode.window['createOutputChannel'] = () => ({
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    show: () => undefined,
    dispose: () => undefined,
  });
  const file = join(__dirname, '../../../src/platform/log.ts');
  delete require.cache[require.resolve(file)];

  const mod = require(file) as typeof LogModule;
  // The channel goes into the context's subscriptions, as in the extension.
  const context = fakeExtensionContext({}, __dirname) as { subscriptions: unknown[] };
  context.subscriptions.push(mod.initLogging(context as never));
  return { log: mod.getLogger('keys'), lines };
}

describe('a quiet log', () => {
  it('an expected failure is one warning line with the request name and the words the user saw', () => {
    const { log, lines } = recordingLogger();
    const denied = GoogleApiError.fromRest(
      403,
      { error: { code: 403, message: 'Permission denied on ListModels.', status: 'PERMISSION_DENIED' } },
      'ListModels',
    );
    log.failure('loading models of us-central1', denied);
    assert.equal(lines.length, 1);
    assert.equal(lines[0].level, 'warn');
    assert.match(lines[0].text, /^\[keys\] loading models of us-central1 \(ListModels\): Permission denied/);
    assert.match(lines[0].text, /aiplatform\.models\.list/);
    assert.doesNotMatch(lines[0].text, /\n|\bat \S+ \(/);

    log.failure('Look Up Key', new GoogleApiError('NOT_FOUND', 'No key with this key string exists.'));
    log.failure('Choose Credentials File', new CredentialsError('No Google Cloud credentials were found.'));
    log.failure('Import Evaluation', new Error('The file is not a JSON evaluation export.'));
    log.failure('udmSearch', new GoogleApiError('RESOURCE_EXHAUSTED', 'Quota exceeded.', { method: 'udmSearch' }));
    log.failure('listing keys', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    assert.deepEqual(
      lines.map((l) => l.level),
      ['warn', 'warn', 'warn', 'warn', 'warn', 'warn'],
    );
    assert.ok(lines.every((l) => !l.text.includes('\n')));
  });

  it('an unexpected failure keeps its stack at error level; a cancel is debug only', () => {
    const { log, lines } = recordingLogger();
    log.failure('Copy Model', new TypeError("Cannot read properties of undefined (reading 'name')"));
    log.failure('ListModels', new GoogleApiError('INTERNAL', 'Internal error.', { method: 'ListModels' }));
    log.failure('Delete Key', new CancelledError());
    assert.deepEqual(
      lines.map((l) => l.level),
      ['error', 'error', 'debug'],
    );
    assert.match(lines[0].text, /Copy Model failed\nTypeError: Cannot read properties/);
    assert.match(lines[0].text, /\n\s+at /);
  });
});
