// A process's memory as Linux reports it in /proc/<pid>/status, for the benchmarks that watch a service.
import { readFile } from "node:fs/promises"

export interface Memory {
  /** Resident set now, bytes. */
  readonly rss: number
  /** Peak resident set since start (or since the peak was reset), bytes. */
  readonly hwm: number
}

/** VmRSS and VmHWM; undefined once the process is gone. A field it lacks (an exited, unreaped child has none) reads 0. */
export const memoryOf = async (pid: number): Promise<Memory | undefined> => {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => undefined)
  if (status === undefined) return undefined
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") }
}

/** As memoryOf, of a process that must still run. */
export const liveMemoryOf = async (pid: number): Promise<Memory> => {
  const memory = await memoryOf(pid)
  if (memory === undefined) throw new Error(`process ${pid} has exited`)
  return memory
}
