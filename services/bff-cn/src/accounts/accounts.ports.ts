import type { Session, SmsPurpose, User } from '@ipdata/proto/auth/v1/auth';

export interface SignedIn {
  user: User | undefined;
  session: Session | undefined;
  message: string;
}

/** Face A's account operations in auth (adapters/grpc/auth.adapter.ts); errors arrive as DomainErrors with Chinese messages. */
export interface FaceAAccounts {
  sendSmsCode(
    phone: string,
    purpose: SmsPurpose,
    clientIp: string,
  ): Promise<{ message: string; resendAfterSeconds: number; expiresInSeconds: number }>;
  loginWithPassword(phone: string, password: string, rememberMe: boolean, clientIp: string): Promise<SignedIn>;
  loginWithCode(phone: string, code: string, rememberMe: boolean, clientIp: string): Promise<SignedIn>;
  register(phone: string, code: string, password: string, clientIp: string): Promise<SignedIn>;
  resetPassword(
    phone: string,
    code: string,
    password: string,
    confirmation: string,
    clientIp: string,
  ): Promise<{ message: string }>;
  /** Face A's cooperation sign-up: a partner account (phone + SMS code + password) with its company. */
  registerPartner(form: PartnerForm, clientIp: string): Promise<SignedIn>;
  getUser(token: string): Promise<User | undefined>;
}

export interface PartnerForm {
  phone: string;
  code: string;
  password: string;
  companyName: string;
  contactName: string;
  email: string;
}
