import { describe, expect, it } from 'vitest'
import { externalLink, isPermissionAllowed } from './link-policy'

describe('what the page may reach beyond itself', () => {
  it('hands the OS browser https links only, without credentials, at most 2 KB', () => {
    expect(externalLink('https://example.com/help')).toBe('https://example.com/help')
    for (const bad of [
      'http://example.com',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'https://user:pw@example.com/',
      'https://user@example.com/',
      'https://:pw@example.com/',
      'not a url',
      42,
      null,
      `https://example.com/${'a'.repeat(2048)}`,
    ])
      expect(externalLink(bad), String(bad).slice(0, 40)).toBeNull()
    expect(externalLink(`https://e.co/${'a'.repeat(2048 - 'https://e.co/'.length)}`)).not.toBeNull()
  })

  it('lets the page have notifications and no other permission', () => {
    expect(isPermissionAllowed('notifications')).toBe(true)
    for (const p of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'midi', 'hid', ''])
      expect(isPermissionAllowed(p), p).toBe(false)
  })
})
