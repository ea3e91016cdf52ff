import { callUnary } from '@ipdata/common';
import type { ContentServiceClient } from '@ipdata/proto/content/v1/content';
import type { UnreadCounts } from '../../web-api/web-api.ports.js';

/** Content's unread message count (the user centre's badge). */
export class GrpcUnreadCounts implements UnreadCounts {
  constructor(
    private readonly client: ContentServiceClient,
    private readonly deadlineMs = 1_000,
  ) {}

  async unread(accountId: string): Promise<number> {
    const options = { deadline: Date.now() + this.deadlineMs };
    return (await callUnary(this.client.getUnreadCount.bind(this.client), { accountId }, undefined, options)).unread;
  }
}
