// Generated from services/bff-en/openapi/public-api.yaml by `npm run gen:api -w @ipdata/frontend-en`.
// Do not edit: change the OpenAPI document and regenerate (a unit test fails when they differ).

export type paths = {
    "/v1/asn/{asn}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An autonomous system and its announced prefixes
         * @description Name, organisation, country, prefix counts and one page of the prefixes.
         */
        get: operations["getAsn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Up to 1,000 addresses in one request
         * @description One result or one error per item, in input order. Each valid public address counts as
         *     one lookup; invalid and reserved ones are free. When the quota has room for only some
         *     addresses, the rest carry the error `quota_exceeded` (the batch never goes past the quota).
         */
        post: operations["postBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an asynchronous job for a large list
         * @description Up to 1,000,000 lines: CSV (the first column is the address; a header row is skipped),
         *     NDJSON (strings or objects with `ip`) or one address per line. Answers 202 with the job;
         *     follow it at `GET /v1/bulk/{id}`. Counting as in batch; the quota is checked before the
         *     job starts, and a job that uses it up stops with the state `quota_exhausted`.
         */
        post: operations["postBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A bulk job's state and progress */
        get: operations["getBulkJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/bulk/{id}/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A finished bulk job's result file
         * @description Streams CSV or NDJSON (the job's format), one row per input line in input order. A job
         *     that has not finished answers 412 `job_not_finished`; a failed one 412 `job_failed`.
         */
        get: operations["getBulkResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/databases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The downloadable databases and which of them the key's plan includes
         * @description The files of the current dataset version (rebuilt every 7 days): geolocation, privacy and
         *     ASN data as CSV and NDJSON, and every dataset in one file (`complete`) in our binary
         *     format (`ipdat`) and as a MaxMind DB (`mmdb`). `entitled` says whether the account's data
         *     download plan includes the file; `sha256` lets a script skip a file it already has
         *     (scripts/ipdata-update.ts). Costs no lookup.
         */
        get: operations["listDatabases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/databases/{database}/{format}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirect to a fresh signed download link
         * @description Answers 302 with `Location`: a link to the file valid for 10 minutes, bound to the
         *     account and the file, served with `Content-Length`, `ETag` (the sha256), `Accept-Ranges`
         *     and HTTP Range, so a cut download resumes (`curl -L -C - -o ipdata-city.mmdb ...`; a
         *     resume after the link expired asks this route again). Every answer is a new link and
         *     counts against the account's daily download limit (429 `download_limit_reached`, resets
         *     at 00:00 UTC). A file the plan does not include answers 403 `plan_excludes_database`
         *     naming the plans that include it. Costs no lookup.
         */
        get: operations["getDatabaseDownload"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/databases/{database}/sample.{format}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redirect to a database's free sample (the first 1,000 rows)
         * @description No key needed. Samples exist in `csv` and `ndjson`; `Location` is the file.
         */
        get: operations["getDatabaseSample"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domain/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Resolve a domain name and look up each address
         * @description The A and AAAA records of the name, each looked up (counted as one lookup per public
         *     address). A name without A/AAAA records answers 404 `domain_not_found`; DNS servers
         *     that do not answer in time 504 `dns_timeout`; other DNS failures 502 `dns_failed`.
         */
        get: operations["getDomain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Everything about the caller's own address
         * @description As `GET /v1/ip/{ip}` for the address the request came from. `X-Forwarded-For` is
         *     believed only from the configured trusted proxies.
         */
        get: operations["getOwnIp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ip/{ip}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Everything about one address
         * @description The full IP info result: location, ASN, time zone, currency, privacy flags, the range
         *     (`start_ip`, `end_ip`) and the one CIDR block of it holding the address (`network`).
         *     A special-purpose address answers 200 with `reserved` set, free of charge.
         */
        get: operations["getIp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ip/{ip}/{field}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One field of an address, as plain text
         * @description `GET /v1/ip/8.8.8.8/country_code` answers `US`. A dot-path names a nested member
         *     (`asn.asn`); a field that is null answers an empty body; an object member answers JSON text.
         */
        get: operations["getIpField"];
        put?: never;
        post?: never;
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
        /** This document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/privacy/{ip}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Privacy detection for one address
         * @description `is_proxy` and the flags behind it (VPN, Tor, data centre, proxy, relay, hosting).
         */
        get: operations["getPrivacy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The calling key's plan and the month's usage
         * @description Plan, monthly quota, used, remaining, reset time and per-day counts of the current month. Costs no lookup.
         */
        get: operations["getUsage"];
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
        Asn: {
            asn: number;
            country_code: string | null;
            ipv4_prefix_count: number;
            ipv6_prefix_count: number;
            name: string | null;
            organization: string | null;
            page: number;
            page_size: number;
            prefixes: string[];
            total_prefixes: number;
            usage_type: string | null;
        };
        AsnSelection: {
            asn?: number;
            country_code?: string | null;
            ipv4_prefix_count?: number;
            ipv6_prefix_count?: number;
            name?: string | null;
            organization?: string | null;
            page?: number;
            page_size?: number;
            prefixes?: string[];
            total_prefixes?: number;
            usage_type?: string | null;
        };
        BatchAnswerSelection: (components["schemas"]["IpInfoSelection"] | components["schemas"]["BatchError"])[];
        /** @description An input that got no answer, and why (free of charge). */
        BatchError: {
            error: {
                /** @enum {string} */
                code: "invalid_ip" | "quota_exceeded";
                message: string;
            };
            /** @description The input as sent. */
            query: unknown;
        };
        BatchItem: components["schemas"]["IpInfo"] | components["schemas"]["BatchError"];
        BatchRequest: string[] | {
            ips: string[];
        };
        BulkJob: {
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When the result file is deleted.
             */
            expires_at: string;
            /** Format: date-time */
            finished_at: string | null;
            /**
             * @description Format of the result file.
             * @enum {string}
             */
            format: "csv" | "ndjson";
            id: string;
            /** @description Why the job stopped (quota_exhausted */
            message: string | null;
            progress: {
                /** @description Lookups counted so far. */
                accepted: number;
                /** @description Invalid and reserved lines so far (free). */
                free: number;
                lines_done: number;
                percent: number;
                /** @description Known once the input is read. */
                total_lines: number | null;
            };
            /** @description Path of the result once the job completed or stopped with a partial result. */
            result_url: string | null;
            /** Format: date-time */
            started_at: string | null;
            /** @enum {string} */
            state: "queued" | "running" | "completed" | "quota_exhausted" | "failed";
        };
        /** @description CSV (RFC 4180): a header row, then one row per answer; nested members flattened with dots (`asn.asn`). */
        Csv: string;
        Currency: {
            code: string;
            name: string | null;
            symbol: string | null;
        } | null;
        DatabaseCatalogue: {
            databases: components["schemas"]["DatabaseFile"][];
            /** @description The account's data download plan. */
            plan: {
                datasets: string[];
                id: string;
                /** @description null while the plan catalogue cannot be read. */
                name: string | null;
            };
            /** @description The current dataset version; null before the first is published. */
            version: string | null;
        };
        DatabaseFile: {
            /**
             * @example geolocation
             * @example privacy
             * @example asn
             * @example complete
             */
            database: string;
            /** @description The datasets the file carries; a plan must include all of them. */
            datasets: string[];
            /** @description Path of GET /v1/databases/{database}/{format}. */
            download_url: string;
            /** @description The account's data download plan includes the file. */
            entitled: boolean;
            /** @example ipdata-city.mmdb */
            file_name: string;
            /**
             * @example csv
             * @example ndjson
             * @example ipdat
             * @example mmdb
             */
            format: string;
            /** @description Rows (CSV, NDJSON), ranges (ipdat) or networks (mmdb); 0 when unknown. */
            row_count: number;
            /** @description Path of the free sample, or null when the format has none. */
            sample_url: string | null;
            /** @description Of the whole file (also its ETag). */
            sha256: string;
            size_bytes: number;
            /** @example every 7 days */
            update_frequency: string;
            /**
             * Format: date-time
             * @description When the version was built.
             */
            updated_at: string | null;
            /** @description The dataset version the file belongs to. */
            version: string;
        };
        DayCount: {
            count: number;
            /** Format: date */
            date: string;
        };
        Domain: {
            addresses: components["schemas"]["IpInfo"][];
            /** @description The name in ASCII form. */
            domain: string;
        };
        DomainSelection: {
            addresses: components["schemas"]["IpInfoSelection"][];
            domain: string;
        };
        DownloadLink: {
            /** Format: date-time */
            expires_at: string | null;
            file_name: string;
            /** @description Links the account may still create today (UTC). */
            remaining_today: number;
            sha256: string;
            size_bytes: number;
            /**
             * Format: uri
             * @description The signed link (also in Location).
             */
            url: string;
        };
        Error: {
            error: {
                /** @description Stable machine-readable code. */
                code: string;
                /** @description What went wrong */
                message: string;
                /** @description What the caller can do about it. */
                resolution: string;
            };
        };
        IpAsn: {
            asn: number;
            asn_name: string | null;
            domain: string | null;
            isp: string | null;
            organization: string | null;
            usage_type: string | null;
        } | null;
        /** @description The IP info result. Every member is present; one without a source is null, never omitted or invented. */
        IpInfo: {
            asn: components["schemas"]["IpAsn"];
            calling_code: string | null;
            city_name: string | null;
            country_capital: string | null;
            country_code: string | null;
            country_flag: string | null;
            country_name: string | null;
            currency: components["schemas"]["Currency"];
            /** @description No source yet; always null. */
            elevation: number | null;
            end_ip: string | null;
            /** @description Canonical form: dotted quad, RFC 5952 IPv6. */
            ip: string;
            is_eu: boolean | null;
            is_proxy: boolean | null;
            latitude: number | null;
            longitude: number | null;
            /** @description The CIDR block of the answering range that holds `ip`. */
            network: string | null;
            proxy_data: components["schemas"]["ProxyData"];
            region_name: string | null;
            reserved: components["schemas"]["ReservedWord"];
            start_ip: string | null;
            time_zone: components["schemas"]["TimeZone"];
            /** @description No source yet; always null. */
            weather_station_code: string | null;
            /** @description No source yet; always null. */
            weather_station_name: string | null;
            zip_code: string | null;
        };
        /** @description An IpInfo with `fields` applied (nested objects may be reduced the same way). */
        IpInfoSelection: {
            asn?: components["schemas"]["PartialObject"];
            calling_code?: string | null;
            city_name?: string | null;
            country_capital?: string | null;
            country_code?: string | null;
            country_flag?: string | null;
            country_name?: string | null;
            currency?: components["schemas"]["PartialObject"];
            elevation?: number | null;
            end_ip?: string | null;
            ip?: string;
            is_eu?: boolean | null;
            is_proxy?: boolean | null;
            latitude?: number | null;
            longitude?: number | null;
            network?: string | null;
            proxy_data?: components["schemas"]["PartialObject"];
            region_name?: string | null;
            reserved?: components["schemas"]["ReservedWord"];
            start_ip?: string | null;
            time_zone?: components["schemas"]["PartialObject"];
            weather_station_code?: string | null;
            weather_station_name?: string | null;
            zip_code?: string | null;
        };
        /** @description A nested member reduced by `fields` (dot-paths). */
        PartialObject: {
            [key: string]: string | number | boolean | null;
        } | null;
        Privacy: {
            ip: string;
            is_proxy: boolean | null;
            proxy_data: components["schemas"]["ProxyData"];
            reserved: components["schemas"]["ReservedWord"];
        };
        PrivacySelection: {
            ip?: string;
            is_proxy?: boolean | null;
            proxy_data?: components["schemas"]["PartialObject"];
            reserved?: components["schemas"]["ReservedWord"];
        };
        ProxyData: {
            is_data_center: boolean;
            is_hosting: boolean;
            is_proxy: boolean;
            is_relay: boolean;
            is_tor: boolean;
            is_vpn: boolean;
        } | null;
        /**
         * @description Why a special-purpose address has no location; null for ordinary addresses.
         * @enum {string|null}
         */
        ReservedWord: "private" | "loopback" | "link_local" | "multicast" | "documentation" | "unspecified" | "shared_address_space" | "benchmarking" | "broadcast" | "other" | null;
        SampleLink: {
            file_name: string;
            sha256: string;
            size_bytes: number;
            /** Format: uri */
            url: string;
        };
        TimeZone: {
            /** Format: date-time */
            current_time: string;
            /** @description IANA time zone name. */
            name: string;
            offset: string;
        } | null;
        Usage: {
            key_id: string;
            /** @description This key's lookups per day this month. */
            key_per_day: components["schemas"]["DayCount"][];
            /** @description The account's lookups per day this month. */
            per_day: components["schemas"]["DayCount"][];
            plan: {
                burst_per_second: number;
                id: string;
                lookups_per_month: number;
                /** @description Hard cap including overage; null = none. */
                max_lookups_per_month: number | null;
                overage_allowed: boolean;
                /** @enum {string} */
                tier: "free" | "standard" | "business" | "enterprise";
            };
            /** @description null when quota accounting is off (benchmarks only). */
            quota: {
                limit: number;
                overage: number;
                remaining: number;
                /** Format: date-time */
                reset_at: string;
                used: number;
            } | null;
        };
    };
    responses: {
        /** @description An upstream (DNS) failed (`dns_failed`). */
        BadGateway: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The input is wrong; the message names it. Codes: `invalid_ip`, `invalid_field`,
         *     `invalid_format`, `invalid_asn`, `invalid_page`, `invalid_page_size`, `invalid_domain`,
         *     `malformed_json`, `invalid_batch`, `empty_batch`, `batch_too_large`, `unknown_client_ip`,
         *     bulk input errors (`too_many_lines`, `line_too_long`, `input_too_large`, `empty_input`).
         */
        BadRequest: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "invalid_ip",
                 *         "message": "\"8.8.8\" is not an IPv4 or IPv6 address.",
                 *         "resolution": "Send one address such as 8.8.8.8 or 2001:4860:4860::8888 (no port, no zone, no CIDR suffix)."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A revoked (or rotated-away) key, or a plan without this product (`plan_excludes_database`, whose message names the plans that include the file). */
        Forbidden: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An upstream (DNS) did not answer in time (`dns_timeout`). */
        GatewayTimeout: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The server failed (`internal_error`); nothing about internals is said. */
        InternalError: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path exists but not for this method (`method_not_allowed`); `Allow` lists the methods. */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Nothing under this path or identifier (`not_found`, `asn_not_found`, `domain_not_found`, `job_not_found`, `database_not_found` and `sample_not_found`, whose message lists the valid names). */
        NotFound: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is larger than the operation takes (`payload_too_large`); the connection is closed. */
        PayloadTooLarge: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The job has not finished (`job_not_finished`) or failed (`job_failed`). */
        PreconditionFailed: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A dependency is down (`unavailable`, `quota_unavailable` for free keys while the quota store is down, `downloads_unavailable`). */
        ServiceUnavailable: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The monthly quota is used up (`quota_exceeded`), the key's per-second burst limit was passed (`rate_limited`) or the account's daily download limit is reached (`download_limit_reached`). */
        TooManyRequests: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": {
                 *         "code": "quota_exceeded",
                 *         "message": "The monthly quota of 50000 lookups is used up.",
                 *         "resolution": "Wait until the quota resets (X-RateLimit-Reset) or upgrade your plan."
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No key, a malformed Authorization header, or an unknown key (`missing_api_key`, `invalid_authorization_header`, `api_key_invalid`). */
        Unauthorized: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body's Content-Type is not one the operation takes (`unsupported_media_type`). */
        UnsupportedMediaType: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description `geolocation`, `privacy`, `asn` or `complete` (every dataset in one file); see GET /v1/databases. */
        Database: string;
        /** @description `csv`, `ndjson`, `ipdat` (our binary format) or `mmdb` (MaxMind DB); which exist per database: GET /v1/databases. */
        DatabaseFormat: string;
        /**
         * @description Comma-separated members to keep, by dot-path (`country_code,asn.asn`), or to leave out
         *     with a leading `-` (`-time_zone,-currency`). Unknown names answer 400 `invalid_field`.
         */
        Fields: string;
        /** @description `csv` answers CSV (as `Accept: text/csv` does); `json` (the default) JSON. Anything else answers 400 `invalid_format`. */
        Format: "json" | "csv";
        /** @description An IPv4 or IPv6 address (`::ffff:a.b.c.d` answers as IPv4; no port, zone or CIDR suffix). */
        Ip: string;
        /** @description The job id from `POST /v1/bulk`. */
        JobId: string;
        /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
        KeyQuery: string;
        /** @description `1` or `true` indents the JSON answer. */
        Pretty: "0" | "1" | "true" | "false";
    };
    requestBodies: never;
    headers: {
        /** @description The methods the path allows. */
        Allow: string;
        /** @description IETF draft-ietf-httpapi-ratelimit-headers: `"monthly";r=<remaining>;t=<seconds to reset>`. */
        RateLimit: string;
        /** @description IETF draft-ietf-httpapi-ratelimit-headers policy: `"monthly";q=<limit>;w=<window seconds>`. */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": string;
        /** @description Lookups included per month in the key's plan (0 without a valid key). */
        "X-RateLimit-Limit": string;
        /** @description Included lookups left this month. */
        "X-RateLimit-Remaining": string;
        /** @description When the monthly quota resets, in Unix seconds. */
        "X-RateLimit-Reset": string;
        /** @description This request's id (quote it to support; also the usage event's id). */
        "X-Request-Id": string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    getAsn: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated members to keep, by dot-path (`country_code,asn.asn`), or to leave out
                 *     with a leading `-` (`-time_zone,-currency`). Unknown names answer 400 `invalid_field`.
                 */
                fields?: components["parameters"]["Fields"];
                /** @description `csv` answers CSV (as `Accept: text/csv` does); `json` (the default) JSON. Anything else answers 400 `invalid_format`. */
                format?: components["parameters"]["Format"];
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
                /** @description The page of prefixes. */
                page?: number;
                /** @description Prefixes per page. */
                page_size?: number;
                /** @description `1` or `true` indents the JSON answer. */
                pretty?: components["parameters"]["Pretty"];
            };
            header?: never;
            path: {
                /** @description The AS number, `AS13335` or `13335`. */
                asn: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The AS. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "asn": 13335,
                     *       "name": "CLOUDFLARENET",
                     *       "organization": "Cloudflare, Inc.",
                     *       "country_code": "US",
                     *       "usage_type": null,
                     *       "ipv4_prefix_count": 1,
                     *       "ipv6_prefix_count": 1,
                     *       "prefixes": [
                     *         "1.1.1.0/24",
                     *         "2606:4700::/32"
                     *       ],
                     *       "page": 1,
                     *       "page_size": 100,
                     *       "total_prefixes": 2
                     *     }
                     */
                    "application/json": components["schemas"]["Asn"];
                    "text/csv": components["schemas"]["Csv"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postBatch: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated members to keep, by dot-path (`country_code,asn.asn`), or to leave out
                 *     with a leading `-` (`-time_zone,-currency`). Unknown names answer 400 `invalid_field`.
                 */
                fields?: components["parameters"]["Fields"];
                /** @description `csv` answers CSV (as `Accept: text/csv` does); `json` (the default) JSON. Anything else answers 400 `invalid_format`. */
                format?: components["parameters"]["Format"];
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
                /** @description `1` or `true` indents the JSON answer. */
                pretty?: components["parameters"]["Pretty"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchRequest"];
            };
        };
        responses: {
            /** @description One item per input, in order. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchItem"][];
                    /**
                     * @example ip,country_code,error
                     *     8.8.8.8,US,
                     *     ,,invalid_ip
                     */
                    "text/csv": components["schemas"]["Csv"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postBulk: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated members to keep, by dot-path (`country_code,asn.asn`), or to leave out
                 *     with a leading `-` (`-time_zone,-currency`). Unknown names answer 400 `invalid_field`.
                 */
                fields?: components["parameters"]["Fields"];
                /** @description Format of the result file. */
                format?: "csv" | "ndjson";
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-ndjson": string;
                "text/csv": string;
                /**
                 * @example 8.8.8.8
                 *     1.1.1.1
                 */
                "text/plain": string;
            };
        };
        responses: {
            /** @description The job was accepted. */
            202: {
                headers: {
                    /** @description The job's URL. */
                    Location: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkJob"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getBulkJob: {
        parameters: {
            query?: {
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
                /** @description `1` or `true` indents the JSON answer. */
                pretty?: components["parameters"]["Pretty"];
            };
            header?: never;
            path: {
                /** @description The job id from `POST /v1/bulk`. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkJob"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getBulkResult: {
        parameters: {
            query?: {
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
            };
            header?: never;
            path: {
                /** @description The job id from `POST /v1/bulk`. */
                id: components["parameters"]["JobId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The result file. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                    "text/csv": components["schemas"]["Csv"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDatabases: {
        parameters: {
            query?: {
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
                /** @description `1` or `true` indents the JSON answer. */
                pretty?: components["parameters"]["Pretty"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseCatalogue"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDatabaseDownload: {
        parameters: {
            query?: {
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
            };
            header?: never;
            path: {
                /** @description `geolocation`, `privacy`, `asn` or `complete` (every dataset in one file); see GET /v1/databases. */
                database: components["parameters"]["Database"];
                /** @description `csv`, `ndjson`, `ipdat` (our binary format) or `mmdb` (MaxMind DB); which exist per database: GET /v1/databases. */
                format: components["parameters"]["DatabaseFormat"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signed link, in `Location` and in the body. */
            302: {
                headers: {
                    /** @description Every link is fresh and counted; nothing may cache it. */
                    "Cache-Control": "no-store";
                    /** @description The signed link (expires in 10 minutes). */
                    Location: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DownloadLink"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDatabaseSample: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `geolocation`, `privacy`, `asn` or `complete` (every dataset in one file); see GET /v1/databases. */
                database: components["parameters"]["Database"];
                /** @description `csv`, `ndjson`, `ipdat` (our binary format) or `mmdb` (MaxMind DB); which exist per database: GET /v1/databases. */
                format: components["parameters"]["DatabaseFormat"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sample's URL, in `Location` and in the body. */
            302: {
                headers: {
                    /** @description The sample file. */
                    Location: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SampleLink"];
                };
            };
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDomain: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated members to keep, by dot-path (`country_code,asn.asn`), or to leave out
                 *     with a leading `-` (`-time_zone,-currency`). Unknown names answer 400 `invalid_field`.
                 */
                fields?: components["parameters"]["Fields"];
                /** @description `csv` answers CSV (as `Accept: text/csv` does); `json` (the default) JSON. Anything else answers 400 `invalid_format`. */
                format?: components["parameters"]["Format"];
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
                /** @description `1` or `true` indents the JSON answer. */
                pretty?: components["parameters"]["Pretty"];
            };
            header?: never;
            path: {
                /** @description A domain name (Unicode names are converted to their ASCII form). */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The name's addresses, each with its data. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                    "text/csv": components["schemas"]["Csv"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    getOwnIp: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated members to keep, by dot-path (`country_code,asn.asn`), or to leave out
                 *     with a leading `-` (`-time_zone,-currency`). Unknown names answer 400 `invalid_field`.
                 */
                fields?: components["parameters"]["Fields"];
                /** @description `csv` answers CSV (as `Accept: text/csv` does); `json` (the default) JSON. Anything else answers 400 `invalid_format`. */
                format?: components["parameters"]["Format"];
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
                /** @description `1` or `true` indents the JSON answer. */
                pretty?: components["parameters"]["Pretty"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's address's data (a loopback caller gets `reserved`). */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IpInfo"];
                    "text/csv": components["schemas"]["Csv"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getIp: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated members to keep, by dot-path (`country_code,asn.asn`), or to leave out
                 *     with a leading `-` (`-time_zone,-currency`). Unknown names answer 400 `invalid_field`.
                 */
                fields?: components["parameters"]["Fields"];
                /** @description `csv` answers CSV (as `Accept: text/csv` does); `json` (the default) JSON. Anything else answers 400 `invalid_format`. */
                format?: components["parameters"]["Format"];
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
                /** @description `1` or `true` indents the JSON answer. */
                pretty?: components["parameters"]["Pretty"];
            };
            header?: never;
            path: {
                /** @description An IPv4 or IPv6 address (`::ffff:a.b.c.d` answers as IPv4; no port, zone or CIDR suffix). */
                ip: components["parameters"]["Ip"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The address's data. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IpInfo"];
                    /**
                     * @example ip,country_code,country_name
                     *     8.8.8.8,US,United States
                     */
                    "text/csv": components["schemas"]["Csv"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getIpField: {
        parameters: {
            query?: {
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
            };
            header?: never;
            path: {
                /** @description A field of the IP info result, or a dot-path into one (`asn.asn`). */
                field: string;
                /** @description An IPv4 or IPv6 address (`::ffff:a.b.c.d` answers as IPv4; no port, zone or CIDR suffix). */
                ip: components["parameters"]["Ip"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The field's value as text. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example US */
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                    };
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            500: components["responses"]["InternalError"];
        };
    };
    getPrivacy: {
        parameters: {
            query?: {
                /**
                 * @description Comma-separated members to keep, by dot-path (`country_code,asn.asn`), or to leave out
                 *     with a leading `-` (`-time_zone,-currency`). Unknown names answer 400 `invalid_field`.
                 */
                fields?: components["parameters"]["Fields"];
                /** @description `csv` answers CSV (as `Accept: text/csv` does); `json` (the default) JSON. Anything else answers 400 `invalid_format`. */
                format?: components["parameters"]["Format"];
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
                /** @description `1` or `true` indents the JSON answer. */
                pretty?: components["parameters"]["Pretty"];
            };
            header?: never;
            path: {
                /** @description An IPv4 or IPv6 address (`::ffff:a.b.c.d` answers as IPv4; no port, zone or CIDR suffix). */
                ip: components["parameters"]["Ip"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The address's privacy flags. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "ip": "8.8.8.8",
                     *       "is_proxy": false,
                     *       "proxy_data": {
                     *         "is_vpn": false,
                     *         "is_tor": false,
                     *         "is_data_center": true,
                     *         "is_proxy": false,
                     *         "is_relay": false,
                     *         "is_hosting": true
                     *       },
                     *       "reserved": null
                     *     }
                     */
                    "application/json": components["schemas"]["Privacy"];
                    "text/csv": components["schemas"]["Csv"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description The API key as a query parameter (least safe; see the apiKeyQuery scheme). */
                key?: components["parameters"]["KeyQuery"];
                /** @description `1` or `true` indents the JSON answer. */
                pretty?: components["parameters"]["Pretty"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
