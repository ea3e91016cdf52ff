/** Header links: the main pages (the tools index and the home page link the rest). */
export const NAV_LINKS = [
  { to: '/', label: '首页' },
  { to: '/ip', label: 'IP 查询' },
  { to: '/piliang', label: '批量查询' },
  { to: '/ipreport', label: 'IP 报告' },
  { to: '/networkdetection', label: '网络检测' },
  { to: '/datasupport/chinaip', label: '中国 IP 数据' },
  { to: '/datasupport/globalip', label: '全球 IP 数据' },
  { to: '/idccompany', label: 'IDC 公司' },
  { to: '/ipv4calculator', label: '子网计算' },
] as const;

/** The six calculators and converters (spec section 2), all computed in the browser. */
export const TOOL_LINKS = [
  { to: '/ipconvert', label: 'IP 地址格式转换', text: 'IPv4 / IPv6 与十进制、十六进制、二进制互转' },
  { to: '/ipv4andlong', label: 'IPv4 与长整数互转', text: 'IPv4 地址与 32 位整数互转' },
  { to: '/ipv4calculator', label: 'IPv4 子网计算器', text: '网络地址、广播地址、可用主机范围' },
  { to: '/maskconverter', label: '子网掩码转换', text: '掩码与前缀长度互转（IPv4 / IPv6）' },
  { to: '/netmaskinverse', label: '反掩码计算', text: '子网掩码与反掩码（通配符掩码）互转' },
  { to: '/networkcalculator', label: '网络计算器', text: 'CIDR 网段范围、地址数量、包含判断（IPv4 / IPv6）' },
] as const;
