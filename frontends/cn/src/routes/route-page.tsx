import { Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { modalShown } from '../store/app.slice.js';
import { useAppDispatch, useAppSelector } from '../store/hooks.js';
import { resolveMiddleware } from './middleware.js';
import type { RouteEntry } from './route-table.js';

export const SITE_NAME = 'IP 查询';
export const LOGIN_REQUIRED = '请先登录后查看此页面';

interface RoutePageProps {
  entry: RouteEntry;
  Page: LazyExoticComponent<ComponentType>;
}

/** One routed page: its middleware first (an unknown name throws to the error page), then the lazy page. */
export function RoutePage({ entry, Page }: RoutePageProps) {
  const dispatch = useAppDispatch();
  const middleware = entry.middleware.map(resolveMiddleware);
  const denied = useAppSelector((state) => middleware.find((m) => !m.allows(state)));

  useEffect(() => {
    document.title = `${entry.title} - ${SITE_NAME}`;
  }, [entry.title]);
  useEffect(() => {
    denied?.deny(dispatch);
  }, [denied, dispatch]);

  if (denied) {
    return (
      <section className="page">
        <p>{LOGIN_REQUIRED}</p>
        <button type="button" onClick={() => dispatch(modalShown('login'))}>
          登录
        </button>
      </section>
    );
  }
  return (
    <Suspense fallback={<p className="page loading">加载中…</p>}>
      <Page />
    </Suspense>
  );
}
