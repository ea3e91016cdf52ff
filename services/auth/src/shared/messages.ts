/**
 * Every text a user may see. Face B texts are the spec's, word for word (section 5 and 8);
 * face A (phone) flows answer in Chinese, the language of face A. Every error also carries a
 * stable `reason`, so a BFF can reword without parsing text.
 */
export const MESSAGES = {
  // Face B (spec section 5 / 8).
  invalidEmail: 'Please enter the correct email address',
  missingPassword: 'Please enter your login password',
  passwordsDiffer: 'The two passwords do not match',
  mustAgreeTerms: 'Please agree to the Terms of Service and Privacy Policy',
  loginSucceeded: 'Login succeeded',
  profileSaved: 'Your new information has been saved',
  // Face B, our own wording where the spec shows none.
  passwordLength: 'The password must be 6 to 64 characters long',
  loginFailed: 'Incorrect account or password',
  emailTaken: 'This email address is already registered',
  emailNotConfirmed: 'Please confirm your email address first: click the link we emailed you',
  signUpConfirm:
    'We have sent a confirmation link to your email address. Please click it to activate your account; if you cannot find the email, check your spam folder.',
  emailConfirmed: 'Your email address has been confirmed. You can now log in.',
  resetMailSent: 'If this email address belongs to an account, we have sent it a link to reset the password.',
  passwordReset: 'Your password has been reset. Please log in with the new password.',
  linkInvalid: 'This link is invalid or has expired',
  currentPasswordWrong: 'The current password is incorrect',
  missingCurrentPassword: 'Please enter your current password',
  nameTooLong: 'The name must be at most 100 characters long',
  sessionInvalid: 'Your login has expired, please log in again',
  tooManyRequests: 'Too many requests, please try again later',
  // Face A (phone accounts).
  invalidPhone: '请输入正确的手机号',
  invalidCode: '请输入6位数字验证码',
  codeWrong: '验证码错误',
  codeExpired: '验证码已失效，请重新获取',
  codeBurned: '验证码错误次数过多，请重新获取',
  codeSent: '验证码已发送',
  codeTooSoon: '验证码发送过于频繁，请稍后再试',
  codeDailyLimit: '今日验证码发送次数已达上限',
  codeIpLimit: '请求过于频繁，请稍后再试',
  phonePasswordMissing: '请输入密码',
  phonePasswordLength: '密码长度为6到64位',
  phonePasswordsDiffer: '两次输入的密码不一致',
  phoneTaken: '该手机号已注册',
  phoneLoginFailed: '账号或密码错误',
  phoneCodeLoginFailed: '手机号或验证码错误',
  registered: '注册成功',
  phoneLoginSucceeded: '登录成功',
  phonePasswordReset: '密码重置成功，请重新登录',
  companyMissing: '请输入公司名称',
  contactMissing: '请输入联系人',
  partnerRegistered: '合作申请已提交，注册成功',
  purposeMissing: 'purpose must be one of register, login, reset_password, partner',
  apiKeyNotFound: 'API key not found',
  apiKeyInvalid: 'Invalid API key',
  apiKeyNameTooLong: 'The key name must be at most 60 characters long',
  apiKeyLimit: 'You can have at most 20 active API keys',
} as const;
