// Generated from services/bff-cn/openapi/face-a.yaml by `npm run gen:api -w @ipdata/frontend-cn`.
// Do not edit: change the OpenAPI document and regenerate (a unit test fails when they differ).

export type paths = {
    "/v1/asn_info_ip_search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The autonomous system announcing an address; code 404 when the dataset knows none. */
        post: operations["asn_info_ip_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asn_list_search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Autonomous systems by number or words of the name/organisation, optionally of one country, paged (SearchAsns). */
        post: operations["asn_list_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asn_relation_search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** ASN ↔ organisation ↔ prefixes, and the other ASNs of the same organisation (GetAsnRelations). */
        post: operations["asn_relation_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/asn_search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One autonomous system: name, organisation, country, usage type, prefix counts and a page of its prefixes (LookupAsn). */
        post: operations["asn_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/china_province_count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Addresses per Chinese province-level division (all 34, code order). */
        post: operations["china_province_count"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/china_province_trend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Face A lookups per Chinese province per day (stats), next to the address counts of each dataset version. */
        post: operations["china_province_trend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/china_province_update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The dataset update for the divisions: each one's change against the previous version, largest change first. */
        post: operations["china_province_update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/cl_access_callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A page view - a page opened from an external tracked link (one SiteVisit; referrer = the link or channel). */
        post: operations["cl_access_callback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customer_service_list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Customer-service contacts, each kind a list of {name, value}. */
        post: operations["customer_service_list"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/feedback_add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Feedback from the feedback modal (stored, published on content.feedback.v1). */
        post: operations["feedback_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/find_index": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Home page data - latest notices, the 3 latest articles per product, article totals and today page views. */
        get: operations["find_index"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/get_areas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The countries (largest first) and the 34 divisions, for the pages' filters. */
        post: operations["get_areas"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/get_domain_by_ip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reverse DNS (PTR) names of an address; an empty list when none; 503 反向解析超时 / 反向解析失败; limited per visitor (429). */
        post: operations["get_domain_by_ip"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/get_into_add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A page view - the first page of a visit (one SiteVisit on site.visit.v1). */
        post: operations["get_into_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/get_notice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Current notices, newest first. */
        post: operations["get_notice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/get_whois": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** WHOIS over TCP 43 following the referral (IANA → registry → registrar or RIR, at most 3 servers); 404 when nobody holds it, 503 timeout / unreachable / 应答过大 at the first server; limited per visitor (429). */
        post: operations["get_whois"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/global_country_count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Addresses per country, largest IPv4 count first, paged. */
        post: operations["global_country_count"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/global_country_trend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Face A lookups per country per day (stats), next to the address counts of each dataset version. */
        post: operations["global_country_trend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/global_country_update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The dataset update: the version served, the previous one, and each country's change, largest change first. */
        post: operations["global_country_update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/global_ip_total": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Address totals of the dataset served: all countries, China (CN, HK, MO, TW), unlocated. */
        post: operations["global_ip_total"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/idc_list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Chinese hosting/data-centre (IDC) organisations, largest first, optionally in one division, paged. */
        post: operations["idc_list"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/idc_prov_list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The divisions with IDC organisations, most first (the IDC page's filter). */
        post: operations["idc_prov_list"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ip_error_add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A wrongly located address - what the visitor says is right (stored for review, published). */
        post: operations["ip_error_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ip_search_domain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A domain's A and AAAA addresses, each looked up (Chinese names first). 404 域名不存在或没有解析记录; 503 域名解析超时 / 域名解析失败; each address counts against the visitor lookup limit (429). */
        post: operations["ip_search_domain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ip_search_Domin_new": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The same as ip_search_domain (the spec's spelling). */
        post: operations["ip_search_Domin_new"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ip_search_zone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One address looked up (rate-limited per visitor). */
        post: operations["ip_search_zone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ip_search_zone_new": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The same as ip_search_zone (the spec names both). */
        post: operations["ip_search_zone_new"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ip_self_search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The caller's own address (behind the trusted proxies) with its full lookup. */
        post: operations["ip_self_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_asn_detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One asn article with its body and previous/next links. */
        post: operations["news_asn_detail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_asn_list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Published asn articles, newest first, paged. */
        post: operations["news_asn_list"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_asn_recommend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Other asn articles to read next. */
        post: operations["news_asn_recommend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_industry_detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One industry article with its body and previous/next links. */
        post: operations["news_industry_detail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_industry_list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Published industry articles, newest first, paged. */
        post: operations["news_industry_list"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_industry_recommend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Other industry articles to read next. */
        post: operations["news_industry_recommend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_ip_detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One ip article with its body and previous/next links. */
        post: operations["news_ip_detail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_ip_list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Published ip articles, newest first, paged. */
        post: operations["news_ip_list"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_ip_recommend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Other ip articles to read next. */
        post: operations["news_ip_recommend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_report_detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One report article with its body and previous/next links. */
        post: operations["news_report_detail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_report_list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Published report articles, newest first, paged. */
        post: operations["news_report_list"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/news_report_recommend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Other report articles to read next. */
        post: operations["news_report_recommend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document as JSON (not in the envelope). */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/pc_uv_pv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Page views and unique visitors of face A per UTC day (stats). */
        post: operations["pc_uv_pv"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/phone_login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Login with phone and password. */
        post: operations["phone_login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/position_add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Where an address really is, from the browser geolocation (stored for review, published). */
        post: operations["position_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/query_ip_batch_zone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Batch lookup of IP addresses typed or pasted as text, answered as an .xlsx file.
         * @description One worksheet 查询结果 with the columns 序号, IP, 国家, 省份, 城市, 运营商, ASN, 经度, 纬度, 备注 and one row per input address in input order: invalid lines are kept and marked 无效的 IP 地址, special-purpose addresses are named in 备注 (局域网, 本机地址, ...), addresses without data 未找到位置信息. Limits: 10,000 rows (VIP 100,000), else code 400 "单次最多查询 10000 个 IP，..."; 20 batch calls an hour per visitor address (code 429 "批量查询过于频繁，请稍后再试"). Each looked-up address counts as one lookup in the usage events.
         */
        post: operations["query_ip_batch_zone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/regist_cooperation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A company signs up as a partner through auth (phone, SMS code, password, company, contact); logged in at once. The note goes to content (content.feedback.v1). */
        post: operations["regist_cooperation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/report_generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The IP report of one address as JSON (ExplainAddress: merged answer, privacy rules, network, reverse DNS, each source side by side); limited per visitor (429). */
        post: operations["report_generate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/report_generate_examples": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Example addresses for the report page with Chinese labels (config/report-examples.yaml); no lookup. */
        post: operations["report_generate_examples"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/report_generate_file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The same report as a PDF (default) or .xlsx download.
         * @description PDF: A4, title, then one table per section (概览, 地理位置 中文/English, 自治系统, 网络, 隐私标记, 反向解析, one per data source) and the sources' attribution, in the embedded Noto Sans SC (subset). xlsx: one worksheet IP 报告 with the same sections as rows. Content-Disposition attachment with an ASCII filename and filename*=UTF-8''IP报告-<ip>-<yyyymmdd>.<ext>. Any failure (400 bad ip or format, 429, 500, 503) answers the JSON envelope instead.
         */
        post: operations["report_generate_file"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search_count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Face A requests and lookups per call (stats), per day. */
        post: operations["search_count"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search_count_new": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The same as search_count (the spec names both). */
        post: operations["search_count_new"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/send_sms_code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends a 6-digit SMS code (valid 5 minutes); auth limits sends per phone and per address. */
        post: operations["send_sms_code"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/traceroute_task_add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Starts a traceroute from a probe site to an address or a domain's address.
         * @description Private, loopback and other special-purpose targets are refused (code 400) unless the
         *     deployment allows them; tasks are limited per visitor address (code 429 "检测任务过于频繁，请稍后再试");
         *     no probe site alive: code 503. Poll traceroute_task_get with the answered `task_id`.
         */
        post: operations["traceroute_task_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/traceroute_task_get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A task's state and its hops so far, each hop located for the map.
         * @description An unknown or expired (after a day) task is code 404; a malformed task_id code 400.
         */
        post: operations["traceroute_task_get"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/traceroute_task_site": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The probe sites alive now (a heartbeat within three intervals), their workers summed. */
        post: operations["traceroute_task_site"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/upload_ip_xlsx": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Batch lookup of the addresses of an uploaded .xlsx, .csv or .txt file, answered as an .xlsx file.
         * @description The same answer and limits as query_ip_batch_zone. Other file types: code 400 "仅支持 .xlsx、.csv、.txt 文件"; a file that is not a workbook: "无法读取 Excel 文件，请上传 .xlsx 格式的文件"; over UPLOAD_MAX_BYTES: "上传文件过大（最大 8 MB）".
         */
        post: operations["upload_ip_xlsx"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user_info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The logged-in user and the unread message count. */
        post: operations["user_info"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user_login_phone_code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Login with phone and SMS code. */
        post: operations["user_login_phone_code"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user_regis": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Registration with phone, SMS code and password; logged in at once. */
        post: operations["user_regis"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/user_update_password_phone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** New password after proving the phone with an SMS code; every session of the account ends. */
        post: operations["user_update_password_phone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vip_info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The logged-in account's VIP state. */
        post: operations["vip_info"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vip_order_add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An order for a VIP plan; pay at `checkout_url`, which sends the buyer back to <SITE_ORIGIN>/vip?order_id=..&status=.. */
        post: operations["vip_order_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vip_order_get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An order of the account and the VIP state (poll after the checkout). */
        post: operations["vip_order_get"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/vip_plan_list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Face A's VIP plans from billing's catalogue. */
        post: operations["vip_plan_list"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/visit_history_add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A page view - each later route change within the site (one SiteVisit). */
        post: operations["visit_history_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/web_init": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start-up data - site name, contacts (each a JSON string of {name, value}), latest notices, news products. */
        post: operations["web_init"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Bank card: Luhn check, scheme, issuer and card type by BIN from an offline table where it has them. */
        get: operations["v2/card"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/get_area": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The place of one address only. */
        get: operations["v2/get_area"];
        put?: never;
        /** The same as GET, with the address in a form body. */
        post: operations["v2/get_area.post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/id_card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** PRC resident ID: checksum, birth date, sex, region (GB/T 2260). Malformed input is code 400; a failed check is code 200 with valid false. */
        get: operations["v2/id_card"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/phone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Phone number: type, carrier and region from libphonenumber's data where it has them. */
        get: operations["v2/phone"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One address looked up, GET form. */
        get: operations["v2/query"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/queryDomain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A domain's A and AAAA addresses, each looked up (Chinese names first). 404 域名不存在或没有解析记录; 503 域名解析超时 / 域名解析失败; each address counts against the visitor lookup limit (429). */
        get: operations["v2/queryDomain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        AreaView: {
            area: string;
            city: components["schemas"]["NullableString"];
            country: components["schemas"]["NullableString"];
            country_code: components["schemas"]["NullableString"];
            ip: string;
            isp: components["schemas"]["NullableString"];
            province: components["schemas"]["NullableString"];
        };
        AsnDetails: components["schemas"]["AsnSummary"] & components["schemas"]["AsnPrefixPage"];
        AsnForm: {
            /**
             * @description AS13335 or 13335 (1 to 4294967295)
             * @example AS13335
             */
            asn: string;
            /**
             * @description page of the prefixes
             * @default 1
             */
            page: number;
            /** @default 50 */
            page_size: number;
        };
        AsnList: components["schemas"]["Paged"] & {
            list?: components["schemas"]["AsnSummary"][];
        };
        AsnListForm: {
            /** @description ISO country code of the registration, any case */
            country?: string;
            /** @description An ASN (AS13335 or 13335: that ASN first) or words that must all occur in the name or organisation (any case); empty lists every ASN */
            keyword?: string;
            /** @default 1 */
            page: number;
            /** @default 20 */
            page_size: number;
        };
        AsnPrefixPage: {
            page: number;
            page_size: number;
            /**
             * @description Announced prefixes, IPv4 first, then IPv6
             * @example [
             *       "1.0.0.0/24"
             *     ]
             */
            prefixes: string[];
            total_prefixes: number;
        };
        AsnRelations: components["schemas"]["AsnPrefixPage"] & {
            asn: components["schemas"]["AsnSummary"];
            organization: {
                /** @description ASNs registered to this organisation (same text in any case) */
                asn_count: number;
                name: string;
            } | null;
            /** @description The other ASNs of the organisation, by number; at most 1,000 */
            siblings: components["schemas"]["AsnSummary"][];
            siblings_total: number;
        };
        AsnSummary: {
            /** @example 13335 */
            asn: number;
            /** @example AS13335 */
            asn_text: string;
            country_code: components["schemas"]["NullableString"];
            /**
             * @description Chinese name of the registration country (ICU zh-CN); null when unknown
             * @example 美国
             */
            country_name: string | null;
            ipv4_prefix_count: number;
            ipv6_prefix_count: number;
            name: components["schemas"]["NullableString"];
            organization: components["schemas"]["NullableString"];
            /** @description The dataset's usage type code (ISP, DCH, ...) */
            usage_type: string | null;
        };
        AsnView: {
            asn: number;
            asn_name: components["schemas"]["NullableString"];
            country: components["schemas"]["NullableString"];
            country_code: components["schemas"]["NullableString"];
            domain: components["schemas"]["NullableString"];
            ip: string;
            isp: components["schemas"]["NullableString"];
            network: components["schemas"]["NullableString"];
            organization: components["schemas"]["NullableString"];
            usage_type: components["schemas"]["NullableString"];
        };
        BankCardCheck: {
            bank?: {
                code: string;
                name: string;
            };
            bin: string;
            card_type?: {
                /** @enum {string} */
                code: "DC" | "CC" | "SCC" | "PC";
                name: string;
            };
            length: number;
            luhn: boolean;
            number: string;
            problems: components["schemas"]["CardProblem"][];
            reason?: string;
            scheme?: {
                /** @enum {string} */
                code: "unionpay" | "visa" | "mastercard" | "jcb" | "amex";
                name: string;
            };
            valid: boolean;
        };
        BatchIpsForm: {
            /**
             * @description IP addresses, one per line or separated by commas (also ，), semicolons, tabs or spaces; at most 10,000 (100,000 for VIP accounts: send the `token` header).
             * @example 114.114.114.114
             *     8.8.8.8,1.1.1.1
             */
            ips: string;
        };
        BatchUploadForm: {
            /**
             * Format: binary
             * @description An .xlsx (first worksheet: the column titled ip/IP/IP地址, else the first column), a .csv (the column titled ip/ip_address/address, else the first) or a .txt (one address per line), UTF-8; at most UPLOAD_MAX_BYTES (8 MB) and 10,000 rows (100,000 for VIP).
             */
            file: string;
        };
        CardProblem: {
            code: string;
            message: string;
        };
        CodeLoginForm: {
            /** @description the SMS code (send_sms_code type=login) */
            code: string;
            phone: string;
            /** @enum {string} */
            remember?: "0" | "1" | "true" | "false";
        };
        ContactList: {
            name: string;
            value: string;
        }[];
        Contacts: {
            email: components["schemas"]["ContactList"];
            phone: components["schemas"]["ContactList"];
            qq: components["schemas"]["ContactList"];
            qq_code: components["schemas"]["ContactList"];
            wx_code: components["schemas"]["ContactList"];
        };
        CooperationForm: {
            /** @description the SMS code (send_sms_code type=cooperation) */
            code: string;
            company: string;
            /** @description a contact address (not a sign-in address) */
            email?: string;
            /** @description a note for the sales team, kept in content */
            message?: string;
            /** @description the contact person */
            name: string;
            /** @description auth's password rules apply */
            password: string;
            phone: string;
        };
        CountryPageForm: {
            /** @description ISO country code, any case; only that country */
            country?: string;
            /** @default 1 */
            page: number;
            /** @default 50 */
            page_size: number;
        };
        CountryRow: components["schemas"]["Counts"] & {
            /** @description ISO 3166-1 alpha-2 */
            country_code: string;
            /** @description Chinese name first (dataset */
            name: string;
            name_en: string | null;
        };
        CountryTrendForm: {
            /** @description ISO country code; without it every country */
            country?: string;
            /**
             * @description the last N UTC days
             * @default 30
             */
            days: number;
        };
        /** @description Addresses; IPv6 exact as decimal text (it reaches 2^128), and rounded in /32 blocks. */
        Counts: {
            ipv4: number;
            ipv6: string;
            ipv6_slash32: number;
        };
        /** @description Change against the previous dataset version; null when there is none. */
        CountsChange: {
            ipv4_change: number | null;
            ipv6_change: string | null;
        };
        /** @description Address counts per dataset version on disk (at most 30, oldest first). */
        DatasetHistory: (components["schemas"]["DatasetVersion"] & components["schemas"]["Counts"])[];
        DatasetVersion: {
            /** Format: date-time */
            built_at: string | null;
            version: string;
        };
        DaysForm: {
            /** @default 30 */
            days: number;
        };
        DomainAnswer: {
            /** @description A then AAAA addresses, each looked up */
            addresses: components["schemas"]["IpView"][];
            /** @description The name as queried: lower-case ASCII, IDN labels as punycode */
            domain: string;
        };
        DomainForm: {
            /**
             * @description A domain name (internationalised names accepted)
             * @example example.com
             */
            domain: string;
        };
        EmptyForm: Record<string, never>;
        /** @description a JSON-encoded list of {name, value} (the client JSON.parses it), e.g. [{"name":"销售热线","value":"400-000-0000"}] */
        EncodedContactList: string;
        ErrorEnvelope: {
            /** @enum {integer} */
            code: 400 | 403 | 404 | 429 | 500 | 503 | 506;
            data: null;
            /** @description Chinese text shown to the user */
            msg: string;
        };
        FeedbackForm: {
            /** @description free text, e.g. 建议, 问题 */
            category?: string;
            /** @description phone, e-mail or QQ (optional) */
            contact?: string;
            content: string;
            /** @description the page the feedback modal was opened on */
            page?: string;
        };
        FindIndex: {
            counts: {
                /** @description published articles per product */
                news: {
                    [key: string]: number;
                };
                /** @description today's (UTC) page views and unique visitors of face A from stats; null when stats is unavailable */
                today: {
                    pv: number;
                    uv: number;
                } | null;
            };
            /** @description the 3 latest articles of each product */
            news: {
                [key: string]: components["schemas"]["NewsSummary"][];
            };
            notices: components["schemas"]["Notice"][];
        };
        /** @description Where a hop is, for the map (Chinese names first, as IpView). */
        HopLocation: {
            area: string;
            city: components["schemas"]["NullableString"];
            country: components["schemas"]["NullableString"];
            country_code: components["schemas"]["NullableString"];
            isp: components["schemas"]["NullableString"];
            latitude: number | null;
            longitude: number | null;
            province: components["schemas"]["NullableString"];
        };
        /** @description A PRC resident ID. Absent fields have no data source for this number. */
        IdCardCheck: {
            age?: number;
            /** Format: date */
            birth_date?: string;
            legacy15: boolean;
            /** @description 18 characters, X upper case (a 15-digit number converted) */
            number: string;
            problems: components["schemas"]["CardProblem"][];
            /** @description Chinese */
            reason?: string;
            region?: {
                city?: string;
                code: string;
                county?: string;
                /** @description whether the GB/T 2260 code is still in use */
                current: boolean;
                province?: string;
            };
            /** @enum {string} */
            sex: "male" | "female";
            /** @enum {string} */
            sex_name: "男" | "女";
            valid: boolean;
        };
        IdcListForm: {
            /** @default 1 */
            page: number;
            /** @default 20 */
            page_size: number;
            /** @description as ProvinceForm; only organisations with addresses there */
            province?: string;
        };
        IdcRow: components["schemas"]["Counts"] & {
            asns: number[];
            /** @description name_zh when known */
            name: string;
            name_zh: string | null;
            organization: string;
            prefix_count: number;
            provinces: (components["schemas"]["Counts"] & {
                code: string;
                short_name: string;
            })[];
        };
        IpErrorForm: {
            city?: string;
            comment?: string;
            contact?: string;
            /** @description what the visitor says is right */
            country?: string;
            ip: string;
            isp?: string;
            province?: string;
        };
        IpForm: {
            /**
             * @description One IPv4 or IPv6 address
             * @example 114.114.114.114
             */
            ip: string;
        };
        /** @description One address explained: the merged answer (Chinese names first, English beside them), the rule behind each privacy flag, the network, reverse DNS names and what each source says on its own (the lookup engine's ExplainAddress). */
        IpReport: {
            /** @example 中国 江苏 南京 电信 */
            area: string;
            asn: {
                name: components["schemas"]["NullableString"];
                number: number;
                organization: components["schemas"]["NullableString"];
            } | null;
            /** @description null for special-purpose addresses (answered without the engine) */
            dataset_version: string | null;
            /** Format: date-time */
            generated_at: string;
            geolocation: {
                country_code: components["schemas"]["NullableString"];
                en: {
                    city: components["schemas"]["NullableString"];
                    country: components["schemas"]["NullableString"];
                    /** @description The AS organisation (no English ISP source) */
                    isp: string | null;
                    region: components["schemas"]["NullableString"];
                };
                latitude: number | null;
                longitude: number | null;
                time_zone: components["schemas"]["NullableString"];
                utc_offset: components["schemas"]["NullableString"];
                zh: {
                    city: components["schemas"]["NullableString"];
                    country: components["schemas"]["NullableString"];
                    isp: components["schemas"]["NullableString"];
                    province: components["schemas"]["NullableString"];
                };
                zip_code: components["schemas"]["NullableString"];
            };
            ip: string;
            network: {
                /** @description The first CIDR block of the range holding the address */
                cidr: string | null;
                end_ip: components["schemas"]["NullableString"];
                networks: string[];
                start_ip: components["schemas"]["NullableString"];
            };
            privacy: {
                flags: {
                    /** @enum {string} */
                    flag: "is_vpn" | "is_tor" | "is_data_center" | "is_proxy" | "is_relay" | "is_hosting";
                    /** @example 数据中心 */
                    name: string;
                    /**
                     * @description The dataset rule that set it (hosting-asn, tor:<list>, ...); null when not set
                     * @example hosting-asn
                     */
                    rule: string | null;
                    set: boolean;
                }[];
                is_proxy: boolean;
            };
            /** @description private, loopback, ... for special-purpose addresses */
            reserved: string | null;
            reverse_dns: {
                names: string[];
                /**
                 * @description skipped for special-purpose addresses; unavailable when the lookup failed
                 * @enum {string}
                 */
                status: "found" | "none" | "skipped" | "unavailable";
            };
            /** @description In the dataset's source order; empty for special-purpose addresses. */
            sources: {
                /** @description The version the served dataset was built from */
                dataset_source_version: string | null;
                /** @description The source's own fields as text, by its field names */
                fields: {
                    [key: string]: string;
                };
                /** @example 纯真 IP 库（qqwry） */
                name: string;
                /** @description The source's own network or range holding the address */
                network: string | null;
                /** @description The installed version read for this answer */
                read_version: string | null;
                /** @enum {string} */
                source: "geolite2-city" | "asn" | "qqwry";
            }[];
        };
        /**
         * @description One address with Chinese names first (the dataset's `zh` fields), English where there is no
         *     Chinese name, null where the dataset has no value (never invented). `area` joins country,
         *     province, city and ISP; for a special-purpose address it names the kind (局域网, 本机地址, ...).
         */
        IpView: {
            /** @example 中国 江苏 南京 电信 */
            area: string;
            asn: number | null;
            asn_name: components["schemas"]["NullableString"];
            calling_code: components["schemas"]["NullableString"];
            city: components["schemas"]["NullableString"];
            city_en: components["schemas"]["NullableString"];
            country: components["schemas"]["NullableString"];
            country_code: components["schemas"]["NullableString"];
            country_en: components["schemas"]["NullableString"];
            currency_code: components["schemas"]["NullableString"];
            end_ip: components["schemas"]["NullableString"];
            /** @description canonical form of the address */
            ip: string;
            is_proxy: boolean;
            isp: components["schemas"]["NullableString"];
            latitude: number | null;
            longitude: number | null;
            network: components["schemas"]["NullableString"];
            organization: components["schemas"]["NullableString"];
            province: components["schemas"]["NullableString"];
            proxy: {
                is_data_center: boolean;
                is_hosting: boolean;
                is_proxy: boolean;
                is_relay: boolean;
                is_tor: boolean;
                is_vpn: boolean;
            };
            region_en: components["schemas"]["NullableString"];
            /** @enum {string|null} */
            reserved: "private" | "loopback" | "link_local" | "multicast" | "documentation" | "unspecified" | "shared_address_space" | "benchmarking" | "broadcast" | "other" | null;
            start_ip: components["schemas"]["NullableString"];
            time_zone: components["schemas"]["NullableString"];
            utc_offset: components["schemas"]["NullableString"];
            zip_code: components["schemas"]["NullableString"];
        };
        /** @description Face A's own lookups (stats, channel WEB_CN) per UTC day, every day of the range. */
        LookupTrend: {
            days: (components["schemas"]["TrendSums"] & {
                /** Format: date */
                day: string;
            })[];
            /** Format: date */
            from: string;
            /** Format: date */
            to: string;
            total: components["schemas"]["TrendSums"];
        };
        NewsDetail: {
            author: string;
            /** @description sanitised HTML (paragraphs */
            body_html: string;
            cover_url: string;
            id: string;
            is_sample: boolean;
            next: components["schemas"]["NewsLink"];
            previous: components["schemas"]["NewsLink"];
            /** @enum {string} */
            product: "ip" | "asn" | "report" | "industry";
            /** Format: date-time */
            published_at: string | null;
            summary: string;
            tags: string[];
            title: string;
            views: number;
        };
        NewsDetailForm: {
            /** @description article id from the list */
            id: string;
        };
        NewsLink: {
            id: string;
            title: string;
        } | null;
        NewsList: {
            list: components["schemas"]["NewsSummary"][];
            page: number;
            page_size: number;
            total: number;
        };
        NewsListForm: {
            /** @description 1 to 1000 (default 1) */
            page?: string;
            /** @description 1 to 50 (default 10) */
            page_size?: string;
        };
        NewsRecommend: {
            list: components["schemas"]["NewsSummary"][];
        };
        NewsRecommendForm: {
            /** @description the article being read (never recommended) */
            id?: string;
            /** @description 1 to 20 (default 5) */
            page_size?: string;
        };
        NewsSummary: {
            /** @description empty when none */
            cover_url: string;
            id: string;
            /** @description a sample article seeded by the content service (title says 示例), not real news */
            is_sample: boolean;
            /** @enum {string} */
            product: "ip" | "asn" | "report" | "industry";
            /** Format: date-time */
            published_at: string | null;
            summary: string;
            tags: string[];
            title: string;
            views: number;
        };
        Notice: {
            body: string;
            id: string;
            /** @description optional link; empty when none */
            link: string;
            /** Format: date-time */
            published_at: string | null;
            title: string;
        };
        NoticeForm: {
            /** @description how many notices, 1 to 50 (default 10) */
            page_size?: string;
        };
        NoticeList: {
            list: components["schemas"]["Notice"][];
        };
        NullableString: string | null;
        Paged: {
            list: unknown[];
            page: number;
            page_size: number;
            /** @description rows over all pages */
            total: number;
        };
        PasswordLoginForm: {
            password: string;
            phone: string;
            /**
             * @description 1 = 30-day session instead of 7 days
             * @enum {string}
             */
            remember?: "0" | "1" | "true" | "false";
        };
        PhoneCheck: {
            carrier?: string;
            e164: string;
            national_number: string;
            problems: components["schemas"]["CardProblem"][];
            reason?: string;
            region?: {
                city?: string;
                province?: string;
                text: string;
            };
            /** @enum {string} */
            type?: "mobile" | "fixed_line" | "fixed_line_or_mobile" | "toll_free" | "premium_rate" | "shared_cost" | "voip" | "personal_number" | "pager" | "uan" | "voicemail";
            type_name?: string;
            valid: boolean;
        };
        PositionForm: {
            /** @description accuracy radius in metres as the browser reported it */
            accuracy?: string;
            address?: string;
            ip: string;
            /** @description decimal degrees, -90 to 90 */
            latitude: string;
            /** @description decimal degrees, -180 to 180 */
            longitude: string;
        };
        ProbeSite: {
            capacity: number;
            name: string;
            running: number;
            /** @description the id traceroute_task_add takes as `site` */
            site: string;
            workers: number;
        };
        ProvinceForm: {
            /** @description A division by code (44), name (广东省), short name (广东), English name or HK/MO/TW */
            province?: string;
        };
        ProvinceRow: components["schemas"]["Counts"] & {
            /** @description GB/T 2260 two-digit code (71 台湾, 81 香港, 82 澳门) */
            code: string;
            idc_organizations: number;
            /** @example 广东省 */
            name: string;
            name_en: string;
            /** @example 广东 */
            short_name: string;
        };
        ProvinceTrendForm: {
            /** @default 30 */
            days: number;
            /** @description as ProvinceForm; without it every division */
            province?: string;
        };
        RegisterForm: {
            /** @description the SMS code (send_sms_code type=register) */
            code: string;
            /** @description auth's password rules apply */
            password: string;
            phone: string;
        };
        ReportExample: {
            /** @enum {string} */
            family: "ipv4" | "ipv6";
            /** @example 8.8.8.8 */
            ip: string;
            /** @example Google 公共 DNS */
            label: string;
        };
        ReportFileForm: {
            /**
             * @description The file type (pdf when absent)
             * @default pdf
             * @enum {string}
             */
            format: "pdf" | "xlsx";
            /**
             * @description One IPv4 or IPv6 address
             * @example 114.114.114.114
             */
            ip: string;
        };
        ResetPasswordForm: {
            /** @description the SMS code (send_sms_code type=reset_password) */
            code: string;
            password: string;
            /** @description checked when given */
            password_confirmation?: string;
            phone: string;
        };
        ReverseDns: {
            ip: string;
            /** @description PTR names (empty when none) */
            names: string[];
        };
        ReverseDnsForm: {
            /**
             * @description One IPv4 or IPv6 address
             * @example 8.8.8.8
             */
            ip: string;
        };
        SignedIn: {
            /** Format: date-time */
            expires_at: string | null;
            /** @description send it as the `token` header; the client keeps it in the `token` cookie */
            token: string;
            user: components["schemas"]["User"];
        };
        SmsCodeForm: {
            /** @description mainland China mobile number */
            phone: string;
            /**
             * @description what the code is for; a code is accepted only for its own purpose
             * @enum {string}
             */
            type: "register" | "login" | "reset_password" | "cooperation";
        };
        SmsSent: {
            expires_in_seconds: number;
            resend_after_seconds: number;
        };
        Submission: {
            /** @description the stored submission (reviewed by operators) */
            id: string;
            /** Format: date-time */
            received_at: string | null;
        };
        Success: {
            /** @constant */
            code: 200;
            msg: string;
        };
        /** @description Exactly one of `ip` and `domain`. */
        TracerouteAddForm: {
            /** @description A domain name; probed at its first A (else AAAA) address that may be probed */
            domain?: string;
            /**
             * @description One IPv4 or IPv6 address
             * @example 8.8.8.8
             */
            ip?: string;
            /** @description A probe site from traceroute_task_site; default: the live site with the most free slots */
            site?: string;
        };
        TracerouteGetForm: {
            /** @description from traceroute_task_add */
            task_id: string;
        };
        TracerouteHop: {
            /** @description ICMP errors traceroute printed, e.g. !H, !N */
            annotations: string[];
            /** @description null when no probe of this TTL was answered (*) */
            ip: string | null;
            location: null | components["schemas"]["HopLocation"];
            lost: number;
            /** @description further addresses that answered (load-balanced paths) */
            other_ips: string[];
            rtt_ms: number[];
            sent: number;
            ttl: number;
        };
        TracerouteProgress: {
            /** Format: date-time */
            created_at: string;
            error: components["schemas"]["NullableString"];
            /** Format: date-time */
            expires_at: string;
            /** @description one per TTL */
            hops: components["schemas"]["TracerouteHop"][];
            site: string;
            /**
             * @description failed with error 探测超时 when no final record came by expires_at plus a grace period
             * @enum {string}
             */
            state: "pending" | "running" | "done" | "failed";
            target: string;
            target_input: string;
            /** Format: uuid */
            task_id: string;
        };
        TracerouteTask: {
            /**
             * Format: date-time
             * @description a task no worker started by then is dropped
             */
            expires_at: string;
            site: string;
            site_name: string;
            /** @description the canonical address probed */
            target: string;
            /** @description what was typed (the address or the domain) */
            target_input: string;
            /** Format: uuid */
            task_id: string;
        };
        TrendCount: {
            /** @description country code, province name or call name */
            key: string;
            lookups: number;
            name: string;
            requests: number;
        };
        TrendSums: {
            /** @description the largest keys first */
            counts: components["schemas"]["TrendCount"][];
            lookups: number;
            /** @description every kept key summed */
            requests: number;
        };
        /** @description The spec's user state; face A shows `phone` as the user name. */
        User: {
            /** @description entitlements, e.g. api:free, vip, partner */
            auth: string[];
            /** @enum {string} */
            channel: "phone" | "email" | "unknown";
            company_name: string;
            /** Format: date-time */
            created_at: string | null;
            display_name: string;
            id: string;
            name: string;
            partner: boolean;
            pay_service: string[];
            phone: string;
        };
        UserInfo: {
            /** @description the account's unread messages in content; null when content is unavailable */
            unread: number | null;
            user: components["schemas"]["User"];
        };
        UvPvForm: {
            /** @description the last N UTC days including today, 1 to 90 (default 7) */
            days?: string;
            /** @description one page only; empty = the whole site */
            page?: string;
        };
        VipOrder: {
            amount: string;
            /** @description the provider's checkout page while the order is pending */
            checkout_url: string | null;
            /** Format: date-time */
            created_at: string | null;
            currency: string;
            /** Format: date-time */
            expires_at: string | null;
            order_id: string;
            /** Format: date-time */
            paid_at: string | null;
            plan_id: string;
            /** @enum {string} */
            state: "pending" | "paid" | "canceled" | "expired" | "unknown";
        };
        VipOrderForm: {
            order_id: string;
        };
        VipOrderState: {
            order: components["schemas"]["VipOrder"];
            vip: components["schemas"]["VipStatus"];
        };
        VipPlan: {
            currency: string;
            description: string;
            id: string;
            included_lookups_per_month: number | null;
            /** @enum {string} */
            interval: "monthly" | "yearly" | "unknown";
            /** @description e.g. VIP 月度会员 */
            name: string;
            /** @description decimal text in the currency, e.g. "15.00" */
            price: string;
            price_minor: number;
        };
        VipPlanForm: {
            /** @description vip-monthly or vip-yearly (vip_plan_list) */
            plan_id: string;
        };
        VipPlans: {
            plans: components["schemas"]["VipPlan"][];
        };
        VipStatus: {
            /** Format: date-time */
            expires_at: string | null;
            /** @description a VIP subscription whose period has not ended (a canceled one stays VIP until then) */
            is_vip: boolean;
            plan_id: string | null;
            /** @description false once canceled */
            renews: boolean;
        };
        VisitCounts: {
            days: {
                /**
                 * Format: date
                 * @description UTC day
                 */
                day: string | null;
                pv: number;
                uv: number;
            }[];
            /** @description page views over the range (exact) */
            pv: number;
            /** @description distinct visitors over the range (HyperLogLog */
            uv: number;
        };
        VisitForm: {
            /** @description the route path, without query string, e.g. /ipv6 or /newsip66/{id} */
            page: string;
            /** @description where the page was reached from (document.referrer, or the previous page) */
            referrer?: string;
        };
        WebInit: {
            email: components["schemas"]["EncodedContactList"];
            /** @description the {product} values of news_{product}_* */
            news_products: string[];
            notices: components["schemas"]["Notice"][];
            phone: components["schemas"]["EncodedContactList"];
            /**
             * @description the plat the server understood from the header
             * @enum {string}
             */
            plat: "pc" | "wap";
            qq: components["schemas"]["EncodedContactList"];
            qq_code: components["schemas"]["EncodedContactList"];
            /** Format: date-time */
            server_time: string;
            /** @description SITE_NAME of the deployment */
            site_name: string;
            wx_code: components["schemas"]["EncodedContactList"];
        };
        WhoisAnswer: {
            answers: {
                server: string;
                text: string;
            }[];
            /** @description Parsed from the last answer. Domain: registrar, creation_date, expiry_date, name_servers, status. Address: netname, org, country, inetnum, cidr. Null / empty where absent. */
            fields: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            kind: "domain" | "ip";
            query: string;
            /** @description The last answer's text */
            raw: string;
            /** @description Set when a referred server could not be asked; the answers so far are given */
            referral_error: string | null;
            /** @description host:port of each server asked, in order */
            servers: string[];
        };
        /** @description Exactly one of `domain` and `ip`. */
        WhoisForm: {
            /**
             * @description A domain name
             * @example example.com
             */
            domain?: string;
            /**
             * @description One IPv4 or IPv6 address
             * @example 8.8.8.8
             */
            ip?: string;
        };
    };
    responses: {
        /** @description `data` is the address with Chinese names first. */
        IpView: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": (components["schemas"]["Success"] & {
                    data?: components["schemas"]["IpView"];
                }) | components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `data` has the session token and the user; `msg` is auth's text (e.g. 登录成功). */
        SignedIn: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": (components["schemas"]["Success"] & {
                    data?: components["schemas"]["SignedIn"];
                }) | components["schemas"]["ErrorEnvelope"];
            };
        };
    };
    parameters: {
        /** @description One IPv4 or IPv6 address (no port, zone or prefix length). */
        IpQuery: string;
        Plat: "pc" | "wap";
        /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
        Token: string;
    };
    requestBodies: {
        Empty: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["EmptyForm"];
                "multipart/form-data": components["schemas"]["EmptyForm"];
            };
        };
        Ip: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["IpForm"];
                "multipart/form-data": components["schemas"]["IpForm"];
            };
        };
    };
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    asn_info_ip_search: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["Ip"];
        responses: {
            /** @description `data` is the ASN of the address. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["AsnView"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    asn_list_search: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["AsnListForm"];
                "multipart/form-data": components["schemas"]["AsnListForm"];
            };
        };
        responses: {
            /** @description An exact ASN first, then by number; an empty list when nothing matches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["AsnList"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    asn_relation_search: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["AsnForm"];
                "multipart/form-data": components["schemas"]["AsnForm"];
            };
        };
        responses: {
            /** @description code 404 "未找到该 ASN" for an ASN the dataset does not know; 400 for a malformed asn. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["AsnRelations"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    asn_search: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["AsnForm"];
                "multipart/form-data": components["schemas"]["AsnForm"];
            };
        };
        responses: {
            /** @description code 404 "未找到该 ASN" for an ASN the dataset does not know; 400 for a malformed asn. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["AsnDetails"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    china_province_count: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ProvinceForm"];
                "multipart/form-data": components["schemas"]["ProvinceForm"];
            };
        };
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["DatasetVersion"] & {
                            addresses: components["schemas"]["Counts"];
                            list: components["schemas"]["ProvinceRow"][];
                            unattributed: components["schemas"]["Counts"];
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    china_province_trend: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ProvinceTrendForm"];
                "multipart/form-data": components["schemas"]["ProvinceTrendForm"];
            };
        };
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: {
                            dataset: components["schemas"]["DatasetHistory"];
                            lookups: components["schemas"]["LookupTrend"];
                            province: null | {
                                code: string;
                                name: string;
                                short_name: string;
                            };
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    china_province_update: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ProvinceForm"];
                "multipart/form-data": components["schemas"]["ProvinceForm"];
            };
        };
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["DatasetVersion"] & {
                            addresses: components["schemas"]["Counts"] & components["schemas"]["CountsChange"];
                            list: (components["schemas"]["ProvinceRow"] & components["schemas"]["CountsChange"])[];
                            previous: components["schemas"]["DatasetVersion"] | null;
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    cl_access_callback: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["VisitForm"];
                "multipart/form-data": components["schemas"]["VisitForm"];
            };
        };
        responses: {
            /** @description `data` is null once Kafka has the visit. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: null;
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    customer_service_list: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["Empty"];
        responses: {
            /** @description `data` has the five contact lists. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["Contacts"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    feedback_add: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["FeedbackForm"];
                "multipart/form-data": components["schemas"]["FeedbackForm"];
            };
        };
        responses: {
            /** @description `msg` 提交成功，感谢您的反馈. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["Submission"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    find_index: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `data` is the home page; `counts.today` is null when stats is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["FindIndex"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_areas: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["Empty"];
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: {
                            countries: {
                                country_code: string;
                                name: string;
                                name_en: string | null;
                            }[];
                            provinces: {
                                code: string;
                                name: string;
                                name_en: string;
                                short_name: string;
                            }[];
                            version: string;
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_domain_by_ip: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ReverseDnsForm"];
                "multipart/form-data": components["schemas"]["ReverseDnsForm"];
            };
        };
        responses: {
            /** @description `data` is the address and its names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["ReverseDns"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_into_add: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["VisitForm"];
                "multipart/form-data": components["schemas"]["VisitForm"];
            };
        };
        responses: {
            /** @description `data` is null once Kafka has the visit. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: null;
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_notice: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NoticeForm"];
                "multipart/form-data": components["schemas"]["NoticeForm"];
            };
        };
        responses: {
            /** @description `data.list` are the notices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NoticeList"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_whois: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["WhoisForm"];
                "multipart/form-data": components["schemas"]["WhoisForm"];
            };
        };
        responses: {
            /** @description `data` is the servers asked, their answers and a few parsed fields. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["WhoisAnswer"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    global_country_count: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["CountryPageForm"];
                "multipart/form-data": components["schemas"]["CountryPageForm"];
            };
        };
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["DatasetVersion"] & components["schemas"]["Paged"] & {
                            addresses: components["schemas"]["Counts"];
                            list?: components["schemas"]["CountryRow"][];
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    global_country_trend: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["CountryTrendForm"];
                "multipart/form-data": components["schemas"]["CountryTrendForm"];
            };
        };
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: {
                            country: null | {
                                country_code: string;
                                name: string;
                            };
                            dataset: components["schemas"]["DatasetHistory"];
                            lookups: components["schemas"]["LookupTrend"];
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    global_country_update: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["CountryPageForm"];
                "multipart/form-data": components["schemas"]["CountryPageForm"];
            };
        };
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["DatasetVersion"] & components["schemas"]["Paged"] & {
                            addresses: components["schemas"]["Counts"] & components["schemas"]["CountsChange"];
                            list?: (components["schemas"]["CountryRow"] & components["schemas"]["CountsChange"])[];
                            previous: components["schemas"]["DatasetVersion"] | null;
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    global_ip_total: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["Empty"];
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["DatasetVersion"] & {
                            addresses: components["schemas"]["Counts"];
                            china: components["schemas"]["Counts"];
                            /** @description countries with addresses */
                            countries: number;
                            idc_organizations: number;
                            unlocated: components["schemas"]["Counts"];
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    idc_list: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["IdcListForm"];
                "multipart/form-data": components["schemas"]["IdcListForm"];
            };
        };
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["Paged"] & {
                            list?: components["schemas"]["IdcRow"][];
                            province: components["schemas"]["ProvinceRow"] | null;
                            version: string;
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    idc_prov_list: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["Empty"];
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: {
                            idc_organizations: number;
                            list: components["schemas"]["ProvinceRow"][];
                            version: string;
                        };
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    ip_error_add: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["IpErrorForm"];
                "multipart/form-data": components["schemas"]["IpErrorForm"];
            };
        };
        responses: {
            /** @description content's Chinese msg when nothing to correct is given. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["Submission"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    ip_search_domain: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["DomainForm"];
                "multipart/form-data": components["schemas"]["DomainForm"];
            };
        };
        responses: {
            /** @description `data` is the domain and its looked-up addresses. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["DomainAnswer"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    ip_search_Domin_new: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["DomainForm"];
                "multipart/form-data": components["schemas"]["DomainForm"];
            };
        };
        responses: {
            /** @description `data` is the domain and its looked-up addresses. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["DomainAnswer"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    ip_search_zone: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["Ip"];
        responses: {
            200: components["responses"]["IpView"];
        };
    };
    ip_search_zone_new: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["Ip"];
        responses: {
            200: components["responses"]["IpView"];
        };
    };
    ip_self_search: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["Empty"];
        responses: {
            200: components["responses"]["IpView"];
        };
    };
    news_asn_detail: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsDetailForm"];
                "multipart/form-data": components["schemas"]["NewsDetailForm"];
            };
        };
        responses: {
            /** @description code 404 when the id is unknown, unpublished or not a asn article. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsDetail"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_asn_list: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsListForm"];
                "multipart/form-data": components["schemas"]["NewsListForm"];
            };
        };
        responses: {
            /** @description `data.list` is one page of summaries; sample articles have is_sample true. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsList"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_asn_recommend: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsRecommendForm"];
                "multipart/form-data": components["schemas"]["NewsRecommendForm"];
            };
        };
        responses: {
            /** @description `data.list` never contains the given id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsRecommend"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_industry_detail: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsDetailForm"];
                "multipart/form-data": components["schemas"]["NewsDetailForm"];
            };
        };
        responses: {
            /** @description code 404 when the id is unknown, unpublished or not a industry article. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsDetail"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_industry_list: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsListForm"];
                "multipart/form-data": components["schemas"]["NewsListForm"];
            };
        };
        responses: {
            /** @description `data.list` is one page of summaries; sample articles have is_sample true. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsList"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_industry_recommend: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsRecommendForm"];
                "multipart/form-data": components["schemas"]["NewsRecommendForm"];
            };
        };
        responses: {
            /** @description `data.list` never contains the given id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsRecommend"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_ip_detail: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsDetailForm"];
                "multipart/form-data": components["schemas"]["NewsDetailForm"];
            };
        };
        responses: {
            /** @description code 404 when the id is unknown, unpublished or not a ip article. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsDetail"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_ip_list: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsListForm"];
                "multipart/form-data": components["schemas"]["NewsListForm"];
            };
        };
        responses: {
            /** @description `data.list` is one page of summaries; sample articles have is_sample true. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsList"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_ip_recommend: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsRecommendForm"];
                "multipart/form-data": components["schemas"]["NewsRecommendForm"];
            };
        };
        responses: {
            /** @description `data.list` never contains the given id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsRecommend"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_report_detail: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsDetailForm"];
                "multipart/form-data": components["schemas"]["NewsDetailForm"];
            };
        };
        responses: {
            /** @description code 404 when the id is unknown, unpublished or not a report article. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsDetail"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_report_list: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsListForm"];
                "multipart/form-data": components["schemas"]["NewsListForm"];
            };
        };
        responses: {
            /** @description `data.list` is one page of summaries; sample articles have is_sample true. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsList"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    news_report_recommend: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["NewsRecommendForm"];
                "multipart/form-data": components["schemas"]["NewsRecommendForm"];
            };
        };
        responses: {
            /** @description `data.list` never contains the given id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["NewsRecommend"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the OpenAPI document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    pc_uv_pv: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["UvPvForm"];
                "multipart/form-data": components["schemas"]["UvPvForm"];
            };
        };
        responses: {
            /** @description `data` has the totals and one entry per day. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["VisitCounts"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    phone_login: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["PasswordLoginForm"];
                "multipart/form-data": components["schemas"]["PasswordLoginForm"];
            };
        };
        responses: {
            200: components["responses"]["SignedIn"];
        };
    };
    position_add: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["PositionForm"];
                "multipart/form-data": components["schemas"]["PositionForm"];
            };
        };
        responses: {
            /** @description `msg` 提交成功，感谢您的反馈. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["Submission"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    query_ip_batch_zone: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["BatchIpsForm"];
                "multipart/form-data": components["schemas"]["BatchIpsForm"];
            };
        };
        responses: {
            /** @description The .xlsx file (Content-Disposition attachment, filename IP批量查询结果-<rows>.xlsx), or the envelope with code 400, 429, 500 or 503 when the call failed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
        };
    };
    regist_cooperation: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["CooperationForm"];
                "multipart/form-data": components["schemas"]["CooperationForm"];
            };
        };
        responses: {
            200: components["responses"]["SignedIn"];
        };
    };
    report_generate: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["IpForm"];
                "multipart/form-data": components["schemas"]["IpForm"];
            };
        };
        responses: {
            /** @description `data` is the report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["IpReport"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    report_generate_examples: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["Empty"];
        responses: {
            /** @description `data` is the list. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["ReportExample"][];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    report_generate_file: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ReportFileForm"];
                "multipart/form-data": components["schemas"]["ReportFileForm"];
            };
        };
        responses: {
            /** @description The file, or the envelope when the call failed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "application/pdf": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
        };
    };
    search_count: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["DaysForm"];
                "multipart/form-data": components["schemas"]["DaysForm"];
            };
        };
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["LookupTrend"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    search_count_new: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["DaysForm"];
                "multipart/form-data": components["schemas"]["DaysForm"];
            };
        };
        responses: {
            /** @description code 503 while the dataset served has no statistics or a back end is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["LookupTrend"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    send_sms_code: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["SmsCodeForm"];
                "multipart/form-data": components["schemas"]["SmsCodeForm"];
            };
        };
        responses: {
            /** @description `msg` 验证码已发送; `data` says when another code may be sent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["SmsSent"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    traceroute_task_add: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TracerouteAddForm"];
                "multipart/form-data": components["schemas"]["TracerouteAddForm"];
            };
        };
        responses: {
            /** @description `data` is the task. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["TracerouteTask"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    traceroute_task_get: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TracerouteGetForm"];
                "multipart/form-data": components["schemas"]["TracerouteGetForm"];
            };
        };
        responses: {
            /** @description `data` is the progress. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["TracerouteProgress"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    traceroute_task_site: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["Empty"];
        responses: {
            /** @description `data` is the list (empty when no site is alive). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["ProbeSite"][];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    upload_ip_xlsx: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["BatchUploadForm"];
                "multipart/form-data": components["schemas"]["BatchUploadForm"];
            };
        };
        responses: {
            /** @description The .xlsx file, or the envelope with code 400, 429, 500 or 503 when the call failed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
        };
    };
    user_info: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["Empty"];
        responses: {
            /** @description `data` is the user and `unread`; code 506 without a valid token. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["UserInfo"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    user_login_phone_code: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["CodeLoginForm"];
                "multipart/form-data": components["schemas"]["CodeLoginForm"];
            };
        };
        responses: {
            200: components["responses"]["SignedIn"];
        };
    };
    user_regis: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["RegisterForm"];
                "multipart/form-data": components["schemas"]["RegisterForm"];
            };
        };
        responses: {
            200: components["responses"]["SignedIn"];
        };
    };
    user_update_password_phone: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ResetPasswordForm"];
                "multipart/form-data": components["schemas"]["ResetPasswordForm"];
            };
        };
        responses: {
            /** @description `msg` is auth's text; `data` is null. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: null;
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    vip_info: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The VIP state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["VipStatus"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    vip_order_add: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["VipPlanForm"];
                "multipart/form-data": components["schemas"]["VipPlanForm"];
            };
        };
        responses: {
            /** @description `msg` 订单已创建，请完成支付; 400 您已是该套餐的会员 / 请选择正确的套餐; 503 while billing does not know a brand-new account yet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["VipOrder"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    vip_order_get: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["VipOrderForm"];
                "multipart/form-data": components["schemas"]["VipOrderForm"];
            };
        };
        responses: {
            /** @description The order and the VIP state; 404 订单不存在. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["VipOrderState"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    vip_plan_list: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plans. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["VipPlans"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    visit_history_add: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["VisitForm"];
                "multipart/form-data": components["schemas"]["VisitForm"];
            };
        };
        responses: {
            /** @description `data` is null once Kafka has the visit. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: null;
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    web_init: {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: components["requestBodies"]["Empty"];
        responses: {
            /** @description `data` is the start-up data; 503 when content is down. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["WebInit"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    "v2/card": {
        parameters: {
            query: {
                card: string;
            };
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `data` is the check of the number. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["BankCardCheck"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    "v2/get_area": {
        parameters: {
            query: {
                /** @description One IPv4 or IPv6 address (no port, zone or prefix length). */
                ip: components["parameters"]["IpQuery"];
            };
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `data` is the place of the address. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["AreaView"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    "v2/get_area.post": {
        parameters: {
            query?: never;
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: components["requestBodies"]["Ip"];
        responses: {
            /** @description `data` is the place of the address. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["AreaView"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    "v2/id_card": {
        parameters: {
            query: {
                /** @description 18-digit (or legacy 15-digit) ID number */
                id: string;
            };
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `data` is the check of the number. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["IdCardCheck"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    "v2/phone": {
        parameters: {
            query: {
                phone: string;
            };
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `data` is the check of the number. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["PhoneCheck"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    "v2/query": {
        parameters: {
            query: {
                /** @description One IPv4 or IPv6 address (no port, zone or prefix length). */
                ip: components["parameters"]["IpQuery"];
            };
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["IpView"];
        };
    };
    "v2/queryDomain": {
        parameters: {
            query: {
                domain: string;
            };
            header?: {
                plat?: components["parameters"]["Plat"];
                /** @description Session token of a logged-in user (from phone_login, user_login_phone_code or user_regis). */
                token?: components["parameters"]["Token"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `data` is the domain and its looked-up addresses. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": (components["schemas"]["Success"] & {
                        data?: components["schemas"]["DomainAnswer"];
                    }) | components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
