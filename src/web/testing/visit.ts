import { request } from 'node:http'
import type { WebHost } from '../web-host'

/** A GET to the browser host as a browser sends it (our Host), with `cookie`; the body and the cookie set. */
export function hostGet(
  port: number,
  path: string,
  cookie = '',
): Promise<{ body: string; cookie: string }> {
  return new Promise((resolve, reject) => {
    const headers = { host: `127.0.0.1:${port}`, cookie }
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => (body += d.toString()))
      res.on('end', () =>
        resolve({ body, cookie: String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '' }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

/** A session as a browser gets one (a fresh launch address visited once): its Cookie header. */
export async function sessionCookie(host: WebHost): Promise<string> {
  const launch = new URL(host.launchUrl())
  return (await hostGet(host.port, `${launch.pathname}${launch.search}`)).cookie
}

/** A session, then the main page as it is served to it. */
export async function visit(host: WebHost): Promise<{ cookie: string; page: string }> {
  const cookie = await sessionCookie(host)
  return { cookie, page: (await hostGet(host.port, '/', cookie)).body }
}
