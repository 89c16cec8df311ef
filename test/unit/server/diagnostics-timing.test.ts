// When the language server computes diagnostics and semantic tokens while someone types: the wait
// for a still document ends on its own, on cancellation, or (for semantic tokens) on a change.
import * as assert from 'node:assert/strict';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import {
  ChangeTimes,
  DiagnosticReports,
  LARGE_DOCUMENT_CHARS,
  LARGE_DOCUMENT_QUIET_MS,
  PUSH_QUIET_MS,
  quietPeriod,
} from '../../../src/server/diagnostics-timing';

const URI = 'file:///w/q.udm';
// A clock that stands still: a document changed "now" stays unsettled until the test says otherwise.
const frozen = (): number => 1000;

describe('language server timing while typing', () => {
  it('waits only for large documents (and pushes small ones after a short pause, as before)', () => {
    assert.equal(quietPeriod(100, false), 0);
    assert.equal(quietPeriod(100, true), PUSH_QUIET_MS);
    assert.equal(quietPeriod(LARGE_DOCUMENT_CHARS, false), LARGE_DOCUMENT_QUIET_MS);
    assert.equal(quietPeriod(LARGE_DOCUMENT_CHARS, true), LARGE_DOCUMENT_QUIET_MS);
  });

  it('a document that has not changed is still at once', async () => {
    const times = new ChangeTimes(frozen);
    assert.equal(await times.settle(URI, 60_000, new CancellationTokenSource().token), 'still');
  });

  it('a cancelled wait ends at once, without waiting for the document to be still', async () => {
    const times = new ChangeTimes(frozen);
    times.changed(URI);
    const cts = new CancellationTokenSource();
    const waiting = times.settle(URI, 60_000, cts.token);
    cts.cancel();
    assert.equal(await waiting, 'cancelled');
  });

  it('a change while semantic tokens wait ends the wait as "changed"; diagnostics go on waiting', async () => {
    const times = new ChangeTimes(frozen);
    times.changed(URI);
    const tokens = times.settle(URI, 60_000, new CancellationTokenSource().token, true);
    const pull = new CancellationTokenSource();
    let pulled: string | undefined;
    const diagnostics = times.settle(URI, 60_000, pull.token).then((s) => (pulled = s));
    times.changed('file:///w/other.udm');
    times.changed(URI);
    assert.equal(await tokens, 'changed');
    assert.equal(pulled, undefined, 'the pull still waits');
    pull.cancel();
    assert.equal(await diagnostics, 'cancelled');
  });

  it('a pull naming the last answer is told "unchanged" only while the diagnostics are the same', () => {
    const reports = new DiagnosticReports();
    const d = { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } }, message: 'x' };
    const first = reports.report(URI, [d], undefined);
    assert.equal(first.unchanged, false);
    assert.deepEqual(reports.report(URI, [d], first.resultId), { resultId: first.resultId, unchanged: true });
    const moved = { ...d, range: { start: { line: 2, character: 0 }, end: { line: 2, character: 3 } } };
    const second = reports.report(URI, [moved], first.resultId);
    assert.equal(second.unchanged, false);
    assert.notEqual(second.resultId, first.resultId);
    // An editor that missed an answer (an older id) gets the full report.
    assert.equal(reports.report(URI, [moved], first.resultId).unchanged, false);
    reports.forget(URI);
    assert.equal(reports.report(URI, [moved], second.resultId).unchanged, false);
  });
});
