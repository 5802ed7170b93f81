import { chromium, type Browser } from 'playwright-core'
import { inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import { CHROMIUM_ARGS, findFlowChromium, launchChromium } from './chromium'

/**
 * The e2e project's global set-up: one Chromium for the whole run, which every spec file connects
 * to (chromiumForFile) and opens its own contexts in, instead of launching a browser per file.
 * Without a Chromium it provides nothing and the specs skip or fail as chromiumOrSkip says.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const executablePath = findFlowChromium()
  if (!executablePath) return
  const server = await chromium.launchServer({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
  })
  project.provide('chromiumEndpoint', server.wsEndpoint())
  return () => server.close()
}

/**
 * The browser a spec file uses: a connection to the Chromium the e2e project's global set-up
 * launched once for the run (the set-up above), or a Chromium of its own when there is
 * none (a file run outside that project). Closing a connection closes the file's contexts only.
 */
export async function chromiumForFile(executablePath: string): Promise<Browser> {
  const endpoint = chromiumEndpoint()
  return endpoint ? chromium.connect(endpoint) : launchChromium(executablePath)
}

function chromiumEndpoint(): string {
  try {
    return inject('chromiumEndpoint') ?? ''
  } catch {
    return ''
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint: string
  }
}
