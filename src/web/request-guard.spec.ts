import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import {
  allowedHosts,
  hostAllowed,
  originAllowed,
  requestCode,
  requestSession,
  sessionCookie,
  withoutCode,
} from './request-guard'

const req = (headers: Record<string, string>, url = '/'): IncomingMessage =>
  ({ headers, url }) as unknown as IncomingMessage

describe('the browser host’s request guard', () => {
  it('takes only this port on 127.0.0.1 or localhost as Host, in any case', () => {
    expect([...allowedHosts(5555)]).toEqual(['127.0.0.1:5555', 'localhost:5555'])
    expect(hostAllowed(req({ host: '127.0.0.1:5555' }), 5555)).toBe(true)
    expect(hostAllowed(req({ host: 'LOCALHOST:5555' }), 5555)).toBe(true)
    for (const host of ['127.0.0.1:5556', 'evil.example:5555', '127.0.0.1', '127.0.0.2:5555'])
      expect(hostAllowed(req({ host }), 5555), host).toBe(false)
    expect(hostAllowed(req({}), 5555)).toBe(false)
  })

  it('takes a missing Origin only where none is required, and only our own otherwise', () => {
    expect(originAllowed(req({}), 5555, false)).toBe(true)
    expect(originAllowed(req({}), 5555, true)).toBe(false)
    expect(originAllowed(req({ origin: 'http://127.0.0.1:5555' }), 5555, true)).toBe(true)
    expect(originAllowed(req({ origin: 'http://localhost:5555' }), 5555, true)).toBe(true)
    for (const origin of [
      'https://127.0.0.1:5555',
      'http://127.0.0.1:5556',
      'null',
      'http://evil.example',
    ])
      expect(originAllowed(req({ origin }), 5555, false), origin).toBe(false)
  })

  it('reads the session cookie named for this port, whatever else the Cookie header holds', () => {
    expect(sessionCookie(5555)).toBe('tickdesk_session_5555')
    expect(requestSession(req({ cookie: 'a=1; tickdesk_session_5555=s=x; b=2' }), 5555)).toBe('s=x')
    expect(requestSession(req({ cookie: 'tickdesk_session_5556=s' }), 5555)).toBeNull()
    expect(requestSession(req({ cookie: '' }), 5555)).toBeNull()
    expect(requestSession(req({}), 5555)).toBeNull()
  })

  it('reads the launch code from the address, and sends on to the same address without it', () => {
    expect(requestCode(req({}, '/strip?view=x&token=abc'))).toBe('abc')
    expect(requestCode(req({}, '/'))).toBeNull()
    expect(requestCode({ headers: {} } as IncomingMessage)).toBeNull()
    expect(withoutCode('/strip?token=abc&view=x')).toBe('/strip?view=x')
    expect(withoutCode('/?token=abc')).toBe('/')
  })
})
