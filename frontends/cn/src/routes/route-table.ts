import type { ComponentType } from 'react';

export type LayoutName = 'default' | 'simple';

/** A page module's loader: named exports only, so each entry says which export is the page. */
export type PageLoader = () => Promise<ComponentType>;

export interface RouteEntry {
  /** react-router path; `:id` is a route parameter */
  path: string;
  title: string;
  layout: LayoutName;
  /** route middleware names, run in order before the page renders (see middleware.ts) */
  middleware: string[];
  /** the page, loaded on first visit (one chunk per route); absent until the page is built */
  page?: PageLoader;
}

// Every face A path of spec section 2. Entries without `page` are not routed yet (the page does
// not exist): they answer the 404 page like any unknown path, rather than a placeholder.
export const ROUTES: readonly RouteEntry[] = [
  {
    path: '/',
    title: '首页',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/home.page.js').then((m) => m.HomePage),
  },
  {
    path: '/ip',
    title: 'IP 查询',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/lookup/ip-lookup.page.js').then((m) => m.IpLookupPage),
  },
  {
    path: '/chaxun',
    title: '查询',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/query.page.js').then((m) => m.QueryPage),
  },
  {
    path: '/piliang',
    title: '批量查询',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/lookup/batch.page.js').then((m) => m.BatchPage),
  },
  {
    path: '/yuming',
    title: '域名查询',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/domain.page.js').then((m) => m.DomainPage),
  },
  {
    path: '/asncorrespondence',
    title: 'ASN 对应关系',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/asn.page.js').then((m) => m.AsnPage),
  },
  {
    path: '/asncorrespondence/detail',
    title: 'ASN 详情',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/asn-detail.page.js').then((m) => m.AsnDetailPage),
  },
  {
    path: '/datasupport/chinaip',
    title: '中国各省 IP 数据',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/data/china-ip.page.js').then((m) => m.ChinaIpPage),
  },
  {
    path: '/datasupport/globalip',
    title: '全球 IP 数据',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/data/global-ip.page.js').then((m) => m.GlobalIpPage),
  },
  {
    path: '/idccompany',
    title: 'IDC 公司',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/data/idc-company.page.js').then((m) => m.IdcCompanyPage),
  },
  {
    path: '/ipconvert',
    title: 'IP 地址格式转换',
    layout: 'default',
    middleware: [],
    page: () => import('../tools/ip-convert.page.js').then((m) => m.IpConvertPage),
  },
  {
    path: '/ipv4andlong',
    title: 'IPv4 与长整数互转',
    layout: 'default',
    middleware: [],
    page: () => import('../tools/ipv4-long.page.js').then((m) => m.Ipv4LongPage),
  },
  {
    path: '/ipv4calculator',
    title: 'IPv4 子网计算器',
    layout: 'default',
    middleware: [],
    page: () => import('../tools/ipv4-calculator.page.js').then((m) => m.Ipv4CalculatorPage),
  },
  {
    path: '/maskconverter',
    title: '子网掩码转换',
    layout: 'default',
    middleware: [],
    page: () => import('../tools/mask-converter.page.js').then((m) => m.MaskConverterPage),
  },
  {
    path: '/netmaskinverse',
    title: '反掩码计算',
    layout: 'default',
    middleware: [],
    page: () => import('../tools/netmask-inverse.page.js').then((m) => m.NetmaskInversePage),
  },
  {
    path: '/networkcalculator',
    title: '网络计算器',
    layout: 'default',
    middleware: [],
    page: () => import('../tools/network-calculator.page.js').then((m) => m.NetworkCalculatorPage),
  },
  {
    path: '/ipreport',
    title: 'IP 报告',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/lookup/report.page.js').then((m) => m.ReportPage),
  },
  {
    path: '/ipreport/detail',
    title: 'IP 报告详情',
    // The simple layout: a report reads (and prints) without the site's navigation around it.
    layout: 'simple',
    middleware: [],
    page: () => import('../pages/lookup/report-detail.page.js').then((m) => m.ReportDetailPage),
  },
  {
    path: '/networkdetection',
    title: '网络检测',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/lookup/traceroute.page.js').then((m) => m.TraceroutePage),
  },
  {
    path: '/news',
    title: '资讯',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/news.page.js').then((m) => m.NewsPage),
  },
  {
    path: '/newsip66/:id',
    title: '资讯详情',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/news-article.page.js').then((m) => m.NewsArticlePage),
  },
  {
    path: '/onlineapi',
    title: '在线 API',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/online-api.page.js').then((m) => m.OnlineApiPage),
  },
  {
    path: '/tool',
    title: '工具',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/tools.page.js').then((m) => m.ToolsPage),
  },
  {
    path: '/vip',
    title: 'VIP',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/vip.page.js').then((m) => m.VipPage),
  },
  {
    path: '/visualizeip',
    title: 'IP 可视化',
    layout: 'default',
    middleware: [],
    page: () => import('../pages/more/visualize.page.js').then((m) => m.VisualizePage),
  },
];

export const NOT_FOUND_MESSAGE = (path: string): string => `Page not found: ${path}`;
