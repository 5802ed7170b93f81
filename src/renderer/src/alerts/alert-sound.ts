/**
 * A short alert beep made with WebAudio (no asset files): a 880 Hz sine for ~180 ms with a quick
 * fade, so it does not click. The AudioContext is created on the first beep and reused; a context
 * the browser's autoplay policy left suspended is resumed (it plays once the user has interacted
 * with the page, which a trader watching alerts has).
 */

/** The part of AudioContext the beep uses, so tests and hosts without WebAudio can stand in. */
export interface BeepContext {
  readonly currentTime: number
  readonly state: string
  readonly destination: unknown
  resume(): Promise<void>
  createOscillator(): {
    type: string
    frequency: { value: number }
    connect(node: never): unknown
    start(when?: number): void
    stop(when?: number): void
  }
  createGain(): {
    gain: {
      setValueAtTime(value: number, time: number): unknown
      exponentialRampToValueAtTime(value: number, time: number): unknown
    }
    connect(node: never): unknown
  }
}

export const BEEP_SECONDS = 0.18

export function createAlertSound(
  createContext: (() => BeepContext) | null = defaultContext(),
): () => void {
  let ctx: BeepContext | null = null
  return () => {
    if (createContext === null) return
    try {
      ctx ??= createContext()
      if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined)
      const t = ctx.currentTime
      const osc = ctx.createOscillator()
      const gain = ctx.createGain()
      osc.type = 'sine'
      osc.frequency.value = 880
      gain.gain.setValueAtTime(0.2, t)
      gain.gain.exponentialRampToValueAtTime(0.001, t + BEEP_SECONDS)
      osc.connect(gain as never)
      gain.connect(ctx.destination as never)
      osc.start(t)
      osc.stop(t + BEEP_SECONDS)
    } catch {
      // No audio device: the toast and the tray notification still tell the trader.
    }
  }
}

function defaultContext(): (() => BeepContext) | null {
  const Ctor = (globalThis as { AudioContext?: new () => BeepContext }).AudioContext
  return Ctor === undefined ? null : () => new Ctor()
}
