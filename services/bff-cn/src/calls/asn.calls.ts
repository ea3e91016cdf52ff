import type { FaceAAsns } from '../asn/face-a-asns.js';
import { BAD_ASN_MSG } from '../asn/face-a-asns.js';
import { defineCall } from '../face-a/face-a-call.js';
import type { FieldSpec } from '../face-a/input-schema.js';

const asn = {
  kind: 'string',
  label: 'ASN',
  required: true,
  // Longer than the pattern allows, so that a long text gets the pattern's message.
  maxLength: 32,
  pattern: /^(?:AS)?\d{1,10}$/i,
  patternMsg: BAD_ASN_MSG,
} as const satisfies FieldSpec;
const page = { kind: 'int', label: '页码', required: false, min: 1, max: 100_000, default: 1 } as const satisfies FieldSpec;
const pageSize = (fallback: number, max: number) =>
  ({ kind: 'int', label: '每页条数', required: false, min: 1, max, default: fallback }) as const satisfies FieldSpec;
// Prefix pages (the engine allows up to 1,000 per page) and list pages (up to 100).
const PREFIX_PAGE_SIZE = pageSize(50, 1_000);
const LIST_PAGE_SIZE = pageSize(20, 100);
const keyword = { kind: 'string', label: '关键词', required: false, maxLength: 100 } as const satisfies FieldSpec;
const country = {
  kind: 'string',
  label: '国家代码',
  required: false,
  maxLength: 16,
  pattern: /^[A-Za-z]{2}$/,
  patternMsg: '请输入正确的国家代码（两位字母，如 CN）',
} as const satisfies FieldSpec;

const call = (name: string) => ({ name, path: `/v1/${name}`, methods: ['POST'], needsLogin: false, silent: true }) as const;

/** Face A's ASN pages (README "ASN calls"): the lookup engine's LookupAsn, SearchAsns and GetAsnRelations. */
export function asnCalls(asns: FaceAAsns) {
  return [
    defineCall({
      ...call('asn_search'),
      input: { asn, page, page_size: PREFIX_PAGE_SIZE },
      handle: async (context, input) => ({
        data: await asns.details(context, input.asn, { page: input.page, pageSize: input.page_size }),
      }),
    }),
    defineCall({
      ...call('asn_list_search'),
      input: { keyword, country, page, page_size: LIST_PAGE_SIZE },
      handle: async (context, input) => ({
        data: await asns.list(
          context,
          { keyword: input.keyword ?? '', country: input.country ?? '' },
          { page: input.page, pageSize: input.page_size },
        ),
      }),
    }),
    defineCall({
      ...call('asn_relation_search'),
      input: { asn, page, page_size: PREFIX_PAGE_SIZE },
      handle: async (context, input) => ({
        data: await asns.relations(context, input.asn, { page: input.page, pageSize: input.page_size }),
      }),
    }),
  ];
}
