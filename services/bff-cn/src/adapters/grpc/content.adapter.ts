import { callUnary } from '@ipdata/common';
import type { ContentServiceClient, Sender } from '@ipdata/proto/content/v1/content';
import type { SiteContent } from '../../content/site-content.ports.js';

/**
 * The content service over gRPC (mutual TLS as `bff-cn`; content's access policy allows bff-cn
 * every method). callUnary maps its statuses to DomainErrors: INVALID_ARGUMENT carries content's
 * Chinese message, which the envelope shows as the call's msg.
 */
export class GrpcSiteContent implements SiteContent {
  constructor(
    private readonly client: ContentServiceClient,
    private readonly deadlineMs: number,
  ) {}

  private options() {
    return { deadline: Date.now() + this.deadlineMs };
  }

  listNews(product: string, page: number, pageSize: number) {
    return callUnary(this.client.listNews.bind(this.client), { product, page, pageSize }, undefined, this.options());
  }

  getNews(id: string) {
    return callUnary(this.client.getNews.bind(this.client), { id }, undefined, this.options());
  }

  async recommendNews(product: string, excludeId: string, limit: number) {
    const request = { product, excludeId, limit };
    return (await callUnary(this.client.recommendNews.bind(this.client), request, undefined, this.options())).items;
  }

  async listNotices(limit: number) {
    return (await callUnary(this.client.listNotices.bind(this.client), { limit }, undefined, this.options())).notices;
  }

  getContacts() {
    return callUnary(this.client.getContacts.bind(this.client), {}, undefined, this.options());
  }

  async submitCooperation(
    sender: Sender,
    form: { name: string; company: string; phone: string; email: string; message: string },
  ) {
    const request = { sender, ...form };
    return (await callUnary(this.client.submitCooperation.bind(this.client), request, undefined, this.options())).submission;
  }

  async submitFeedback(sender: Sender, form: { category: string; content: string; contact: string; page: string }) {
    const request = { sender, ...form };
    return (await callUnary(this.client.submitFeedback.bind(this.client), request, undefined, this.options())).submission;
  }

  async reportIpError(
    sender: Sender,
    form: { ip: string; country: string; province: string; city: string; isp: string; comment: string; contact: string },
  ) {
    const request = { sender, ...form };
    return (await callUnary(this.client.reportIpError.bind(this.client), request, undefined, this.options())).submission;
  }

  async reportPosition(
    sender: Sender,
    form: { ip: string; latitude: number; longitude: number; accuracyM: number; address: string },
  ) {
    const request = { sender, ...form };
    return (await callUnary(this.client.reportPosition.bind(this.client), request, undefined, this.options())).submission;
  }

  async unreadCount(accountId: string): Promise<number> {
    const request = { accountId };
    return (await callUnary(this.client.getUnreadCount.bind(this.client), request, undefined, this.options())).unread;
  }
}
