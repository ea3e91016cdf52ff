import type { Logger } from 'pino';
import { unary, type GrpcServer } from '@ipdata/common';
import {
  ContentServiceService,
  type ContentServiceServer,
  type NewsSummary as NewsSummaryMessage,
} from '@ipdata/proto/content/v1/content';
import type { Contacts } from '../../contacts/contacts.js';
import type { Messages } from '../../messages/messages.js';
import type { News, NewsSummary } from '../../news/news.js';
import type { Notices } from '../../notices/notices.js';
import type { Submissions } from '../../submissions/submissions.js';

export const CONTENT_SERVICE_NAME = 'ipdata.content.v1.ContentService';

export interface ContentHandlerDeps {
  news: News;
  notices: Notices;
  contacts: Contacts;
  submissions: Submissions;
  messages: Messages;
}

function summaryMessage(summary: NewsSummary): NewsSummaryMessage {
  return { ...summary, tags: [...summary.tags] };
}

function submitted(saved: { id: string; receivedAt: Date }) {
  return { submission: { id: saved.id, receivedAt: saved.receivedAt } };
}

/** Thin gRPC handlers: messages in, domain calls, messages out; errors are mapped by unary(). */
export function addContentService(server: GrpcServer, deps: ContentHandlerDeps, logger: Logger): void {
  const implementation: ContentServiceServer = {
    listNews: unary(logger, 'ListNews', async (request) => {
      const page = await deps.news.list(request);
      return { items: page.items.map(summaryMessage), total: page.total };
    }),
    getNews: unary(logger, 'GetNews', async (request) => {
      const { article, previous, next } = await deps.news.get(request);
      return {
        summary: summaryMessage(article),
        bodyHtml: article.bodyHtml,
        author: article.author,
        previous: previous ? summaryMessage(previous) : undefined,
        next: next ? summaryMessage(next) : undefined,
      };
    }),
    recommendNews: unary(logger, 'RecommendNews', async (request) => ({
      items: (await deps.news.recommend(request)).map(summaryMessage),
    })),
    listNotices: unary(logger, 'ListNotices', async (request) => ({
      notices: (await deps.notices.list(request)).map(({ isSample: _sample, ...notice }) => notice),
    })),
    getContacts: unary(logger, 'GetContacts', () => {
      const { lists } = deps.contacts;
      return Promise.resolve({
        phone: [...lists.phone],
        email: [...lists.email],
        qq: [...lists.qq],
        qqCode: [...lists.qq_code],
        wxCode: [...lists.wx_code],
      });
    }),
    submitCooperation: unary(logger, 'SubmitCooperation', async (request) =>
      submitted(await deps.submissions.cooperation(request)),
    ),
    submitFeedback: unary(logger, 'SubmitFeedback', async (request) => submitted(await deps.submissions.feedback(request))),
    submitContact: unary(logger, 'SubmitContact', async (request) => submitted(await deps.submissions.contact(request))),
    reportIpError: unary(logger, 'ReportIpError', async (request) => submitted(await deps.submissions.ipError(request))),
    reportPosition: unary(logger, 'ReportPosition', async (request) => submitted(await deps.submissions.position(request))),
    listMessages: unary(logger, 'ListMessages', async (request) => {
      const page = await deps.messages.list(request);
      return {
        messages: page.messages.map((message) => ({
          id: message.id,
          title: message.title,
          body: message.body,
          createdAt: message.createdAt,
          read: message.read,
          kind: message.kind,
        })),
        total: page.total,
        unread: page.unread,
      };
    }),
    getUnreadCount: unary(logger, 'GetUnreadCount', async (request) => ({ unread: await deps.messages.unread(request) })),
    markMessagesRead: unary(logger, 'MarkMessagesRead', async (request) => ({ unread: await deps.messages.markRead(request) })),
  };
  server.addService(CONTENT_SERVICE_NAME, ContentServiceService, implementation);
}
