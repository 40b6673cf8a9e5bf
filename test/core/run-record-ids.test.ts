import { describe, expect, it } from 'vitest'
import { armIdOf, configIdOf } from '../../src/core/build-run-record.js'
import { type TrialIdentityInput as RecordIdentity, trialIdentity } from '../../src/core/trial-identity.js'
import { hashOf } from '../../src/core/hash.js'

// The ids are written in canonical order without sorting (one per record on the reporter's critical path);
// they must stay the hash of the canonical JSON they always were, or reports stop being comparable.
const canonicalArm = (id: RecordIdentity) =>
  hashOf({
    agent: id.agent,
    agentKind: id.agentKind ?? 'custom',
    model: id.model ?? null,
    provider: id.provider ?? null,
    generation: id.generation ?? null,
  })
const canonicalConfig = (id: RecordIdentity) =>
  hashOf({
    arm: canonicalArm(id),
    caseId: id.caseId,
    turn: id.turn ?? null,
    suite: id.suite ?? id.dataset,
    dataset: id.dataset,
    category: id.category ?? null,
    datasetSha256: id.datasetSha256 ?? null,
  })

const identities: RecordIdentity[] = [
  { caseId: 'c', dataset: 'd', agent: 'a', trial: 0, seed: 1 },
  { caseId: 'c', dataset: 'd', agent: 'a', trial: 0, seed: 1, model: 'null' },
  { caseId: 'c', dataset: 'd', agent: 'a', trial: 0, seed: 1, model: null, provider: 'null' },
  { caseId: 'c', dataset: 'd', agent: 'a\u0000sx', agentKind: 'custom', trial: 0, seed: 1 },
  { caseId: 'c', dataset: 'd', agent: 'a', agentKind: '\u0000sx', trial: 0, seed: 1 },
  {
    caseId: 'q "1"',
    turn: 3,
    suite: 's',
    dataset: 'd',
    category: 'joins',
    agent: 'groq',
    agentKind: 'provider',
    model: 'llama',
    provider: 'groq',
    trial: 2,
    seed: 9,
    generation: 'g2',
    datasetSha256: { dirty: 'ab', clean: 'cd' },
  },
]

describe('run record ids', () => {
  it('are the sha256 of the canonical JSON of the arm and of the config', () => {
    for (const id of identities) {
      expect(armIdOf(trialIdentity(id))).toBe(canonicalArm(id))
      expect(configIdOf(trialIdentity(id))).toBe(canonicalConfig(id))
    }
  })

  it('tell apart identities that differ only in null versus a string', () => {
    expect(new Set(identities.slice(0, 5).map((id) => armIdOf(trialIdentity(id)))).size).toBe(5)
  })
})
