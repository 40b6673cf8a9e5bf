import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll } from 'vitest'
import {
  type Gateway,
  type GatewayOptions,
  resolveUpstream,
  startGateway,
  type TrialSpec,
  type Upstream,
} from '../../src/gateway/index.js'
import { FakeProvider } from './fake-llm-upstream.js'

/** A gateway in front of a fake provider on loopback, with the upstream's key and a cache folder: one per test file. */
export interface GatewayFixture {
  fake: FakeProvider
  gateway: Gateway
  upstream: Upstream
  /** A fresh folder, removed after the file's tests. */
  dir: string
  /** A trial spec on the fixture's upstream: case `caseId`, trial 0, seed 1, cache as given (default off). */
  spec(over?: Partial<TrialSpec>): TrialSpec
}

/** Registers the fixture's hooks (start, reset the fake's handler after each test, stop) and returns it, filled once started. */
export function gatewayFixture(secret: string, options: GatewayOptions = {}, caseId = 'case'): GatewayFixture {
  const fixture = {} as GatewayFixture
  beforeAll(async () => {
    fixture.fake = await new FakeProvider().start()
    fixture.gateway = await startGateway({ log: () => undefined, ...options })
    fixture.upstream = resolveUpstream(
      { baseUrl: fixture.fake.baseUrl, keyEnv: 'GW_FIXTURE_KEY' },
      { env: { GW_FIXTURE_KEY: secret } },
    )
    fixture.dir = await mkdtemp(join(tmpdir(), 'dfg-gw-'))
    fixture.spec = (over = {}) => ({
      caseId,
      trial: 0,
      seed: 1,
      upstream: fixture.upstream,
      cache: { mode: 'off', dir: fixture.dir },
      ...over,
    })
  })
  afterEach(() => {
    fixture.fake.handler = undefined
  })
  afterAll(async () => {
    await fixture.gateway?.close()
    await fixture.fake?.stop()
    if (fixture.dir) await rm(fixture.dir, { recursive: true, force: true })
  })
  return fixture
}
