import { useEffect, useState } from 'react';
import type { SmsCodeType } from '../api/face-a.api.js';
import { useSendSmsCodeMutation } from '../api/face-a.api.js';

export const MSG = {
  badPhone: '请输入正确的手机号',
  noPassword: '请输入密码',
  shortPassword: '密码至少 8 位',
  noCode: '请输入短信验证码',
  mismatch: '两次输入的密码不一致',
} as const;

/** Mainland China mobile numbers, as bff-cn accepts them. */
export function validPhone(phone: string): boolean {
  return /^1[3-9]\d{9}$/.test(phone.trim());
}

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'tel' | 'password';
  autoComplete?: string;
  error?: string | null;
}

export function TextField({ label, value, onChange, type = 'text', autoComplete, error }: TextFieldProps) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
      />
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}

interface SmsCodeFieldProps {
  phone: string;
  purpose: SmsCodeType;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  onPhoneInvalid: () => void;
}

/** The code box and its send button, which counts down the server's resend wait. */
export function SmsCodeField({ phone, purpose, value, onChange, error, onPhoneInvalid }: SmsCodeFieldProps) {
  const [send, sending] = useSendSmsCodeMutation();
  const [wait, setWait] = useState(0);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1_000);
    return () => clearTimeout(timer);
  }, [wait]);

  const sendCode = async () => {
    if (!validPhone(phone)) return onPhoneInvalid();
    const sent = await send({ phone: phone.trim(), type: purpose });
    if (sent.data) setWait(sent.data.resend_after_seconds);
  };

  return (
    <div className="field">
      <label htmlFor={`sms-${purpose}`}>短信验证码</label>
      <div className="code-row">
        <input
          id={`sms-${purpose}`}
          value={value}
          inputMode="numeric"
          autoComplete="one-time-code"
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
        />
        <button
          type="button"
          className="button-secondary"
          disabled={sending.isLoading || wait > 0}
          onClick={() => void sendCode()}
        >
          {wait > 0 ? `${wait} 秒后重发` : '获取验证码'}
        </button>
      </div>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}
