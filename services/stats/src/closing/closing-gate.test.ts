import { describe, expect, it } from 'vitest';
import { InProcessClosingGate } from './closing-gate.js';

const H0 = new Date('2026-03-01T10:00:00.000Z');
const H1 = new Date('2026-03-01T11:00:00.000Z');
const H2 = new Date('2026-03-01T12:00:00.000Z');

/** Whether a promise settled within a couple of event-loop turns. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('InProcessClosingGate', () => {
  it('refuses rounds before its boundary is loaded', () => {
    expect(() => new InProcessClosingGate().enter()).toThrow(/before its boundary was loaded/);
  });

  it('waits for every round that entered with the old boundary, not for rounds with the new one', async () => {
    const gate = new InProcessClosingGate(H0);
    const old1 = gate.enter();
    const old2 = gate.enter();
    expect(old1.openFrom).toEqual(H0);

    const advanced = gate.advance(H1);
    const fresh = gate.enter();
    expect(fresh.openFrom).toEqual(H1);
    expect(gate.openFrom).toEqual(H1);
    expect(await settled(advanced)).toBe(false);

    old1.leave();
    old1.leave(); // a second leave frees nothing more
    expect(await settled(advanced)).toBe(false);
    old2.leave();
    expect(await settled(advanced)).toBe(true);
    // The round with the new boundary is still in flight and did not hold the advance back.
    expect(gate.roundsInFlight).toBe(1);
    fresh.leave();
    expect(gate.roundsInFlight).toBe(0);
  });

  it('never moves back, and advancing again to the same hour just waits for older rounds', async () => {
    const gate = new InProcessClosingGate(H1);
    await gate.advance(H0);
    expect(gate.openFrom).toEqual(H1);
    const round = gate.enter();
    const first = gate.advance(H2);
    const again = gate.advance(H2);
    expect(await settled(first)).toBe(false);
    round.leave();
    expect(await settled(first)).toBe(true);
    expect(await settled(again)).toBe(true);
  });
});
