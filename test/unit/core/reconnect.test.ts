// A view whose load failed for want of a connection checks again by itself: 2 s, 4 s, 8 s … at
// most 60 s apart, stops after ten minutes of failures in a row or when disposed, starts over after
// a success, and checks at once when asked.
import { strict as assert } from 'node:assert';
import { ReconnectSchedule, type ReconnectTimers } from '../../../src/core/reconnect';

/** Timers that fire only when the test advances the clock. */
function fakeTimers(): ReconnectTimers & { advance(ms: number): void; scheduled(): number[] } {
  let time = 1_000_000;
  let next = 0;
  const timers = new Map<number, { at: number; run: () => void; ms: number }>();
  return {
    now: () => time,
    setTimeout: (run, ms) => {
      timers.set(++next, { at: time + ms, run, ms });
      return next;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    advance(ms: number) {
      time += ms;
      for (const [id, t] of [...timers]) {
        if (t.at <= time) {
          timers.delete(id);
          t.run();
        }
      }
    },
    scheduled: () => [...timers.values()].map((t) => t.ms),
  };
}

describe('ReconnectSchedule', () => {
  it('waits 2 s, 4 s, 8 s … capped at 60 s between checks', () => {
    const timers = fakeTimers();
    const schedule = new ReconnectSchedule(timers);
    const delays: number[] = [];
    let checks = 0;
    const fail = (): void => {
      schedule.failed(() => {
        checks++;
        fail();
      });
      delays.push(...timers.scheduled());
    };
    fail();
    for (let i = 0; i < 8; i++) timers.advance(delays[delays.length - 1]);
    assert.deepEqual(delays.slice(0, 8), [2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    assert.equal(checks, 8);
  });

  it('stops scheduling after ten minutes of failures in a row', () => {
    const timers = fakeTimers();
    const schedule = new ReconnectSchedule(timers);
    let checks = 0;
    const fail = (): void => {
      schedule.failed(() => {
        checks++;
        fail();
      });
    };
    fail();
    // Far more time than ten minutes: the checks stop on their own.
    for (let i = 0; i < 100; i++) timers.advance(60_000);
    assert.ok(checks > 5 && checks <= 15, `checks: ${checks}`);
    assert.equal(schedule.waiting, false);
    assert.deepEqual(timers.scheduled(), []);
  });

  it('starts again from 2 s after a success', () => {
    const timers = fakeTimers();
    const schedule = new ReconnectSchedule(timers);
    schedule.failed(() => undefined);
    timers.advance(2_000);
    schedule.failed(() => undefined);
    assert.deepEqual(timers.scheduled(), [4_000]);
    schedule.succeeded();
    assert.deepEqual(timers.scheduled(), [], 'a success cancels the pending check');
    schedule.failed(() => undefined);
    assert.deepEqual(timers.scheduled(), [2_000]);
  });

  it('checks at once when asked, and never after being disposed', () => {
    const timers = fakeTimers();
    const schedule = new ReconnectSchedule(timers);
    let checks = 0;
    schedule.failed(() => checks++);
    schedule.checkNow();
    assert.equal(checks, 1);
    assert.deepEqual(timers.scheduled(), []);
    schedule.checkNow();
    assert.equal(checks, 1, 'nothing pending, nothing run');
    schedule.failed(() => checks++);
    schedule.dispose();
    timers.advance(600_000);
    assert.equal(checks, 1);
    assert.equal(
      schedule.failed(() => checks++),
      false,
    );
    assert.deepEqual(timers.scheduled(), []);
  });
});
