import { checkAccountId, checkPaging, invalid } from '../shared/input.js';

export type MessageKind = 'welcome' | 'vip';

export interface AccountMessage {
  /** Derived from the event that caused it (`<kind>-<event id>`): a re-delivered event writes nothing new. */
  id: string;
  accountId: string;
  kind: MessageKind;
  title: string;
  body: string;
  createdAt: Date;
  read: boolean;
}

export interface MessageStore {
  /** Inserts unless a message with this id exists; true when it was new. */
  addOnce(message: AccountMessage): Promise<boolean>;
  page(accountId: string, page: { skip: number; limit: number }): Promise<{ messages: AccountMessage[]; total: number }>;
  unread(accountId: string): Promise<number>;
  /** Marks the account's messages with these ids read (all of them when `ids` is undefined). */
  markRead(accountId: string, ids: readonly string[] | undefined): Promise<void>;
}

export const MESSAGE_PAGE = { default: 10, max: 50 } as const;
const MAX_MARK_IDS = 100;
const MESSAGE_ID = /^[a-z_]{1,20}-[A-Za-z0-9_.:-]{1,100}$/;

/** An account's messages and unread count; new messages come from events (message-events.ts). */
export class Messages {
  constructor(private readonly store: MessageStore) {}

  async list(request: { accountId?: string; page?: number; pageSize?: number }) {
    const accountId = checkAccountId(request.accountId, { required: true });
    const paging = checkPaging(request.page, request.pageSize, MESSAGE_PAGE);
    const [page, unread] = await Promise.all([
      this.store.page(accountId, { skip: paging.skip, limit: paging.pageSize }),
      this.store.unread(accountId),
    ]);
    return { ...page, unread };
  }

  unread(request: { accountId?: string }): Promise<number> {
    return this.store.unread(checkAccountId(request.accountId, { required: true }));
  }

  async markRead(request: { accountId?: string; ids?: readonly string[] }): Promise<number> {
    const accountId = checkAccountId(request.accountId, { required: true });
    const ids = request.ids ?? [];
    if (ids.length > MAX_MARK_IDS) throw invalid(`一次最多标记 ${MAX_MARK_IDS} 条消息`, 'ids');
    if (ids.some((id) => !MESSAGE_ID.test(id))) throw invalid('消息编号不正确', 'ids');
    // Ids of other accounts' messages match nothing: the store filters by account too.
    await this.store.markRead(accountId, ids.length === 0 ? undefined : [...new Set(ids)]);
    return this.store.unread(accountId);
  }

  /** Adds a message caused by an event; a duplicate event id changes nothing. */
  add(message: Omit<AccountMessage, 'read' | 'id'> & { eventId: string }): Promise<boolean> {
    const { eventId, ...rest } = message;
    return this.store.addOnce({ ...rest, id: `${message.kind}-${eventId}`, read: false });
  }
}
