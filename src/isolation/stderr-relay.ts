import { StringDecoder } from 'node:string_decoder'
import { terminalOutput, terminalText } from '../core/escape-text.js'
import { counted } from '../stats/number-format.js'

/** How much of one agent's stderr a run shows, over all its processes; the rest is counted and dropped. */
const AGENT_STDERR_CAP_BYTES = 8 * 2 ** 20

/** One process's stderr, cut into lines. */
export interface StderrStream {
  push(chunk: Buffer): void
  /** The process's stderr closed: a last line without its newline is shown. */
  end(): void
}

/**
 * Relays an agent's stderr to the harness's: each line prefixed with `[agent-name] `, so no agent line can start a
 * GitHub workflow command (`::error …::`, `::add-mask::`) or look like the harness's own output, and with control
 * characters removed (a carriage return would start a line of its own for the runner). At most `capBytes` of an
 * agent's stderr are shown; `finish()` says in one line how much was dropped.
 */
export class StderrRelay {
  private used = 0
  private dropped = 0

  constructor(
    /** The agent's name (its file's until it says otherwise in `ready`). */
    public name: string,
    private readonly sink: (text: string) => void,
    private readonly capBytes = AGENT_STDERR_CAP_BYTES,
  ) {}

  stream(): StderrStream {
    const decoder = new StringDecoder('utf8')
    let partial = ''
    return {
      push: (chunk) => {
        const room = this.capBytes - this.used
        if (room <= 0) {
          this.dropped += chunk.length
          return
        }
        const taken = chunk.length <= room ? chunk : chunk.subarray(0, room)
        this.used += taken.length
        this.dropped += chunk.length - taken.length
        const text = partial + decoder.write(taken)
        const end = text.lastIndexOf('\n')
        if (end === -1) partial = text
        else {
          this.emit(text.slice(0, end))
          partial = text.slice(end + 1)
        }
        if (this.used >= this.capBytes && partial) {
          this.emit(partial)
          partial = ''
        }
      },
      end: () => {
        const rest = partial + decoder.end()
        partial = ''
        if (rest) this.emit(rest)
      },
    }
  }

  /** One line saying how much was dropped, if anything was (then the count starts again). */
  finish(): void {
    if (!this.dropped) return
    this.sink(
      `${this.prefix()}${counted(this.dropped, 'more byte')} of stderr dropped (an agent's stderr is shown up to ${this.capBytes / 2 ** 20} MiB a run)\n`,
    )
    this.dropped = 0
  }

  private prefix(): string {
    return `[${terminalText(this.name)}] `
  }

  private emit(block: string): void {
    const prefix = this.prefix()
    this.sink(
      `${block
        .split('\n')
        .map((line) => prefix + terminalOutput(line))
        .join('\n')}\n`,
    )
  }
}
