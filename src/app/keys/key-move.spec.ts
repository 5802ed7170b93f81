import { describe, expect, it } from 'vitest'
import { KeyMoveAsks, keyMoveWords, type KeyMove } from './key-move'

const A = 'https://api.example.com'

describe('the words of a key question', () => {
  it('names both origins in full and calls out a step down to http and a port change', () => {
    const w = keyMoveWords({ kind: 'move', from: A, to: 'http://api.example.com:8443' })
    expect(w.title).toBe('Tickdesk: API key')
    expect(w.question).toBe('Send your API key to http://api.example.com:8443?')
    expect(w.yes).toBe('Send the key to http://api.example.com:8443')
    expect(w.no).toBe('Keep the key where it was')
    expect(w.details).toEqual([
      'Your API key was entered for https://api.example.com:443. The base URL now points at http://api.example.com:8443.',
      'Warning: the new address uses plain http, not https: the key and the prices would cross the network unencrypted.',
      'Warning: same host, another port (443 before, 8443 now): another program on that machine may be listening there.',
      'If you did not change the base URL yourself, keep the key where it was: live prices stop (the rows keep their last ones) until you decide.',
    ])
  })

  it('says a host change plainly and raises no warning it has no cause for', () => {
    const w = keyMoveWords({ kind: 'move', from: A, to: 'https://gw.example.com' })
    expect(w.details[1]).toBe('The host changes from api.example.com to gw.example.com.')
    expect(w.details).toHaveLength(3)
    const up = keyMoveWords({ kind: 'move', from: 'http://127.0.0.1:80', to: 'https://127.0.0.1' })
    expect(up.details.join(' ')).not.toMatch(/plain http/)
    expect(up.details.join(' ')).toMatch(/another port \(80 before, 443 now\)/)
  })

  it('warns of plain http only on a step down from https, and of a port only on the same host', () => {
    const plain = keyMoveWords({
      kind: 'move',
      from: 'http://127.0.0.1:8080',
      to: 'http://127.0.0.2:8080',
    })
    expect(plain.details.join(' ')).not.toMatch(/plain http|another port/)
    const portAndHost = keyMoveWords({ kind: 'move', from: A, to: 'https://gw.example.com:8443' })
    expect(portAndHost.details.join(' ')).not.toMatch(/another port/)
    expect(portAndHost.details.join(' ')).toMatch(/host changes/)
    const schemeOnly = keyMoveWords({
      kind: 'move',
      from: 'http://api.example.com:8443',
      to: 'https://api.example.com:8443',
    })
    expect(schemeOnly.details.join(' ')).not.toMatch(/another port|plain http|host changes/)
  })

  it('asks about a key entered from the page in its own words', () => {
    const w = keyMoveWords({ kind: 'new-key', from: A, to: 'https://evil.example' })
    expect(w.title).toBe('Tickdesk: API key')
    expect(w.question).toBe('Use the key just entered for https://evil.example:443?')
    expect(w.yes).toBe('Use it for https://evil.example:443')
    expect(w.no).toBe('Do not use it')
    expect(w.details[0]).toBe(
      'A key was just entered for https://evil.example:443. Tickdesk keeps your key for https://api.example.com:443, which stays as it is.',
    )
    expect(w.details.at(-1)).toBe(
      'If you did not enter it yourself, do not use it: prices and alerts would come from https://evil.example:443.',
    )
  })

  it('adds no warnings for a key held for no service, or origins it cannot read', () => {
    expect(keyMoveWords({ kind: 'move', from: '', to: A }).details).toHaveLength(2)
    expect(keyMoveWords({ kind: 'move', from: 'garbage', to: A }).details).toHaveLength(2)
  })
})

describe('key questions', () => {
  const move = (to: string, kind: KeyMove['kind'] = 'move'): KeyMove => ({ kind, from: A, to })

  it('answers no without asking where the host cannot ask', async () => {
    const asks = new KeyMoveAsks(undefined)
    expect(asks.canAsk).toBe(false)
    expect(await asks.ask(move('https://b.example'), () => true)).toBe(false)
  })

  it('asks one at a time, in order, each question as it was made', async () => {
    const shown: KeyMove[] = []
    const answers: Array<(yes: boolean) => void> = []
    const asks = new KeyMoveAsks((m) => {
      shown.push(m)
      return new Promise((r) => answers.push(r))
    })
    expect(asks.canAsk).toBe(true)
    const first = asks.ask(move('https://b.example'), () => true)
    const second = asks.ask(move('https://c.example'), () => true)
    await new Promise((r) => setTimeout(r, 0))
    expect(shown.map((m) => m.to)).toEqual(['https://b.example'])
    answers[0]!(true)
    expect(await first).toBe(true)
    await new Promise((r) => setTimeout(r, 0))
    expect(shown.map((m) => m.to)).toEqual(['https://b.example', 'https://c.example'])
    answers[1]!(false)
    expect(await second).toBe(false)
  })

  it('does not ask again what was refused this session, of the same kind and origin', async () => {
    let shown = 0
    const asks = new KeyMoveAsks(async () => {
      shown++
      return false
    })
    expect(await asks.ask(move('https://b.example'), () => true)).toBe(false)
    expect(asks.wasRefused(move('https://b.example'))).toBe(true)
    expect(asks.wasRefused(move('https://b.example', 'new-key'))).toBe(false)
    expect(await asks.ask(move('https://b.example'), () => true)).toBe(false)
    expect(shown).toBe(1)
    expect(await asks.ask(move('https://b.example', 'new-key'), () => true)).toBe(false)
    expect(shown).toBe(2)
  })

  it('asks again after a yes: only a refusal is remembered', async () => {
    let shown = 0
    const asks = new KeyMoveAsks(async () => {
      shown++
      return true
    })
    expect(await asks.ask(move('https://b.example'), () => true)).toBe(true)
    expect(await asks.ask(move('https://b.example'), () => true)).toBe(true)
    expect(shown).toBe(2)
  })

  it('drops a question the page moved on from before its turn, and counts it as no refusal', async () => {
    let shown = 0
    const asks = new KeyMoveAsks(async () => {
      shown++
      return true
    })
    expect(await asks.ask(move('https://b.example'), () => false)).toBe(false)
    expect(shown).toBe(0)
    expect(asks.wasRefused(move('https://b.example'))).toBe(false)
    expect(await asks.ask(move('https://b.example'), () => true)).toBe(true)
  })

  it('takes a question that failed to show, or any answer but true, as no', async () => {
    const failing = new KeyMoveAsks(() => Promise.reject(new Error('no display')))
    expect(await failing.ask(move('https://b.example'), () => true)).toBe(false)
    expect(failing.wasRefused(move('https://b.example'))).toBe(true)
    const vague = new KeyMoveAsks(async () => 'yes' as unknown as boolean)
    expect(await vague.ask(move('https://b.example'), () => true)).toBe(false)
  })

  it('hands the host a copy of the question, so it cannot change what is bound', async () => {
    const original = move('https://b.example')
    const asks = new KeyMoveAsks(async (m) => {
      m.to = 'https://elsewhere.example'
      return true
    })
    expect(await asks.ask(original, () => true)).toBe(true)
    expect(original.to).toBe('https://b.example')
  })
})
