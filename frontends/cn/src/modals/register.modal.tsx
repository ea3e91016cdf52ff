import { useState, type FormEvent } from 'react';
import { useUserRegisMutation } from '../api/face-a.api.js';
import { modalHidden, modalShown } from '../store/app.slice.js';
import { useAppDispatch } from '../store/hooks.js';
import { signedIn } from '../store/session.thunks.js';
import { showToast } from '@ipdata/web-kit/toast';
import { MSG, SmsCodeField, TextField, validPhone } from './account-fields.js';
import { Modal } from './modal.js';

export const REGISTER_DONE = '注册成功';

/** Registration by phone: SMS code, password twice; signed in on success. */
export function RegisterModal() {
  const dispatch = useAppDispatch();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [register, state] = useUserRegisMutation();

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
    const answer = await register({ phone: phone.trim(), code: code.trim(), password });
    if (!answer.data) return;
    await dispatch(signedIn(answer.data));
    dispatch(modalHidden('register'));
    dispatch(showToast('success', REGISTER_DONE));
  };

  return (
    <Modal name="register" title="注册">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField label="手机号" type="tel" value={phone} onChange={setPhone} autoComplete="tel" error={errors['phone']} />
        <SmsCodeField
          phone={phone}
          purpose="register"
          value={code}
          onChange={setCode}
          error={errors['code']}
          onPhoneInvalid={() => setErrors({ phone: MSG.badPhone })}
        />
        <TextField
          label="密码"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
          error={errors['password']}
        />
        <TextField
          label="确认密码"
          type="password"
          value={confirm}
          onChange={setConfirm}
          autoComplete="new-password"
          error={errors['confirm']}
        />
        <button type="submit" disabled={state.isLoading}>
          注册并登录
        </button>
      </form>
      <div className="modal-links">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            dispatch(modalHidden('register'));
            dispatch(modalShown('login'));
          }}
        >
          已有账号？去登录
        </button>
      </div>
    </Modal>
  );
}
