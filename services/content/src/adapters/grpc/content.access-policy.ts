import { defineAccessPolicy, type GrpcIdentity } from '@ipdata/common';
import { ContentServiceService } from '@ipdata/proto/content/v1/content';

const BFFS: readonly GrpcIdentity[] = ['bff-cn', 'bff-en'];
const READERS: readonly GrpcIdentity[] = [...BFFS, 'operator'];
/** Face B's own forms. */
const FACE_B: readonly GrpcIdentity[] = ['bff-en'];

/**
 * Who may call content (identity = client certificate CN, see services/common/README.md "gRPC").
 * The BFFs serve the sites, so they may call every method; operators may read (news, notices,
 * contacts, an account's messages) but not submit, nor mark an account's messages read. The
 * contact form is face B's, so only bff-en submits it.
 */
export const contentAccessPolicy = defineAccessPolicy(ContentServiceService, {
  listNews: READERS,
  getNews: READERS,
  recommendNews: READERS,
  listNotices: READERS,
  getContacts: READERS,
  submitCooperation: BFFS,
  submitFeedback: BFFS,
  submitContact: FACE_B,
  reportIpError: BFFS,
  reportPosition: BFFS,
  listMessages: READERS,
  getUnreadCount: READERS,
  markMessagesRead: BFFS,
});
