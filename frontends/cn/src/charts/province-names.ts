/** bff-cn names provinces in full (广东省, 内蒙古自治区); the China map uses short names (广东, 内蒙古). */
export function shortProvinceName(name: string): string {
  return name.replace(/(壮族|回族|维吾尔)?自治区$|特别行政区$|省$|市$/u, '');
}
