import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKeyError } from '@ipdata/common';
import type { Invoice } from '../../invoices/invoice.js';
import type { InvoiceRepository } from '../../invoices/invoice.service.js';

type InvoiceDoc = Omit<Invoice, 'id'> & { _id: string };

const schema = new Schema<InvoiceDoc>(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    periodStart: { type: Date, required: true },
    periodEnd: { type: Date, required: true },
  },
  { collection: 'invoices', versionKey: false, strict: false },
);
// One invoice per account and month, however often the closed rollup arrives.
schema.index({ accountId: 1, periodStart: 1 }, { unique: true });

function fromDoc(doc: InvoiceDoc): Invoice {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest };
}

export class MongoInvoiceRepository implements InvoiceRepository {
  private readonly model: Model<InvoiceDoc>;

  constructor(connection: Connection) {
    this.model = connection.model<InvoiceDoc>('Invoice', schema);
  }

  async createIndexes(): Promise<void> {
    await this.model.createIndexes();
  }

  async insert(invoice: Invoice): Promise<boolean> {
    const { id, ...rest } = invoice;
    try {
      await this.model.collection.insertOne({ _id: id, ...rest } as never);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async get(id: string): Promise<Invoice | null> {
    const doc = await this.model.findById(id).lean<InvoiceDoc>();
    return doc ? fromDoc(doc) : null;
  }

  async listByAccount(accountId: string, offset: number, limit: number): Promise<Invoice[]> {
    const docs = await this.model.find({ accountId }).sort({ periodStart: -1 }).skip(offset).limit(limit).lean<InvoiceDoc[]>();
    return docs.map(fromDoc);
  }
}
