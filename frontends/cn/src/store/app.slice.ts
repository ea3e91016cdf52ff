import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Contacts, IpView, WebInit } from '../api/face-a.types.js';
import { EMPTY_CONTACTS, contactNamesByValue, parseContacts } from './contacts.js';

/** The modals of spec section 2. */
export const MODALS = ['login', 'register', 'forgot', 'pay', 'feedback', 'info', 'test'] as const;
export type ModalName = (typeof MODALS)[number];

/** The login modal's menu: 1 password, 2 SMS code. It starts at 1 and returns there on close. */
export const LOGIN_MENU_PASSWORD = 1;
export const LOGIN_MENU_SMS = 2;

export interface AppState {
  initData: WebInit | null;
  ipSelf: IpView | null;
  /** Contact data (spec section 3), decoded from web_init's JSON strings. */
  userData: Contacts;
  reg_type: string;
  modals: Record<ModalName, boolean>;
  loginMenu: number;
}

const closedModals = Object.fromEntries(MODALS.map((name) => [name, false])) as Record<ModalName, boolean>;

export const initialAppState: AppState = {
  initData: null,
  ipSelf: null,
  userData: EMPTY_CONTACTS,
  reg_type: '',
  modals: closedModals,
  loginMenu: LOGIN_MENU_PASSWORD,
};

export const appSlice = createSlice({
  name: 'app',
  initialState: initialAppState,
  reducers: {
    initDataSet(state, action: PayloadAction<WebInit>) {
      state.initData = action.payload;
      state.userData = parseContacts(action.payload);
    },
    ipSelfSet(state, action: PayloadAction<IpView>) {
      state.ipSelf = action.payload;
    },
    regTypeSet(state, action: PayloadAction<string>) {
      state.reg_type = action.payload;
    },
    modalShown(state, action: PayloadAction<ModalName>) {
      state.modals[action.payload] = true;
    },
    modalHidden(state, action: PayloadAction<ModalName>) {
      state.modals[action.payload] = false;
      if (action.payload === 'login') state.loginMenu = LOGIN_MENU_PASSWORD;
    },
    loginMenuSet(state, action: PayloadAction<number>) {
      state.loginMenu = action.payload;
    },
  },
  selectors: {
    selectInitData: (state) => state.initData,
    selectIpSelf: (state) => state.ipSelf,
    selectContacts: (state) => state.userData,
    selectModalOpen: (state, name: ModalName) => state.modals[name],
    selectLoginMenu: (state) => state.loginMenu,
    selectContactNames: (state, value: string) => contactNamesByValue(state.userData, value),
  },
});

export const { initDataSet, ipSelfSet, regTypeSet, modalShown, modalHidden, loginMenuSet } = appSlice.actions;
export const { selectInitData, selectIpSelf, selectContacts, selectModalOpen, selectLoginMenu, selectContactNames } =
  appSlice.selectors;
