import { defineAccessPolicy, type GrpcIdentity } from '@ipdata/common';
import { AuthServiceService } from '@ipdata/proto/auth/v1/auth';

/**
 * Who may call auth (identity = client certificate CN, see services/common/README.md "gRPC").
 * Only the BFFs call it (auth.proto): face A (bff-cn) has phone accounts and partners, face B
 * (bff-en) email accounts and API keys (its public API resolves them); both faces have sessions
 * and profiles. No method is read-only for people (each one reads or changes an account, a
 * session or a key), so `operator` gets none: it sees health and reflection only.
 */
const BOTH_FACES: readonly GrpcIdentity[] = ['bff-cn', 'bff-en'];
const FACE_A: readonly GrpcIdentity[] = ['bff-cn'];
const FACE_B: readonly GrpcIdentity[] = ['bff-en'];

export const authAccessPolicy = defineAccessPolicy(AuthServiceService, {
  sendSmsCode: FACE_A,
  registerWithPhone: FACE_A,
  loginWithPhonePassword: FACE_A,
  loginWithPhoneCode: FACE_A,
  resetPasswordWithPhone: FACE_A,
  registerPartner: FACE_A,
  signUpWithEmail: FACE_B,
  confirmEmail: FACE_B,
  loginWithEmail: FACE_B,
  requestPasswordReset: FACE_B,
  resetPasswordWithToken: FACE_B,
  resolveSession: BOTH_FACES,
  logout: BOTH_FACES,
  getUser: BOTH_FACES,
  updateProfile: BOTH_FACES,
  changePassword: BOTH_FACES,
  createApiKey: FACE_B,
  listApiKeys: FACE_B,
  rotateApiKey: FACE_B,
  revokeApiKey: FACE_B,
  resolveApiKey: FACE_B,
});
