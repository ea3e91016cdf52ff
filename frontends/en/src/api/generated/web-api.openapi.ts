// Generated from services/bff-en/openapi/web-api.yaml by `npm run gen:api -w @ipdata/frontend-en`.
// Do not edit: change the OpenAPI document and regenerate (a unit test fails when they differ).

export type paths = {
    "/api/confirm-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm the address with the token of the emailed link */
        post: operations["confirmEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The contact form, for visitors and logged-in users (the account goes with the message); stored, then acknowledged by mail; limited per visitor address */
        post: operations["submitContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/databases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The downloadable files (type, update frequency, last updated, size, sha256; entitled for the account's plan) */
        get: operations["listDatabases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/databases/{database}/{format}/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A signed download link (10 minutes; counted against the daily limit; recorded with the caller's address) */
        post: operations["createDownloadLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/databases/{database}/sample/{format}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The free sample's link (first 1,000 rows) */
        get: operations["getSampleLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/downloads/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's downloads (date and address), newest first, 20 per page */
        get: operations["listDownloadHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/init": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Start-up data; sets the csrf_token cookie when the browser has none */
        get: operations["getInit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listInvoices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listApiKeys"];
        put?: never;
        /** A new key; its secret is in this answer only */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace a key by a new one; the old one stops working at once */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in; sets the token cookie (7 days, 30 with remember_me); msg 'Login succeeded' */
        post: operations["logIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the session and clear the cookie (also when the session already ended) */
        post: operations["logOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The lookup tool - an IPv4 or IPv6 address, a domain (each address looked up) or nothing (the visitor's own address); limited per visitor address */
        get: operations["lookUp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/password/forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a reset link (the same answer for unknown addresses) */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/password/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with the token of the reset link */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The plan catalogue (pricing) */
        get: operations["listPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Save name and company; msg 'Your new information has been saved' */
        patch: operations["updateProfile"];
        trace?: never;
    };
    "/api/profile/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password (current, new, confirmation); other sessions end */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign up by email; answers the confirm-email notice (the same whether or not the address had an account) */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's current plan per kind ('Current Plan' on pricing) */
        get: operations["getSubscription"];
        put?: never;
        /** Subscribe - a paid plan answers the checkout URL (pay there; the plan applies when paid), FREE applies at once */
        post: operations["subscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/subscription/downgrade": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move to a cheaper plan at the end of the paid period */
        post: operations["scheduleDowngrade"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/unread": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getUnread"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboard - plan, the month's quota and overage, and a usage series per day (this month) or hour (48 h) */
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
        ApiKey: {
            created_at: components["schemas"]["NullableTime"];
            id: string;
            name: string;
            /** @description "ipd_" and the first characters of the secret, to recognise a key. */
            prefix: string;
            revoked_at: components["schemas"]["NullableTime"];
        };
        Failure: {
            /** @description The HTTP status; 506 for a session that ended. */
            code: number;
            data: null;
            /** @description The form field the failure concerns. */
            field?: string;
            /** @description The text shown to the user. */
            msg: string;
            /** @description Stable machine-readable reason, e.g. email_taken, csrf_token. */
            reason?: string;
        };
        Invoice: {
            amount_due_minor: number;
            currency: string;
            id: string;
            included_lookups: number;
            issued_at?: components["schemas"]["NullableTime"];
            lines: {
                amount_minor: number;
                description: string;
            }[];
            lookups: number;
            period_end: components["schemas"]["NullableTime"];
            period_start: components["schemas"]["NullableTime"];
            plan_id: string;
            total_minor: number;
        };
        /** @description The public API's IP info result (public-api.yaml, IpInfo), every field present, null when unknown. */
        IpInfo: {
            asn: Record<string, never> | null;
            city_name: string | null;
            country_code: string | null;
            country_name: string | null;
            currency: Record<string, never> | null;
            ip: string;
            is_proxy: boolean | null;
            latitude: number | null;
            longitude: number | null;
            proxy_data: Record<string, never> | null;
            region_name: string | null;
            reserved: string | null;
            time_zone: Record<string, never> | null;
        };
        /** Format: date-time */
        NullableTime: string | null;
        Ok: {
            /** @constant */
            code: 200;
            data: unknown;
            msg: string;
        };
        Plan: {
            card_required?: boolean;
            currency: string;
            datasets: string[];
            description?: string;
            /** @example api-standard-monthly */
            id: string;
            /** @enum {unknown} */
            interval: "month" | "year" | null;
            /** @enum {unknown} */
            kind: "api" | "download" | "vip";
            lookups_per_month: number;
            max_lookups_per_month?: number | null;
            name: string;
            /** @description Price per extra 1,000 requests; 0 = hard cap. */
            overage_price_per_1k_minor: number;
            price_minor: number;
            /** @description false: "Contact sales" (Enterprise). */
            self_checkout: boolean;
            support_level: string;
            /** @enum {unknown} */
            tier: "free" | "standard" | "business" | "enterprise";
        };
        Profile: {
            /** @description Entitlements, e.g. api:free, download:business. */
            auth: string[];
            company_name: string;
            created_at: components["schemas"]["NullableTime"];
            display_name: string;
            email: string;
            email_confirmed: boolean;
            id: string;
            name: string;
            /** @description Paid subscription kinds, comma-separated ("api,download"); empty when none. */
            payService: string;
        };
        Subscription: {
            id: string;
            /** @enum {unknown} */
            kind: "api" | "download" | "vip";
            period_end: components["schemas"]["NullableTime"];
            period_start: components["schemas"]["NullableTime"];
            plan_id: string;
            scheduled_plan_id: string | null;
            /** @enum {unknown} */
            tier: "free" | "standard" | "business" | "enterprise";
        };
    };
    responses: {
        /** @description Invalid input; `msg` is the form's message, `field` the field. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Failure"];
            };
        };
        /** @description Already so (e.g. the plan is the current one). */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Failure"];
            };
        };
        /** @description CSRF check failed (reason csrf_token / csrf_origin), or the plan does not allow it. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Failure"];
            };
        };
        /** @description Unknown id, link or file. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Failure"];
            };
        };
        /** @description Not possible in the current state (e.g. email not confirmed yet). */
        PreconditionFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Failure"];
            };
        };
        /** @description No session or it ended (code 506). */
        SessionInvalid: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Failure"];
            };
        };
        /** @description A rate limit; Retry-After says when to come back. */
        TooMany: {
            headers: {
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Failure"];
            };
        };
        /** @description A back end does not answer. */
        Unavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Failure"];
            };
        };
        /** @description The body is not JSON. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Failure"];
            };
        };
    };
    parameters: {
        /** @description The `csrf_token` cookie's value (from getInit). */
        Csrf: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    confirmEmail: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Confirmed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            /** @constant */
                            confirmed: true;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            412: components["responses"]["PreconditionFailed"];
        };
    };
    submitContact: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description One of getInit's contact_categories.
                     * @enum {unknown}
                     */
                    category?: "Custom plans" | "Support" | "Feedback";
                    /** @description Up to 2000 characters; line breaks allowed. */
                    description?: string;
                    /** @description Where the acknowledgement is mailed; up to 254 characters. */
                    email?: string;
                    /** @description Up to 100 characters. */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Stored; `msg` is the spec's 'Information submitted successfully, we will give you feedback as soon as possible' */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            /** @description The submission id (the reference in the acknowledgement mail). */
                            id: string;
                            /** Format: date-time */
                            received_at: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooMany"];
            503: components["responses"]["Unavailable"];
        };
    };
    listDatabases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalogue (the same as the public API's GET /v1/databases) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            databases: {
                                database: string;
                                /** @description The datasets the file carries; a plan must include every one. */
                                datasets?: string[];
                                /** @description The public API's path that downloads it. */
                                download_url?: string;
                                entitled: boolean;
                                file_name: string;
                                format: string;
                                row_count?: number;
                                /** @description The free sample (public API path); null when none. */
                                sample_url?: string | null;
                                sha256: string;
                                size_bytes: number;
                                update_frequency: string;
                                updated_at: components["schemas"]["NullableTime"];
                                version?: string;
                            }[];
                            /** @description The account's download plan (the free plan's for a visitor). */
                            plan: {
                                datasets?: string[];
                                id?: string;
                                name?: string | null;
                            };
                            version: string | null;
                        };
                    };
                };
            };
            503: components["responses"]["Unavailable"];
        };
    };
    createDownloadLink: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path: {
                database: string;
                format: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            expires_at: components["schemas"]["NullableTime"];
                            file_name: string | null;
                            /** Format: uri */
                            url: string;
                        };
                    };
                };
            };
            401: components["responses"]["SessionInvalid"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooMany"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSampleLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                database: string;
                format: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sample link */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            file_name: string;
                            sha256: string;
                            size_bytes: number;
                            /** Format: uri */
                            url: string;
                        };
                    };
                };
            };
            404: components["responses"]["NotFound"];
            503: components["responses"]["Unavailable"];
        };
    };
    listDownloadHistory: {
        parameters: {
            query?: {
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description History */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            daily_limit: number;
                            downloads: {
                                database: string;
                                downloaded_at: components["schemas"]["NullableTime"];
                                file_name: string;
                                format: string;
                                id: string;
                                ip: string;
                                size_bytes?: number;
                                version?: string;
                            }[];
                            page: number;
                            remaining_today: number;
                            total: number;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["SessionInvalid"];
        };
    };
    getInit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            client_ip: string | null;
                            contact_categories: string[];
                            csrf_token: string;
                            /** @example 50000 */
                            free_lookups_per_month: number;
                            /** @description A token cookie was sent (getProfile says whether it is still valid). */
                            logged_in: boolean;
                        };
                    };
                };
            };
        };
    };
    listInvoices: {
        parameters: {
            query?: {
                page_token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Invoices, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            invoices: components["schemas"]["Invoice"][];
                            next_page_token: string | null;
                        };
                    };
                };
            };
            401: components["responses"]["SessionInvalid"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's keys (never their secrets) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            keys: components["schemas"]["ApiKey"][];
                        };
                    };
                };
            };
            401: components["responses"]["SessionInvalid"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            key: components["schemas"]["ApiKey"];
                            secret: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["SessionInvalid"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooMany"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            key: components["schemas"]["ApiKey"];
                        };
                    };
                };
            };
            401: components["responses"]["SessionInvalid"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rotated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            key: components["schemas"]["ApiKey"];
                            revoked_key_id: string;
                            secret: string;
                        };
                    };
                };
            };
            401: components["responses"]["SessionInvalid"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    logIn: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                    password?: string;
                    remember_me?: boolean;
                };
            };
        };
        responses: {
            /** @description Logged in */
            200: {
                headers: {
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            expires_at: components["schemas"]["NullableTime"];
                            user: components["schemas"]["Profile"];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["SessionInvalid"];
            403: components["responses"]["Forbidden"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooMany"];
        };
    };
    logOut: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Logged out */
            200: {
                headers: {
                    "Set-Cookie": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            403: components["responses"]["Forbidden"];
        };
    };
    lookUp: {
        parameters: {
            query?: {
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            /** @enum {unknown} */
                            kind: "ip" | "domain";
                            more_addresses?: string[];
                            query: string;
                            results: components["schemas"]["IpInfo"][];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooMany"];
            504: components["responses"]["Unavailable"];
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                };
            };
        };
        responses: {
            /** @description Sent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooMany"];
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password?: string;
                    password_confirmation?: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description Reset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooMany"];
        };
    };
    listPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plans */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            plans: components["schemas"]["Plan"][];
                        };
                    };
                };
            };
            503: components["responses"]["Unavailable"];
        };
    };
    getProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: components["schemas"]["Profile"];
                    };
                };
            };
            401: components["responses"]["SessionInvalid"];
        };
    };
    updateProfile: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    company_name?: string;
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Saved */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: components["schemas"]["Profile"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["SessionInvalid"];
            403: components["responses"]["Forbidden"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password?: string;
                    new_password?: string;
                    password_confirmation?: string;
                };
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["SessionInvalid"];
            403: components["responses"]["Forbidden"];
            412: components["responses"]["PreconditionFailed"];
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    agree_terms?: boolean;
                    email?: string;
                    name?: string;
                    password?: string;
                    password_confirmation?: string;
                };
            };
        };
        responses: {
            /** @description The confirm-email state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            /** @constant */
                            state: "confirm_email";
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooMany"];
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Current plans */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            plans: {
                                /** @enum {unknown} */
                                kind: "api" | "download" | "vip";
                                plan?: components["schemas"]["Plan"];
                                subscription?: components["schemas"]["Subscription"];
                            }[];
                        };
                    };
                };
            };
            401: components["responses"]["SessionInvalid"];
        };
    };
    subscribe: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    plan_id: string;
                };
            };
        };
        responses: {
            /** @description Checkout or applied */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            /** Format: uri */
                            checkout_url: string | null;
                            order_id: string | null;
                            subscription: components["schemas"]["Subscription"] | null;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["SessionInvalid"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
        };
    };
    scheduleDowngrade: {
        parameters: {
            query?: never;
            header: {
                /** @description The `csrf_token` cookie's value (from getInit). */
                "X-CSRF-Token": components["parameters"]["Csrf"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    plan_id: string;
                };
            };
        };
        responses: {
            /** @description Scheduled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            subscription: components["schemas"]["Subscription"];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["SessionInvalid"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            412: components["responses"]["PreconditionFailed"];
        };
    };
    getUnread: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The unread message count */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            unread: number;
                        };
                    };
                };
            };
            401: components["responses"]["SessionInvalid"];
            503: components["responses"]["Unavailable"];
        };
    };
    getUsage: {
        parameters: {
            query?: {
                granularity?: "day" | "hour";
                /** @description One key's usage; empty = the whole account. */
                key_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"] & {
                        data?: {
                            /** @enum {unknown} */
                            granularity: "day" | "hour";
                            key_id: string | null;
                            plan: components["schemas"]["Plan"] | null;
                            quota: {
                                currency: string;
                                limit: number;
                                overage: number;
                                overage_cost_minor: number;
                                remaining: number;
                                /** Format: date-time */
                                reset_at: string;
                                used: number;
                            } | null;
                            series: {
                                lookups: number;
                                /** Format: date-time */
                                period: string;
                                requests: number;
                            }[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["SessionInvalid"];
            503: components["responses"]["Unavailable"];
        };
    };
}
