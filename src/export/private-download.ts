/**
 * `Cache-Control` of a download holding a team's data (a report PDF, an audit pack): no cache,
 * shared or private, may keep a copy (RFC 9111 §5.2.2.5 `no-store`, §5.2.2.7 `private`). A report
 * link needs no bearer token, so a proxy's or browser's cached copy would outlive the link.
 */
export const PRIVATE_DOWNLOAD_CACHE_CONTROL = 'no-store, private';
