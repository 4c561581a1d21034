/**
 * The one UUID pattern: any 8-4-4-4-12 hex UUID (console-created Avatars may carry any version), either
 * case; ids are compared lower-cased (docs/api-decisions.md). Its source is the `pattern` the OpenAPI
 * documents print, so it stays this exact text.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/**
 * A UUID as we issue it (crypto.randomUUID: lower-case), for values taken byte-exact: credentials such as
 * X-App-ID and the ids inside signed links, where another spelling is another value.
 */
export const isIssuedUuid = (value: string): boolean => isUuid(value) && value === value.toLowerCase();
