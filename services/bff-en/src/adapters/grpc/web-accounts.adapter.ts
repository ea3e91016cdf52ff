import { callUnary } from '@ipdata/common';
import type { AuthServiceClient, User } from '@ipdata/proto/auth/v1/auth';
import type { WebAccounts } from '../../web-api/web-api.ports.js';

/**
 * Auth's face B methods over gRPC (mutual TLS as `bff-en`; auth's access policy allows exactly
 * these). callUnary turns auth's statuses back into DomainErrors with their reason and details.
 */
export class GrpcWebAccounts implements WebAccounts {
  constructor(
    private readonly client: AuthServiceClient,
    // Sign-up and login wait for auth's password hashing (scrypt, queued when busy).
    private readonly deadlineMs = 5_000,
  ) {}

  private options() {
    return { deadline: Date.now() + this.deadlineMs };
  }

  async resolve(token: string) {
    const { accountId } = await callUnary(this.client.resolveSession.bind(this.client), { token }, undefined, this.options());
    return { accountId };
  }

  signUp(input: Parameters<WebAccounts['signUp']>[0]) {
    return callUnary(this.client.signUpWithEmail.bind(this.client), input, undefined, this.options());
  }

  confirmEmail(token: string) {
    return callUnary(this.client.confirmEmail.bind(this.client), { token }, undefined, this.options());
  }

  login(input: Parameters<WebAccounts['login']>[0]) {
    return callUnary(this.client.loginWithEmail.bind(this.client), input, undefined, this.options());
  }

  async logout(token: string) {
    await callUnary(this.client.logout.bind(this.client), { token }, undefined, this.options());
  }

  requestPasswordReset(email: string, clientIp: string) {
    return callUnary(this.client.requestPasswordReset.bind(this.client), { email, clientIp }, undefined, this.options());
  }

  resetPassword(input: Parameters<WebAccounts['resetPassword']>[0]) {
    return callUnary(this.client.resetPasswordWithToken.bind(this.client), input, undefined, this.options());
  }

  async user(token: string): Promise<User> {
    const { user } = await callUnary(this.client.getUser.bind(this.client), { token }, undefined, this.options());
    if (user === undefined) throw new Error('auth answered GetUser without a user');
    return user;
  }

  updateProfile(token: string, changes: { name?: string; companyName?: string }) {
    return callUnary(this.client.updateProfile.bind(this.client), { token, ...changes }, undefined, this.options());
  }

  changePassword(token: string, input: Parameters<WebAccounts['changePassword']>[1]) {
    return callUnary(this.client.changePassword.bind(this.client), { token, ...input }, undefined, this.options());
  }

  createKey(token: string, name: string) {
    return callUnary(this.client.createApiKey.bind(this.client), { token, name }, undefined, this.options());
  }

  async listKeys(token: string) {
    const request = { token, includeRevoked: false };
    return (await callUnary(this.client.listApiKeys.bind(this.client), request, undefined, this.options())).apiKeys;
  }

  rotateKey(token: string, keyId: string) {
    return callUnary(this.client.rotateApiKey.bind(this.client), { token, keyId }, undefined, this.options());
  }

  async revokeKey(token: string, keyId: string) {
    return (await callUnary(this.client.revokeApiKey.bind(this.client), { token, keyId }, undefined, this.options())).apiKey;
  }
}
