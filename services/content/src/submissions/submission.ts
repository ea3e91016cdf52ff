import { canonicalIp } from '@ipdata/common/ip';
import { checkAccountId, checkText, invalid } from '../shared/input.js';

export type SubmissionKind = 'feedback' | 'ip_error' | 'position' | 'cooperation' | 'contact';

export interface SenderInput {
  accountId?: string;
  visitorId?: string;
  clientIp?: string;
  plat?: string;
}

export interface Sender {
  accountId: string;
  visitorId: string;
  clientIp: string;
  plat: 'pc' | 'wap';
}

/** A checked submission as stored and published (FeedbackReceived): text plus the kind's structured fields. */
export interface Submission {
  id: string;
  kind: SubmissionKind;
  sender: Sender;
  /** The address a report is about ('' for feedback and cooperation). */
  ip: string;
  /** The free text (feedback content, comment, cooperation message, contact description). */
  text: string;
  /** Structured fields, strings only, empty values left out. */
  fields: Record<string, string>;
  receivedAt: Date;
}

export type SubmissionDraft = Omit<Submission, 'id' | 'receivedAt'>;

export function checkSender(input: SenderInput | undefined): Sender {
  const sender = input ?? {};
  const clientIp = sender.clientIp ?? '';
  const canonical = clientIp === '' ? undefined : canonicalIp(clientIp);
  if (clientIp !== '' && canonical === undefined) throw invalid('访问者地址格式不正确', 'sender.client_ip');
  const plat = sender.plat ?? '';
  if (plat !== '' && plat !== 'pc' && plat !== 'wap') throw invalid('平台标识只能是 pc 或 wap', 'sender.plat');
  return {
    accountId: checkAccountId(sender.accountId, { required: false }),
    visitorId: checkText('sender.visitor_id', sender.visitorId, { label: '访客标识', max: 128 }),
    clientIp: canonical?.text ?? '',
    plat: plat === 'wap' ? 'wap' : 'pc',
  };
}

/** The one IP parser of the project (@ipdata/common/ip); stored in canonical form. */
export function checkReportedIp(value: string | undefined): string {
  const text = (value ?? '').trim();
  if (text === '') throw invalid('请填写 IP 地址', 'ip');
  const ip = canonicalIp(text);
  if (!ip) throw invalid('IP 地址格式不正确', 'ip');
  return ip.text;
}

function withoutEmpty(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
}

const PHONE = /^\+?[0-9][0-9 -]{4,29}$/;
const EMAIL = /^[^\s@"<>]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,}$/;

export function cooperationDraft(request: {
  sender?: SenderInput;
  name?: string;
  company?: string;
  phone?: string;
  email?: string;
  message?: string;
}): SubmissionDraft {
  const sender = checkSender(request.sender);
  const name = checkText('name', request.name, { label: '联系人姓名', max: 50, required: true });
  const company = checkText('company', request.company, { label: '公司名称', max: 100, required: true });
  const phone = checkText('phone', request.phone, { label: '联系电话', max: 30 });
  const email = checkText('email', request.email, { label: '电子邮箱', max: 254 });
  const message = checkText('message', request.message, { label: '合作说明', max: 2000, multiline: true });
  if (phone === '' && email === '') throw invalid('请至少填写联系电话或电子邮箱', 'phone');
  if (phone !== '' && !PHONE.test(phone)) throw invalid('联系电话格式不正确', 'phone');
  if (email !== '' && !EMAIL.test(email)) throw invalid('电子邮箱格式不正确', 'email');
  return { kind: 'cooperation', sender, ip: '', text: message, fields: withoutEmpty({ name, company, phone, email }) };
}

export function feedbackDraft(request: {
  sender?: SenderInput;
  category?: string;
  content?: string;
  contact?: string;
  page?: string;
}): SubmissionDraft {
  const sender = checkSender(request.sender);
  const content = checkText('content', request.content, { label: '反馈内容', max: 2000, required: true, multiline: true });
  const category = checkText('category', request.category, { label: '反馈类型', max: 20 });
  const contact = checkText('contact', request.contact, { label: '联系方式', max: 100 });
  const page = checkText('page', request.page, { label: '页面地址', max: 500 });
  return { kind: 'feedback', sender, ip: '', text: content, fields: withoutEmpty({ category, contact, page }) };
}

/** Face B's contact form categories, as the form (and bff-en's /api/init) names them. */
export const CONTACT_CATEGORIES = ['Custom plans', 'Support', 'Feedback'] as const;
export type ContactCategory = (typeof CONTACT_CATEGORIES)[number];

const isContactCategory = (value: string): value is ContactCategory => (CONTACT_CATEGORIES as readonly string[]).includes(value);

/** Face B's contact form; English messages (the spec's for a bad address). */
export function contactDraft(request: {
  sender?: SenderInput;
  name?: string;
  email?: string;
  description?: string;
  category?: string;
}): SubmissionDraft {
  const sender = checkSender(request.sender);
  const name = checkText('name', request.name, { label: 'your name', max: 100, required: true, english: true });
  const email = checkText('email', request.email, { label: 'your email address', max: 254, required: true, english: true });
  if (!EMAIL.test(email)) throw invalid('Please enter the correct email address', 'email');
  const description = checkText('description', request.description, {
    label: 'the description',
    max: 2000,
    required: true,
    multiline: true,
    english: true,
  });
  const category = (request.category ?? '').trim();
  if (!isContactCategory(category)) throw invalid(`Please choose a category: ${CONTACT_CATEGORIES.join(', ')}`, 'category');
  return { kind: 'contact', sender, ip: '', text: description, fields: { name, email, category } };
}

export function ipErrorDraft(request: {
  sender?: SenderInput;
  ip?: string;
  country?: string;
  province?: string;
  city?: string;
  isp?: string;
  comment?: string;
  contact?: string;
}): SubmissionDraft {
  const sender = checkSender(request.sender);
  const ip = checkReportedIp(request.ip);
  const place = {
    country: checkText('country', request.country, { label: '国家', max: 50 }),
    province: checkText('province', request.province, { label: '省份', max: 50 }),
    city: checkText('city', request.city, { label: '城市', max: 50 }),
    isp: checkText('isp', request.isp, { label: '运营商', max: 50 }),
  };
  const comment = checkText('comment', request.comment, { label: '补充说明', max: 1000, multiline: true });
  const contact = checkText('contact', request.contact, { label: '联系方式', max: 100 });
  if (Object.values(place).every((value) => value === '') && comment === '') {
    throw invalid('请至少填写一项正确的位置信息或补充说明', 'province');
  }
  return { kind: 'ip_error', sender, ip, text: comment, fields: withoutEmpty({ ...place, contact }) };
}

export function positionDraft(request: {
  sender?: SenderInput;
  ip?: string;
  latitude?: number;
  longitude?: number;
  accuracyM?: number;
  address?: string;
}): SubmissionDraft {
  const sender = checkSender(request.sender);
  const ip = checkReportedIp(request.ip);
  const latitude = request.latitude ?? 0;
  const longitude = request.longitude ?? 0;
  const accuracy = request.accuracyM ?? 0;
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) throw invalid('纬度须在 -90 到 90 之间', 'latitude');
  if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180) throw invalid('经度须在 -180 到 180 之间', 'longitude');
  // proto3 sends an absent number as 0: (0, 0) is a position nobody reports from a browser.
  if (latitude === 0 && longitude === 0) throw invalid('请提供位置坐标', 'latitude');
  if (!Number.isFinite(accuracy) || accuracy < 0 || accuracy > 1_000_000)
    throw invalid('定位精度须在 0 到 1000000 米之间', 'accuracy_m');
  const address = checkText('address', request.address, { label: '详细地址', max: 200 });
  return {
    kind: 'position',
    sender,
    ip,
    text: address,
    fields: withoutEmpty({
      latitude: String(latitude),
      longitude: String(longitude),
      accuracy_m: accuracy === 0 ? '' : String(accuracy),
      address,
    }),
  };
}
