import { callUnary } from '@ipdata/common';
import type { AuthServiceClient, SmsPurpose, User } from '@ipdata/proto/auth/v1/auth';
import type { FaceAAccounts, PartnerForm, SignedIn } from '../../accounts/accounts.ports.js';
import type { SessionResolver } from '../../face-a/face-a.dispatcher.js';

/**
 * Auth's face A methods and session resolution over gRPC (mutual TLS as `bff-cn`; auth's access
 * policy allows exactly these). callUnary turns auth's statuses back into DomainErrors, whose
 * Chinese messages the envelope shows.
 */
export class GrpcFaceAAccounts implements FaceAAccounts, SessionResolver {
  constructor(
    private readonly client: AuthServiceClient,
    private readonly deadlineMs: number,
  ) {}

  private options() {
    return { deadline: Date.now() + this.deadlineMs };
  }

  async resolve(token: string): Promise<{ accountId: string }> {
    const response = await callUnary(this.client.resolveSession.bind(this.client), { token }, undefined, this.options());
    return { accountId: response.accountId };
  }

  sendSmsCode(phone: string, purpose: SmsPurpose, clientIp: string) {
    return callUnary(this.client.sendSmsCode.bind(this.client), { phone, purpose, clientIp }, undefined, this.options());
  }

  loginWithPassword(phone: string, password: string, rememberMe: boolean, clientIp: string): Promise<SignedIn> {
    return callUnary(
      this.client.loginWithPhonePassword.bind(this.client),
      { phone, password, rememberMe, clientIp },
      undefined,
      this.options(),
    );
  }

  loginWithCode(phone: string, code: string, rememberMe: boolean, clientIp: string): Promise<SignedIn> {
    return callUnary(
      this.client.loginWithPhoneCode.bind(this.client),
      { phone, code, rememberMe, clientIp },
      undefined,
      this.options(),
    );
  }

  register(phone: string, code: string, password: string, clientIp: string): Promise<SignedIn> {
    return callUnary(
      this.client.registerWithPhone.bind(this.client),
      { phone, code, password, clientIp },
      undefined,
      this.options(),
    );
  }

  resetPassword(phone: string, code: string, password: string, confirmation: string, clientIp: string) {
    return callUnary(
      this.client.resetPasswordWithPhone.bind(this.client),
      { phone, code, password, passwordConfirmation: confirmation, clientIp },
      undefined,
      this.options(),
    );
  }

  registerPartner(form: PartnerForm, clientIp: string): Promise<SignedIn> {
    return callUnary(this.client.registerPartner.bind(this.client), { ...form, clientIp }, undefined, this.options());
  }

  async getUser(token: string): Promise<User | undefined> {
    return (await callUnary(this.client.getUser.bind(this.client), { token }, undefined, this.options())).user;
  }
}
