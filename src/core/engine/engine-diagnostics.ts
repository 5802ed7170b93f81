import type { DoctorReport } from '../../shared/bridge'
import type { Clock } from '../clock'
import { liveStreamCheck, type LiveStream } from '../doctor/connection-test'
import { runDoctor } from '../doctor/doctor'
import { trustChecks } from '../doctor/doctor-trust'
import type { RateGovernor } from '../rest/rate-governor'
import type { RestClient } from '../rest/rest-client'
import type { StreamTrust } from '../trust/stream-trust'
import type { EngineConfig } from './engine-config'

/**
 * Settings -> Test connection, through a running engine: its budget and the user's RPM, its REST
 * client, and its one socket as it stands, with what each market's stream prices were last held
 * against (core/trust) and what checking them cost. It opens no socket of its own: on the Free
 * plan's single connection that would be the service's second (spec: Limits).
 */
export async function testConnection(o: {
  config: EngineConfig
  governor: RateGovernor
  rest: RestClient
  clock: Clock
  stream: LiveStream
  trust: StreamTrust
  samples(): { asked: number; callsOfTheirOwn: number }
}): Promise<DoctorReport> {
  const { baseUrl, apiKey, plan } = o.config
  const report = await runDoctor({
    ...{ baseUrl, apiKey, plan, governor: o.governor, client: o.rest, clock: o.clock },
    stream: () => liveStreamCheck(o.stream, o.clock),
  })
  const trust = trustChecks(o.trust.report(), o.samples())
  return {
    ...report,
    checks: [...report.checks, ...trust],
    ok: report.ok && trust.every((c) => c.ok),
  }
}
