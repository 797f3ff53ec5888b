"""Rule-based coreference: the deterministic multi-pass sieve of Lee et al. (2013), registered as `sieve`.

Modules: `sieve` (the learner), `passes` (the pass loop, passes 2-10), `speaker` (pass 1, person
constraints), `constructs` (pass 4), `clusters` (entities: union-find, attribute sets, word sets),
`table` / `tokens` / `quotes` (the integer view of a compiled corpus), `words` and `data/` (word lists).
"""
