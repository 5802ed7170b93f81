import type { DoctorReport } from '../../shared/bridge'
import type { TrustReport } from '../trust/stream-trust'

type Check = DoctorReport['checks'][number]

const WHY: Readonly<Record<NonNullable<TrustReport['why']>, string>> = {
  disagree: "its prices did not match the service's quotes",
  'no-price': 'its pushes carry no price we can read',
  frozen: "its price stood still while the service's quotes moved",
}

/**
 * The doctor's line per streamed market on what its stream's prices were held against (core/trust):
 * whether they are trusted, under which reading of the push's fields, and the last comparison
 * (the symbol, the stream's price, REST's, how far apart); and what the checking costs.
 */
export function trustChecks(
  reports: readonly TrustReport[],
  samples: { asked: number; callsOfTheirOwn: number },
): Check[] {
  const checks = reports.map((r): Check => {
    const c = r.last
    const compared =
      c === null
        ? 'not compared yet'
        : `${c.symbol}: stream ${c.pushed ?? 'no price'} against REST ${c.rest}${c.diffPct === null ? '' : ` (${c.diffPct.toFixed(3)} % apart)`}, ${new Date(c.at).toISOString()}`
    const how = `${r.reading}${r.source === 'default' ? '' : ` (${r.source})`}`
    const ok = r.state === 'trusted' || r.state === 'unverified'
    const state =
      r.state === 'trusted'
        ? 'prices trusted'
        : r.state === 'unverified'
          ? 'prices not checked yet'
          : `not used: ${r.why === null ? 'being checked' : WHY[r.why]}; polled`
    return {
      name: `stream prices ${r.market}`,
      ok,
      code: ok ? null : 'STREAM_PRICES',
      message: `${state}; read as ${how}; last compared ${compared}; ${r.samples} samples while trusted`,
      latencyMs: null,
    }
  })
  if (checks.length > 0)
    checks.push({
      name: 'stream price samples',
      ok: true,
      code: null,
      message: `${samples.asked} stream samples asked over REST, ${samples.callsOfTheirOwn} of them in calls of their own (the rest rode poll calls)`,
      latencyMs: null,
    })
  return checks
}
