import { describe, expect, it } from 'vitest'
import { KEEPALIVE_SILENCE_MS } from '../../sim/socket/stream-liveness'
import { KeepAlive } from './stream-keepalive'

/** When the client starts sending keep-alives of its own: only once the service shows it wants one. */
describe('KeepAlive', () => {
  it('stays off for a service that never asks', () => {
    const k = new KeepAlive()
    expect(k.on).toBe(false)
    expect(k.asked('INVALID_REQUEST unknown market fx')).toBe(false)
    k.closedByService(30_000, '')
    expect(k.on).toBe(false)
  })

  it.each([
    `no ping from the client within ${KEEPALIVE_SILENCE_MS / 1000} s`,
    'pong timeout: expected {"action":"pong"}',
    'idle connection closed',
    'heartbeat missing',
  ])('is on once a close reason asks for one: %s', (reason) => {
    const k = new KeepAlive()
    k.closedByService(20_000, reason)
    expect(k.on).toBe(true)
    expect(JSON.parse(k.message())).toEqual({ action: 'ping' })
  })

  it('is on when the service closed two sockets after about the same time open, saying nothing', () => {
    const k = new KeepAlive()
    k.closedByService(30_000, '')
    expect(k.on).toBe(false)
    k.closedByService(33_000, '')
    expect(k.on).toBe(true)
  })

  it('takes lifetimes far apart, or too short or long to be a timer, for ordinary drops', () => {
    const k = new KeepAlive()
    k.closedByService(30_000, '')
    k.closedByService(90_000, '')
    k.closedByService(2_000, '')
    k.closedByService(2_100, '')
    k.closedByService(20 * 60_000, '')
    k.closedByService(20 * 60_000, '')
    expect(k.on).toBe(false)
  })
})
