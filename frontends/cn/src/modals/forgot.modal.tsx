import { useState, type FormEvent } from 'react';
import { modalHidden, modalShown } from '../store/app.slice.js';
import { useAppDispatch } from '../store/hooks.js';
import { showToast } from '@ipdata/web-kit/toast';
import { MSG, SmsCodeField, TextField, validPhone } from './account-fields.js';
import { useResetPasswordMutation } from './account.api.js';
import { Modal } from './modal.js';

export const RESET_DONE = '密码已重置，请重新登录';

/** Forgotten password: a new one set with an SMS code; every session ends, so the login modal follows. */
export function ForgotModal() {
  const dispatch = useAppDispatch();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [reset, state] = useResetPasswordMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      phone: validPhone(phone) ? null : MSG.badPhone,
      code: code.trim() ? null : MSG.noCode,
      password: password.length >= 8 ? null : MSG.shortPassword,
      confirm: confirm === password ? null : MSG.mismatch,
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const answer = await reset({ phone: phone.trim(), code: code.trim(), password, password_confirmation: confirm });
    if ('error' in answer) return;
    dispatch(modalHidden('forgot'));
    dispatch(showToast('success', RESET_DONE));
    dispatch(modalShown('login'));
  };

  return (
    <Modal name="forgot" title="找回密码">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField label="手机号" type="tel" value={phone} onChange={setPhone} autoComplete="tel" error={errors['phone']} />
        <SmsCodeField
          phone={phone}
          purpose="reset_password"
          value={code}
          onChange={setCode}
          error={errors['code']}
          onPhoneInvalid={() => setErrors({ phone: MSG.badPhone })}
        />
        <TextField
          label="新密码"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          error={errors['password']}
        />
        <TextField
          label="确认新密码"
          type="password"
          value={confirm}
          onChange={setConfirm}
          autoComplete="new-password"
          error={errors['confirm']}
        />
        <button type="submit" disabled={state.isLoading}>
          重置密码
        </button>
      </form>
    </Modal>
  );
}
