import type { BaseQueryApi } from '@reduxjs/toolkit/query';

/** What RTK Query hands a base query, around a real store (the apps' base-query tests). */
export function baseQueryApi(
  store: { dispatch: BaseQueryApi['dispatch']; getState: () => unknown },
  signal = new AbortController().signal,
): BaseQueryApi {
  return {
    signal,
    abort: () => undefined,
    dispatch: store.dispatch,
    getState: () => store.getState(),
    extra: undefined,
    endpoint: 'test',
    type: 'query',
  };
}
