/**
 * The renderer's Content-Security-Policy, sent as a header by both hosts (Electron main and the
 * browser host). src/renderer/index.html carries the same policy as a meta tag, minus
 * frame-ancestors, which browsers honour only as a header.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')
