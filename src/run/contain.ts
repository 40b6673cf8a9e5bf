import { AgentFailure } from '../core/errors.js'

/**
 * What JavaScript allows against in-process agent code that misbehaves: while `containment` is active, an
 * uncaught exception or unhandled rejection fails the trial that is running (or is logged between trials), and
 * `process.exit()` throws an `agent_exit` failure instead of ending the run. Isolated agents need none of this.
 */
export class Containment {
  private current: ((failure: AgentFailure) => void) | null = null
  private readonly realExit = process.exit
  private readonly proc = process as NodeJS.Process & { reallyExit: (code?: number) => never }
  private readonly realReallyExit = this.proc.reallyExit
  private readonly onUncaught = (error: unknown) => this.blame('uncaught exception', error)
  private readonly onRejection = (error: unknown) => this.blame('unhandled rejection', error)
  /** Agent code that ends the process anyway (`process.reallyExit`, a signal): the run did not finish. */
  private readonly onExit = () => {
    process.exitCode = 1
    this.log(
      'dataforge-evals: the process is ending before the run finished (agent code?); the trials finished so far are in runs.jsonl',
    )
  }

  constructor(private readonly log: (line: string) => void) {
    process.on('uncaughtException', this.onUncaught)
    process.on('unhandledRejection', this.onRejection)
    process.on('exit', this.onExit)
    process.exit = ((code?: number | string | null) => {
      throw new AgentFailure('agent_exit', `agent code called process.exit(${code ?? ''})`)
    }) as typeof process.exit
    this.proc.reallyExit = (code?: number) => {
      throw new AgentFailure('agent_exit', `agent code called process.reallyExit(${code ?? ''})`)
    }
  }

  /** Runs one trial's agent call; an escaped error while it runs fails it. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    let fail!: (failure: AgentFailure) => void
    const escaped = new Promise<never>((_, reject) => {
      fail = reject
    })
    this.current = fail
    try {
      return await Promise.race([work(), escaped])
    } finally {
      this.current = null
    }
  }

  dispose(): void {
    process.off('uncaughtException', this.onUncaught)
    process.off('unhandledRejection', this.onRejection)
    process.off('exit', this.onExit)
    process.exit = this.realExit
    this.proc.reallyExit = this.realReallyExit
  }

  private blame(what: string, error: unknown): void {
    const failure =
      error instanceof AgentFailure
        ? error
        : new AgentFailure(
            'agent_crash',
            `${what} in agent code: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
          )
    if (this.current) this.current(failure)
    else this.log(`dataforge-evals: ${failure.message} (between trials; ignored)`)
  }
}
