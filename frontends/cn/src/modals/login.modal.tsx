import { useState, type FormEvent } from 'react';
import { usePhoneLoginMutation, useUserLoginPhoneCodeMutation } from '../api/face-a.api.js';
import {
  LOGIN_MENU_PASSWORD,
  LOGIN_MENU_SMS,
  loginMenuSet,
  modalHidden,
  modalShown,
  selectLoginMenu,
} from '../store/app.slice.js';
import { useAppDispatch, useAppSelector } from '../store/hooks.js';
import { signedIn } from '../store/session.thunks.js';
import { showToast } from '@ipdata/web-kit/toast';
import { MSG, SmsCodeField, TextField, validPhone } from './account-fields.js';
import { Modal } from './modal.js';

export const LOGIN_DONE = '登录成功';

/** Login: menu 1 phone + password, menu 2 phone + SMS code (the menu returns to 1 when the modal closes). */
export function LoginModal() {
  const dispatch = useAppDispatch();
  const menu = useAppSelector(selectLoginMenu);
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [byPassword, passwordState] = usePhoneLoginMutation();
  const [byCode, codeState] = useUserLoginPhoneCodeMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      phone: validPhone(phone) ? null : MSG.badPhone,
      secret: menu === LOGIN_MENU_PASSWORD ? (password ? null : MSG.noPassword) : code.trim() ? null : MSG.noCode,
    };
    setErrors(found);
    if (found.phone || found.secret) return;
    const answer =
      menu === LOGIN_MENU_PASSWORD
        ? await byPassword({ phone: phone.trim(), password, remember })
        : await byCode({ phone: phone.trim(), code: code.trim(), remember });
    if (!answer.data) return;
    await dispatch(signedIn(answer.data));
    dispatch(modalHidden('login'));
    dispatch(showToast('success', LOGIN_DONE));
  };

  const tab = (index: number, label: string) => (
    <button type="button" role="tab" aria-selected={menu === index} onClick={() => dispatch(loginMenuSet(index))}>
      {label}
    </button>
  );
  return (
    <Modal name="login" title="登录">
      <div className="modal-tabs" role="tablist" aria-label="登录方式">
        {tab(LOGIN_MENU_PASSWORD, '密码登录')}
        {tab(LOGIN_MENU_SMS, '验证码登录')}
      </div>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField label="手机号" type="tel" value={phone} onChange={setPhone} autoComplete="tel" error={errors['phone']} />
        {menu === LOGIN_MENU_PASSWORD ? (
          <TextField
            label="密码"
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            error={errors['secret']}
          />
        ) : (
          <SmsCodeField
            phone={phone}
            purpose="login"
            value={code}
            onChange={setCode}
            error={errors['secret']}
            onPhoneInvalid={() => setErrors({ phone: MSG.badPhone })}
          />
        )}
        <label className="checkbox">
          <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
          30 天内自动登录
        </label>
        <button type="submit" disabled={passwordState.isLoading || codeState.isLoading}>
          登录
        </button>
      </form>
      <div className="modal-links">
        <button type="button" className="link-button" onClick={() => switchTo(dispatch, 'register')}>
          注册账号
        </button>
        <button type="button" className="link-button" onClick={() => switchTo(dispatch, 'forgot')}>
          忘记密码
        </button>
      </div>
    </Modal>
  );
}

function switchTo(dispatch: ReturnType<typeof useAppDispatch>, modal: 'register' | 'forgot' | 'login') {
  dispatch(modalHidden('login'));
  dispatch(modalShown(modal));
}
