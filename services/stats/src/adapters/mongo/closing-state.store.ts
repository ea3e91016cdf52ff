import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { ClosingState, ClosingStateStore } from '../../closing/closing-ports.js';

interface ClosingDoc {
  _id: string;
  openFrom: Date;
  closedTo: Date;
}

const ID = 'closing';

/**
 * The closing boundary in `stats_state` (`_id: 'closing'`). The collection is shared with the
 * rollup generation doc, so it is reached through the driver's collection, not a model. Every
 * change is a compare-and-set on the value the caller saw: two closers (a restart overlapping a
 * zombie, a test running two) cannot move a boundary twice.
 */
export class MongoClosingStateStore implements ClosingStateStore {
  constructor(private readonly connection: Connection) {}

  private get collection() {
    return this.connection.collection<ClosingDoc>('stats_state');
  }

  async loadOrCreate(initial: Date): Promise<ClosingState> {
    const existing = await this.read();
    if (existing) return existing;
    try {
      await this.collection.insertOne({ _id: ID, openFrom: initial, closedTo: initial });
    } catch (error) {
      // Another process created it first: its value stands.
      if (!isDuplicateKeyError(error)) throw error;
    }
    return this.mustRead();
  }

  async advanceOpenFrom(from: Date, to: Date): Promise<ClosingState> {
    await this.collection.updateOne({ _id: ID, openFrom: from }, { $set: { openFrom: to } });
    return this.mustRead();
  }

  async advanceClosedTo(from: Date, to: Date): Promise<ClosingState> {
    await this.collection.updateOne({ _id: ID, closedTo: from }, { $set: { closedTo: to } });
    return this.mustRead();
  }

  private async read(): Promise<ClosingState | null> {
    const doc = await this.collection.findOne({ _id: ID });
    if (!doc) return null;
    return { openFrom: doc.openFrom, closedTo: doc.closedTo };
  }

  private async mustRead(): Promise<ClosingState> {
    const state = await this.read();
    if (!state) throw new Error('stats_state closing document vanished');
    return state;
  }
}
