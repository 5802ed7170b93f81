import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { desktopNotifier } from './desktop-notifier'
import { NOTIFY_SCRIPT, notificationArgs } from './notification-command'

/** Alert text reaches osascript and notify-send as data, never as code. */
const HOSTILE = '" & (do shell script "touch /tmp/pwned") & "'
const DASHED = '--icon=/etc/passwd'

describe('the desktop notification command line', () => {
  it('gives osascript a fixed script reading title and body from argv, the text only as arguments', () => {
    const args = notificationArgs('darwin', `Tickdesk: ${HOSTILE}`, HOSTILE)
    const script = args.filter((_, i) => args[i - 1] === '-e')
    expect(script).toEqual(NOTIFY_SCRIPT)
    expect(script.join('\n')).not.toContain('pwned')
    expect(args.slice(-2)).toEqual([`Tickdesk: ${HOSTILE}`, HOSTILE])
  })

  it('puts -- before notify-send’s title and body, so a body like an option is text', () => {
    expect(notificationArgs('linux', DASHED, DASHED)).toEqual([
      '--app-name=Tickdesk',
      '--',
      DASHED,
      DASHED,
    ])
  })

  it.runIf(process.platform === 'linux')(
    'the alerts runner hands notify-send the text after -- (a stand-in notify-send on PATH records argv)',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tickdesk-notify-'))
      const tool = join(dir, 'notify-send')
      const out = join(dir, 'argv.json')
      await writeFile(
        tool,
        `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.argv.slice(2)))\n`,
      )
      await chmod(tool, 0o755)
      const target = desktopNotifier({ PATH: dir })
      expect(target).not.toBeNull()
      await target?.deliver({
        id: 'f1',
        ruleId: 'r1',
        key: 'us:AAPL',
        message: DASHED,
        price: 1,
        at: 0,
        whileAway: false,
        awaySince: null,
        quoteAt: null,
        firedBy: 'runner',
      })
      expect(JSON.parse(await readFile(out, 'utf8'))).toEqual([
        '--app-name=Tickdesk',
        '--',
        'Tickdesk: AAPL',
        DASHED,
      ])
    },
  )
})
