import { spawn } from 'node:child_process'

/** Opens the URL in the user's browser unless BROWSER=none; never fails the command. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv): void {
  if (env.BROWSER === 'none' || env.CI) return
  const [cmd, args] = env.BROWSER
    ? [env.BROWSER, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]]
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true })
    child.on('error', () => undefined)
    child.unref()
  } catch {
    // No browser to open: the printed address is enough.
  }
}
