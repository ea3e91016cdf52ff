import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User, WebInit } from '../api/face-a.types.js';
import { initDataSet, loginMenuSet, modalHidden, modalShown, selectContactNames } from './app.slice.js';
import { logout } from './session.thunks.js';
import { createStore } from './store.js';
import { MAX_TOASTS, TOAST_DURATION_MS, showToast } from '@ipdata/web-kit/toast';
import { selectUserName, tokenSet, unreadSet, userSet } from './user.slice.js';

const USER: User = {
  id: 'u1',
  phone: '13800138000',
  name: '',
  display_name: '张三',
  channel: 'phone',
  auth: ['vip'],
  pay_service: [],
  partner: false,
  company_name: '',
  created_at: null,
};

afterEach(() => vi.useRealTimers());

describe('user state', () => {
  it('shows the phone as the user name; logout clears token, user and cookie and goes through the sign-out link', () => {
    const store = createStore();
    document.cookie = 'token=t1; path=/';
    store.dispatch(tokenSet('t1'));
    store.dispatch(userSet(USER));
    store.dispatch(unreadSet(4));
    expect(selectUserName(store.getState())).toBe('13800138000');
    expect(store.getState().user).toMatchObject({ channel: 'phone', auth: ['vip'], unread: 4 });

    const went: string[] = [];
    store.dispatch(logout((href) => went.push(href)));
    expect(store.getState().user).toEqual({ user: null, token: '', channel: '', unread: 0, auth: [] });
    expect(document.cookie).not.toContain('token=t1');
    expect(went).toEqual(['/']);
  });
});

describe('app state', () => {
  it('opens and closes modals; closing login resets its menu index to 1', () => {
    const store = createStore();
    store.dispatch(modalShown('login'));
    store.dispatch(loginMenuSet(2));
    store.dispatch(modalShown('pay'));
    expect(store.getState().app.modals).toMatchObject({ login: true, pay: true, register: false });
    store.dispatch(modalHidden('pay'));
    expect(store.getState().app.loginMenu).toBe(2);
    store.dispatch(modalHidden('login'));
    expect(store.getState().app.modals.login).toBe(false);
    expect(store.getState().app.loginMenu).toBe(1);
  });

  it('decodes web_init contact lists and looks a name up by value per kind', () => {
    const store = createStore();
    const init: WebInit = {
      site_name: 'IP 查询',
      phone: JSON.stringify([{ name: '销售热线', value: '400-000-0000' }]),
      email: JSON.stringify([{ name: '商务邮箱', value: 'biz@example.cn' }]),
      qq: JSON.stringify([{ name: '客服 QQ', value: '10001' }]),
      qq_code: 'not json',
      wx_code: JSON.stringify([{ name: '微信客服', value: '10001' }]),
      notices: [],
      news_products: [],
      plat: 'pc',
      server_time: '2025-01-01T00:00:00Z',
    };
    store.dispatch(initDataSet(init));
    expect(store.getState().app.userData.qq_code).toEqual([]);
    expect(store.getState().app.userData.phone).toEqual([{ name: '销售热线', value: '400-000-0000' }]);
    expect(selectContactNames(store.getState(), '10001')).toEqual({ qq: '客服 QQ', wx_code: '微信客服' });
    expect(selectContactNames(store.getState(), 'nothing')).toEqual({});
  });
});

describe('toasts', () => {
  it('close after 3 seconds', () => {
    vi.useFakeTimers();
    const store = createStore();
    store.dispatch(showToast('warning', '出错了'));
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(store.getState().toast.items.map((t) => t.text)).toEqual(['出错了']);
    vi.advanceTimersByTime(1);
    expect(store.getState().toast.items).toEqual([]);
  });

  it('stack at most 3, the oldest making room', () => {
    vi.useFakeTimers();
    const store = createStore();
    for (const text of ['一', '二', '三', '四']) store.dispatch(showToast('info', text));
    expect(MAX_TOASTS).toBe(3);
    expect(store.getState().toast.items.map((t) => t.text)).toEqual(['二', '三', '四']);
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    expect(store.getState().toast.items).toEqual([]);
  });
});
