// Face A's call rules from spec section 7, encoded once: which calls are silent (no warning toast
// on a non-200 code), which are GET, which answer with a file.

/** Section 7 "POST, silent (no error toast)". `{product}` stands for a news product name. */
export const SILENT_CALLS = [
  '/v1/cl_access_callback',
  '/v1/news_{product}_detail',
  '/v1/news_{product}_recommend',
  '/v1/customer_service_list',
  '/v1/visit_history_add',
  '/v1/pc_uv_pv',
  '/v1/get_into_add',
  '/v1/search_count_new',
  '/v1/search_count',
  '/v1/ip_search_zone_new',
  '/v1/ip_search_zone',
  '/v2/get_area',
  '/v1/get_domain_by_ip',
  '/v1/get_whois',
  '/v1/asn_info_ip_search',
  '/v1/ip_search_domain',
  '/v1/ip_search_Domin_new',
  '/v1/traceroute_task_site',
  '/v1/idc_prov_list',
  '/v1/user_info',
] as const;

/** Section 7 "GET": query parameters instead of a form body. */
export const GET_CALLS = ['/v1/find_index', '/v2/query', '/v2/queryDomain', '/v2/id_card', '/v2/card', '/v2/phone'] as const;

/**
 * Section 7 "Blob download (POST)": the answer is an .xlsx file. The IP report's file call answers
 * a file (PDF or .xlsx) the same way, so it is saved by the same rule.
 */
export const DOWNLOAD_CALLS = ['/v1/query_ip_batch_zone', '/v1/upload_ip_xlsx', '/v1/report_generate_file'] as const;

const PRODUCT = '[A-Za-z0-9]+';

function matcher(paths: readonly string[]): (path: string) => boolean {
  const patterns = paths.map(
    (path) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{product\\}', PRODUCT)}$`),
  );
  return (path) => patterns.some((pattern) => pattern.test(path));
}

export const isSilentCall = matcher(SILENT_CALLS);
export const isGetCall = matcher(GET_CALLS);
export const isDownloadCall = matcher(DOWNLOAD_CALLS);
