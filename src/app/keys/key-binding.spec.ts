import { describe, expect, it } from 'vitest'
import {
  EMPTY_RING,
  keyForUrl,
  latestOrigin,
  movedKey,
  NO_SERVICE,
  originWords,
  packRing,
  serviceOrigin,
  unpackRing,
  withKey,
  withoutKey,
} from './key-binding'

const A = 'https://api.example.com'
const B = 'http://127.0.0.1:8080'

describe('the key ring: one key per origin', () => {
  it('reads a service’s origin: scheme, host and port, and nothing for what is no http(s) service', () => {
    expect(serviceOrigin('https://api.example.com/md/?x=1')).toBe(A)
    expect(serviceOrigin('https://API.example.com:443')).toBe(A)
    expect(serviceOrigin('http://127.0.0.1:8080/')).toBe(B)
    for (const none of [
      undefined,
      null,
      '',
      'ftp://api.example.com',
      'wss://a.example',
      'not a url',
    ])
      expect(serviceOrigin(none), String(none)).toBeNull()
  })

  it('names an origin in full for the trader, the default port written out', () => {
    expect(originWords(A)).toBe('https://api.example.com:443')
    expect(originWords('http://api.example.com')).toBe('http://api.example.com:80')
    expect(originWords(B)).toBe('http://127.0.0.1:8080')
    expect(originWords(NO_SERVICE)).toBe('no service (demo mode)')
    expect(originWords(null)).toBe('no service (demo mode)')
    expect(originWords('garbage')).toBe('garbage')
  })

  it('gives each origin its own key, the latest entered last', () => {
    const ring = withKey(withKey(EMPTY_RING, A, 'ka'), B, 'kb')
    expect(keyForUrl(ring, `${A}/x`)).toBe('ka')
    expect(keyForUrl(ring, B)).toBe('kb')
    expect(keyForUrl(ring, 'https://api.example.com:8443')).toBeNull()
    expect(keyForUrl(ring, undefined)).toBeNull()
    expect(latestOrigin(ring)).toBe(B)
    expect(latestOrigin(withKey(ring, A, 'ka2'))).toBe(A)
    expect(latestOrigin(EMPTY_RING)).toBeNull()
    expect(keyForUrl(withoutKey(ring, A), A)).toBeNull()
    expect(keyForUrl(withoutKey(ring, A), B)).toBe('kb')
    expect(EMPTY_RING.keys.size).toBe(0)
  })

  it('moves a key from one origin to another only when the first still holds one', () => {
    const ring = withKey(EMPTY_RING, A, 'ka')
    const moved = movedKey(ring, A, B)
    expect([...moved.keys]).toEqual([[B, 'ka']])
    expect(movedKey(ring, B, A)).toBe(ring)
  })

  it('stores the ring and reads it back; reads the single bound key and the bare key of earlier versions', () => {
    const ring = withKey(withKey(EMPTY_RING, A, 'ka'), B, 'kb')
    const stored = packRing(ring)
    expect(JSON.parse(stored)).toEqual({
      tickdeskKeys: 2,
      keys: [
        { origin: A, key: 'ka' },
        { origin: B, key: 'kb' },
      ],
    })
    expect(unpackRing(stored)).toEqual({ ring, bare: null })
    expect(unpackRing(JSON.stringify({ tickdeskKey: 1, key: 'k1', origin: A }))).toEqual({
      ring: withKey(EMPTY_RING, A, 'k1'),
      bare: null,
    })
    expect(
      unpackRing(JSON.stringify({ tickdeskKey: 1, key: 'k1', origin: null })).ring.keys.get(''),
    ).toBe('k1')
    expect(unpackRing('sk-bare-key')).toEqual({ ring: EMPTY_RING, bare: 'sk-bare-key' })
    expect(unpackRing('{not json').bare).toBe('{not json')
    expect(unpackRing('{"tickdeskKeys":3,"keys":[]}').bare).toBe('{"tickdeskKeys":3,"keys":[]}')
    expect(unpackRing('{"tickdeskKeys":2,"keys":{}}').bare).not.toBeNull()
    expect(unpackRing('{"tickdeskKey":1,"key":7}').bare).not.toBeNull()
    // A JSON object of another shape is a bare key too, however it looks.
    expect(unpackRing('{"key":"abc","origin":"https://a.example"}').bare).not.toBeNull()
    for (const bare of ['12345678', 'null', 'true', '"quoted-key"'])
      expect(unpackRing(bare), bare).toEqual({ ring: EMPTY_RING, bare })
  })

  it('skips a stored entry that is not an origin and a key', () => {
    const stored = JSON.stringify({
      tickdeskKeys: 2,
      keys: [
        { origin: A, key: 'ka' },
        { origin: B, key: '' },
        { origin: 3, key: 'x' },
        { origin: 'https://c.example', key: 7 },
        null,
        { key: 'y' },
      ],
    })
    expect([...unpackRing(stored).ring.keys]).toEqual([[A, 'ka']])
  })
})
