/** A V8 CPU profile as the inspector returns it (Profiler.stop), the parts the benches read. */
export interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}
export interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** Sampled ms summed by a key of each sample's node (its function, its file), largest first. */
export function sumSamples(
  profile: Profile,
  keyOf: (n: ProfileNode) => string,
): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const sums = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)
    if (node === undefined) return
    const key = keyOf(node)
    sums.set(key, (sums.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  return [...sums].sort((a, b) => b[1] - a[1])
}
