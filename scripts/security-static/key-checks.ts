/** The scan's checks of the key's binding, its moves and the questions about them. */
import { EMPTY_RING, packRing, withKey } from '../../src/app/keys/key-binding'
import type { KeyMove } from '../../src/app/keys/key-move'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import { A, KEY, type ScanSubject } from './subject'

/** The key goes to the origin it was entered for, and to no look-alike of it. */
export async function keyOnlyToItsOrigin(s: ScanSubject): Promise<string[]> {
  const ring = withKey(EMPTY_RING, A, KEY)
  const out: string[] = []
  for (const url of [A, `${A}/md/`, `${A}:443`])
    if (s.keyForUrl(ring, url) !== KEY)
      out.push(`keyForUrl withholds the key from its own origin (${url})`)
  for (const url of [
    'http://api.example.com',
    `${A}:8443`,
    'https://api.example.com.',
    'https://evil.example',
    'http://127.0.0.2:8080',
    '',
    undefined,
  ])
    if (s.keyForUrl(ring, url) !== null) out.push(`keyForUrl gives the key to ${String(url)}`)
  return out
}

/** A kept key moves only as confirmed; a page's own key needs a confirmation; clearing is per origin. */
export async function keyMovesOnlyAsConfirmed(s: ScanSubject): Promise<string[]> {
  const out: string[] = []
  const B = 'https://other.example'
  const keeper = s.keeper(memorySecretStore(packRing(withKey(EMPTY_RING, A, KEY))), {})
  await keeper.load(null)
  if (keeper.keyFor(B) !== null) out.push('the kept key goes to another origin unasked')
  const move = keeper.pendingMove(B)
  if (move?.from !== A || move.to !== B)
    out.push(`the move offered is not ${A} -> ${B}: ${JSON.stringify(move)}`)
  if (keeper.entryNeeds(B) === null)
    out.push('a key entered for another origin is taken without a confirmation')
  await keeper.clear(B)
  if (keeper.keyFor(A) !== KEY)
    out.push('clearing the key of one origin destroyed another origin’s key')
  await keeper.move({ kind: 'move', from: A, to: B })
  if (keeper.keyFor(B) !== KEY)
    out.push('a confirmed move does not bind the key to the origin it named')
  if (keeper.keyFor('https://third.example') !== null)
    out.push('a confirmed move binds more than its origin')
  return out
}

/** TICKDESK_API_KEY goes only to the origin the environment named, never to a file's. */
export async function envKeyBoundToEnvOrigin(s: ScanSubject): Promise<string[]> {
  const out: string[] = []
  const env = { TICKDESK_API_KEY: KEY }
  const unnamed = s.keeper(memorySecretStore(), env)
  await unnamed.load(null)
  if (unnamed.keyFor(A) !== null)
    out.push('the environment’s key goes to a base URL no environment named')
  const named = s.keeper(memorySecretStore(), env)
  await named.load(A)
  if (named.keyFor(A) !== KEY)
    out.push('the environment’s key is withheld from the origin the environment named')
  if (named.keyFor('https://evil.example') !== null)
    out.push('the environment’s key goes to another origin')
  if (named.pendingMove('https://evil.example') !== null)
    out.push('the environment’s key can be moved from a page')
  return out
}

/** Questions about a key come one at a time, and one refused is not asked again. */
export async function keyQuestionsOneAtATime(s: ScanSubject): Promise<string[]> {
  const out: string[] = []
  let open = 0
  let most = 0
  let shown = 0
  const asks = s.asks(async () => {
    shown++
    most = Math.max(most, ++open)
    await new Promise((r) => setTimeout(r, 10))
    open--
    return false
  })
  const move = (to: string): KeyMove => ({ kind: 'move', from: A, to })
  await Promise.all([
    asks.ask(move('https://b.example'), () => true),
    asks.ask(move('https://c.example'), () => true),
  ])
  if (most > 1) out.push(`${most} key questions were open at once`)
  await asks.ask(move('https://b.example'), () => true)
  if (shown !== 2) out.push(`a refused question was asked again (${shown} shown for 2 origins)`)
  if (await asks.ask(move('https://d.example'), () => false))
    out.push('a question the page moved on from was answered yes')
  return out
}
