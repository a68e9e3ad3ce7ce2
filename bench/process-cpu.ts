// A process's CPU time as Linux reports it in /proc/<pid>/stat, for the benchmarks that weigh a service's
// work against the cores it has.
import { readFile } from "node:fs/promises"

/** The stat(5) fields after the command's closing parenthesis: field 3 (state) is index 0. */
const statFields = async (pid: number): Promise<ReadonlyArray<string> | null> => {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null)
  return stat === null ? null : stat.slice(stat.lastIndexOf(")") + 2).split(" ")
}

/** Clock ticks (100 a second on Linux) to ms. */
const ticksToMs = (...ticks: ReadonlyArray<string | undefined>): number => ticks.reduce((sum, t) => sum + Number(t), 0) * 10

/** CPU time (user + system, every thread's) a process has used so far, in ms; null where /proc is missing. */
export const cpuMsOf = async (pid: number): Promise<number | null> => {
  const fields = await statFields(pid)
  // utime and stime are fields 14 and 15 of stat(5).
  return fields === null ? null : ticksToMs(fields[11], fields[12])
}

/**
 * As cpuMsOf, with the CPU time of the children it has waited for (cutime and cstime, fields 16 and 17):
 * a service's ffmpeg and recogniser runs, or a benchmark's own ffmpeg, once they have exited.
 */
export const cpuMsWithChildrenOf = async (pid: number): Promise<number | null> => {
  const fields = await statFields(pid)
  return fields === null ? null : ticksToMs(fields[11], fields[12], fields[13], fields[14])
}

/** `work`, with the CPU seconds that `pid` and its waited-for children spent meanwhile (null where /proc is missing). */
export const withCpuOf = async <A>(pid: number, work: () => Promise<A>): Promise<{ readonly value: A; readonly cpuSeconds: number | null }> => {
  const before = await cpuMsWithChildrenOf(pid)
  const value = await work()
  const after = await cpuMsWithChildrenOf(pid)
  return { value, cpuSeconds: before === null || after === null ? null : (after - before) / 1000 }
}
