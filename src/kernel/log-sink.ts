// Where JSON log lines go: stdout, in one write per turn of the event loop rather than one per line. A
// busy process logs several lines a turn, and each write to a pipe or a file is a system call (they
// are synchronous on Linux), which cost a request more than building its line. Lines still waiting
// when the process exits (a crash included) are written then; only a kill -9 can lose the last turn's.

export interface LineSink {
  readonly write: (line: string) => void
  readonly flush: () => void
}

export const makeLineSink = (out: { write: (text: string) => unknown }): LineSink => {
  let waiting: Array<string> = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (waiting.length === 0) return
    const text = waiting.join("\n") + "\n"
    waiting = []
    out.write(text)
  }
  return {
    write: (line) => {
      waiting.push(line)
      if (scheduled) return
      scheduled = true
      setImmediate(flush)
    },
    flush
  }
}

let stdoutSink: LineSink | undefined

/** The process's one sink on stdout, flushed on exit. */
export const stdoutLines = (): LineSink => {
  if (stdoutSink === undefined) {
    const sink = makeLineSink(process.stdout)
    process.once("exit", sink.flush)
    stdoutSink = sink
  }
  return stdoutSink
}
