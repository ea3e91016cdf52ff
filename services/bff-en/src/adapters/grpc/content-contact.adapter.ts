import { callUnary } from '@ipdata/common';
import type { ContentServiceClient } from '@ipdata/proto/content/v1/content';
import type { ContactForm, ContactMessage } from '../../web-api/web-api.ports.js';

/** Content's SubmitContact: face B's contact form. */
export class GrpcContactForm implements ContactForm {
  constructor(
    private readonly client: ContentServiceClient,
    private readonly deadlineMs = 5_000,
  ) {}

  async submit(message: ContactMessage): Promise<{ id: string; receivedAt: Date }> {
    const { accountId, visitorId, clientIp, ...form } = message;
    const options = { deadline: Date.now() + this.deadlineMs };
    const { submission } = await callUnary(
      this.client.submitContact.bind(this.client),
      { ...form, sender: { accountId, visitorId, clientIp, plat: '' } },
      undefined,
      options,
    );
    if (submission === undefined || submission.receivedAt === undefined)
      throw new Error('content answered SubmitContact without the submission');
    return { id: submission.id, receivedAt: submission.receivedAt };
  }
}
