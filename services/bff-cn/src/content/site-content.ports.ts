import type {
  GetContactsResponse,
  GetNewsResponse,
  ListNewsResponse,
  Notice,
  NewsSummary,
  Sender,
  Submission,
} from '@ipdata/proto/content/v1/content';

/**
 * The content service as face A uses it (adapters/grpc/content.adapter.ts). Errors arrive as
 * DomainErrors: content's INVALID_ARGUMENT messages are Chinese and shown as they are.
 */
export interface SiteContent {
  listNews(product: string, page: number, pageSize: number): Promise<ListNewsResponse>;
  getNews(id: string): Promise<GetNewsResponse>;
  recommendNews(product: string, excludeId: string, limit: number): Promise<NewsSummary[]>;
  listNotices(limit: number): Promise<Notice[]>;
  getContacts(): Promise<GetContactsResponse>;
  submitCooperation(
    sender: Sender,
    form: { name: string; company: string; phone: string; email: string; message: string },
  ): Promise<Submission | undefined>;
  submitFeedback(
    sender: Sender,
    form: { category: string; content: string; contact: string; page: string },
  ): Promise<Submission | undefined>;
  reportIpError(
    sender: Sender,
    form: { ip: string; country: string; province: string; city: string; isp: string; comment: string; contact: string },
  ): Promise<Submission | undefined>;
  reportPosition(
    sender: Sender,
    form: { ip: string; latitude: number; longitude: number; accuracyM: number; address: string },
  ): Promise<Submission | undefined>;
  unreadCount(accountId: string): Promise<number>;
}
