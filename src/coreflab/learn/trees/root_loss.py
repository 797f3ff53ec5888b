"""Tuning B&K's root-attachment loss on dev, for keys that annotate singletons.

B&K 2014 (after Fernandes et al. 2012) charge 1.5 for attaching an anaphoric mention to the
root and 1 for any other wrong arc: a missed link costs more than a false one. That suits
OntoNotes, whose key has no singletons. Where the key annotates them (GUM: half the mentions
are singletons) the same loss pushes the PA step towards linking. `tune_root_loss` trains the
exact-search baseline with each root loss of a small grid and keeps the one with the best dev
MELA after the last iteration; per iteration it records dev MELA and the share of dev mentions
the model attaches to the root beside the key's share, which is what shows over-linking.
A key without singletons keeps the papers' loss without any training. Every learner that lists
`root_loss` in its `tuned_params` (coreflab.learn.tuned) takes the chosen value.
"""

import numpy as np

from coreflab.corpus.singletons import resolve_keep_singletons
from coreflab.learn.evaluation import score_model
from coreflab.learn.registry import make_learner
from coreflab.learn.tuned import read_tuned

PAPERS_ROOT_LOSS = 1.5


def key_root_share(corpus):
    """Share of mentions that start a gold cluster (singletons included): their gold arc is the root."""
    cluster = np.asarray(corpus.arrays["m_cluster"])
    offs = np.asarray(corpus.doc_mention_offsets)
    first = 0
    for d in range(len(offs) - 1):
        c = cluster[offs[d] : offs[d + 1]]
        c = c[c >= 0]
        first += len(np.unique(c))  # each cluster has exactly one first mention
    return first / max(int(offs[-1]), 1)


def root_share(model, corpus, store):
    """Share of mentions the model attaches to the root (starts a new cluster)."""
    ante = np.asarray(model.predict(corpus, store))
    return float(np.mean(ante < 0)) if ante.size else 0.0


def tune_root_loss(train, dev, dev_key, grid, n_iter=3, seed=0, log=print):
    """{"root_loss": chosen, "reason": ..., "runs": [{root_loss, epoch, dev_mela, root_share}], "key_root_share"}."""
    dev_corpus, dev_store = dev
    out = {"grid": [float(x) for x in grid], "key_root_share": round(key_root_share(dev_corpus), 6), "runs": []}
    if not resolve_keep_singletons(None, dev_corpus, dev_key):
        out.update(root_loss=PAPERS_ROOT_LOSS, reason="responses drop singletons: the papers' root loss")
        return out
    if len(grid) == 1:
        out.update(root_loss=float(grid[0]), reason="one value configured")
        return out
    final = {}
    for rl in grid:

        def record(epoch, model, rl=float(rl)):
            mela = float(score_model(model, dev_corpus, dev_store, dev_key).mela)
            share = root_share(model, dev_corpus, dev_store)
            out["runs"].append(
                {"root_loss": rl, "epoch": epoch, "dev_mela": round(mela, 4), "root_share": round(share, 6)}
            )
            log(
                f"root loss {rl:g}, iteration {epoch}: dev MELA {mela:.2f}, at the root {100 * share:.1f}% "
                f"(key {100 * out['key_root_share']:.1f}%)"
            )
            final[rl] = mela

        make_learner("bk_baseline", {"n_iter": int(n_iter), "root_loss": float(rl), "seed": seed}).fit(
            train, callback=record
        )
    best = max(final, key=lambda rl: (round(final[rl], 6), -abs(rl - PAPERS_ROOT_LOSS)))
    out.update(root_loss=best, reason=f"best dev MELA after {n_iter} iterations of bk_baseline")
    return out


def read_tuned_root_loss(path):
    """The root loss a `coreflab tune-root-loss` JSON chose (one-line error for anything else)."""
    return read_tuned(path, ("root_loss",))["root_loss"]


__all__ = ["tune_root_loss", "read_tuned_root_loss", "root_share", "key_root_share", "PAPERS_ROOT_LOSS"]
