import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { z } from 'zod'

/**
 * Loopback receivers that answer as each chat service would: 2xx only for a body in that
 * service's documented shape, 400 with the reason otherwise. The shapes
 * follow each service's documentation, not Tickdesk's code:
 *   slack     incoming webhook: JSON { text (required), blocks? }; answers "ok"
 *   discord   execute webhook: JSON with content (<= 2000) or embeds (<= 10, title <= 256,
 *             description <= 4096); answers 204
 *   telegram  POST /bot<token>/sendMessage: JSON { chat_id (number or @name), text (1-4096),
 *             parse_mode? }; answers { ok: true, result: {...} }
 *   ntfy      POST /<topic>: the message as the body, Title/Tags/Priority headers (priority 1-5
 *             or min|low|default|high|max); answers the published message as JSON
 */
export type ShapeKind = 'slack' | 'discord' | 'telegram' | 'ntfy'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

const SlackBody = z.object({ text: z.string().min(1), blocks: z.array(z.unknown()).optional() })
const DiscordEmbed = z.object({
  title: z.string().max(256).optional(),
  description: z.string().max(4096).optional(),
  fields: z
    .array(z.object({ name: z.string().max(256), value: z.string().max(1024) }))
    .max(25)
    .optional(),
  timestamp: z.string().datetime().optional(),
})
const DiscordBody = z
  .object({
    content: z.string().max(2000).optional(),
    embeds: z.array(DiscordEmbed).max(10).optional(),
  })
  .refine((b) => Boolean(b.content) || (b.embeds?.length ?? 0) > 0, 'content or embeds required')
const TelegramBody = z.object({
  chat_id: z.union([z.number().int(), z.string().regex(/^@\w+$/)]),
  text: z.string().min(1).max(4096),
  parse_mode: z.enum(['MarkdownV2', 'HTML', 'Markdown']).optional(),
})
const NtfyPriority = /^([1-5]|min|low|default|high|max)$/

function verdict(kind: ShapeKind, r: Received): string | null {
  const parsedJson = (): unknown => {
    try {
      return JSON.parse(r.body)
    } catch {
      return undefined
    }
  }
  const check = (schema: z.ZodType): string | null => {
    const p = schema.safeParse(parsedJson())
    return p.success ? null : (p.error.issues[0]?.message ?? 'bad body')
  }
  switch (kind) {
    case 'slack':
      return check(SlackBody)
    case 'discord':
      return check(DiscordBody)
    case 'telegram':
      return /^\/bot[^/]+\/sendMessage$/.test(r.path)
        ? check(TelegramBody)
        : `not a sendMessage path: ${r.path}`
    case 'ntfy': {
      const priority = r.headers['priority']
      if (priority !== undefined && !NtfyPriority.test(String(priority))) return 'bad Priority'
      return r.body.trim() === '' ? 'empty message' : null
    }
  }
}

const ANSWERS: Record<ShapeKind, (r: Received) => [number, string]> = {
  slack: () => [200, 'ok'],
  discord: () => [204, ''],
  telegram: () => [200, JSON.stringify({ ok: true, result: { message_id: 1 } })],
  ntfy: (r) => [
    200,
    JSON.stringify({ id: 'x1', event: 'message', topic: r.path.slice(1), message: r.body }),
  ],
}

export async function shapeReceiver(
  kind: ShapeKind,
): Promise<{ url: string; got: Received[]; refused: string[]; server: Server }> {
  const got: Received[] = []
  const refused: string[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const r = { path: req.url ?? '/', headers: req.headers, body }
      got.push(r)
      const problem = verdict(kind, r)
      if (problem !== null) {
        refused.push(problem)
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`invalid_payload: ${problem}`)
        return
      }
      const [status, text] = ANSWERS[kind](r)
      res.writeHead(status).end(text)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  const base = `http://127.0.0.1:${port}`
  const url =
    kind === 'telegram'
      ? `${base}/bot123:SECRET`
      : kind === 'ntfy'
        ? `${base}/tickdesk-alerts`
        : `${base}/hook/T0/SECRET`
  return { url, got, refused, server }
}
