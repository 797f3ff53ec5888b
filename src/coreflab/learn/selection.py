"""Greedy feature-template selection (Björkelund & Kuhn 2014, Sec. 6), which feeds every learner.

The training documents are split 75/25 (seeded, by document). A candidate template set is
scored by training a learner on the 75% part with that set and computing MELA on the 25%
part with the project's scorer. Local templates are selected first by alternating forward
steps (add the template that raises MELA most) and backward steps (drop a template whose
removal raises MELA), stopping when no step gains more than `min_gain`; then non-local
templates are added forward, starting from the selected local set, with delayed LaSO.
Every evaluated step is logged (step, phase, action, template, MELA, kept).
Candidates of one step are evaluated in parallel (joblib processes). With the template pool given
(`pool`: the start set and the candidates), each split's store of the whole pool is extracted once
and every candidate set's store is cut from it (`features/template_subsets.py`: the same arrays as
extracting it, a fraction of the time). Where neither that pool nor each evaluation's flat stores fit
their memory budgets (a predicted-mention training split at CoNLL-2012 size), templates are judged on a
seeded sample of whole documents whose pool fits, unless `sample` is off.
"""

import time
import uuid
import warnings
from dataclasses import dataclass

import numpy as np

from coreflab.corpus.compiled import CompiledCorpus
from coreflab.corpus.singletons import parse_mode, resolve_keep_singletons
from coreflab.errors import one_line_warnings
from coreflab.features.extract import (
    extract_arc_store,
    extract_shared_arc_store,
    tagged_store_bytes,
    tagged_store_bytes_per_document,
)
from coreflab.learn.evaluation import score_model
from coreflab.learn.registry import make_learner


def split_documents(docs, seed, fraction=0.75):
    """(train part, held-out part) of a list of Documents, by document, seeded."""
    order = np.random.default_rng(seed).permutation(len(docs))
    cut = max(1, min(len(docs) - 1, int(round(fraction * len(docs)))))
    return [docs[i] for i in sorted(order[:cut])], [docs[i] for i in sorted(order[cut:])]


def documents_within(doc_bytes, budget, seed):
    """Ascending indices of a seeded random set of documents whose bytes add up to at most `budget`
    (at least one document): the documents in a seeded order, up to the first that would overflow it."""
    doc_bytes = np.asarray(doc_bytes, np.int64)
    order = np.random.default_rng(seed).permutation(len(doc_bytes))
    fits = np.cumsum(doc_bytes[order]) <= budget
    n = len(order) if fits.all() else int(np.argmin(fits))
    return np.sort(order[: max(n, 1)])


def seeded_share(n, share, seed):
    """Ascending indices of a seeded random `share` of n items (at least one)."""
    k = min(n, max(1, int(round(share * n))))
    return np.sort(np.random.default_rng(seed).permutation(n)[:k])


POOL_BUDGET_BYTES = 2 << 30  # the pool's stores (ids and template tags) are kept only below this size
# a sample's training pool aims below this share of its budget: the job holds the pool twice (its own and
# the workers' memory maps) and each worker a cut store nearly as large, so at CoNLL-2012 size with predicted
# mentions 0.9 of the budget took the selection job to 10.3 GB (PSS); the held-out part adds a third
SAMPLE_SHARE_OF_BUDGET = 0.5
# above the pool budget each evaluation extracts its stores: flat ones while they stay below this, else
# shared-row ones (a predicted-mention training set at CoNLL-2012 size: about 10 GB flat per worker)
EXTRACT_BUDGET_BYTES = 4 << 30


@dataclass
class _PartCompiler:
    """Compiles a part's documents the way the learners' split is: its extracted mentions, filtered by the
    mention classifier with probabilities cross-fitted within the part."""

    name: str
    mentions: str
    model: object
    mention_filter: float
    jobs: int

    def __call__(self, docs, split):
        from coreflab.corpus.compile import compile_documents
        from coreflab.features.mention_model import apply_mention_model

        extract = self.model.extractor if self.model is not None else self.mentions
        part = compile_documents(docs, self.name, split, extract)
        if self.model is None:
            return part
        return apply_mention_model(part, self.model, self.mention_filter, cross_fit=True, jobs=self.jobs)[0]


class Evaluator:
    """MELA on the held-out part for a template set (local entries + non-local names)."""

    def __init__(
        self,
        docs,
        name,
        mentions="gold",
        seed=1,
        iterations=3,
        beam=5,
        n_bits=20,
        window=None,
        reach=True,
        root_loss=1.5,
        nonlocal_iterations=None,
        nonlocal_beam=None,
        nonlocal_seeds=1,
        pool=None,
        keep_singletons=None,
        mention_model=None,
        mention_filter=0.1,
        policy_from=None,
        jobs=1,
        sample=True,
    ):
        """n_bits and window: those of the training arc stores, so that a template is judged
        with the hashing collisions and candidate sets it will be trained with.
        nonlocal_iterations: training iterations of the delayed-LaSO evaluations (None: `iterations`);
        a non-local template's weights are learned only along the beam's updates, so it can be
        judged on fewer passes than it will be trained with only at the cost of judging it unlearned
        (GUM: after 1 pass every candidate lowered held-out MELA, after 5 three raised it).
        nonlocal_beam: the beam of those evaluations (None: `beam`); nonlocal_seeds: training seeds
        (seed, seed + 1, …) each delayed-LaSO evaluation averages over, so that a template is not
        kept or dropped on one seed's noise.
        pool: every local template a set may hold (their stores are then cut from the pool's, unless
        the pool's stores exceed POOL_BUDGET_BYTES: GUM's take 1.1 GB, a CoNLL-2012 training set
        with `local_fine` about three times that, and each worker also holds the store it cuts).
        keep_singletons: whether held-out responses keep one-mention clusters (None: as the whole
        training key, the decision `coreflab prepare` records for the training split).
        mention_model: path of the mention classifier of a predicted-mention run; both parts are filtered
        at mention_filter with probabilities cross-fitted within each part, as the training split is.
        policy_from: path of the compiled training split, whose singleton policy the held-out part follows
        (keep_singletons then only overrides it when not auto).
        jobs: the mention classifier's cross-fitting fits at a time.
        sample: where each evaluation would have to build shared-row stores (its flat ones over
        EXTRACT_BUDGET_BYTES, the pool over POOL_BUDGET_BYTES), judge templates on a seeded sample of whole
        documents of each part whose pool fits (`sampled` says how many); False: every document (at
        CoNLL-2012 size with predicted mentions about 30 s per evaluation on 2 workers, against 2 s)."""
        train_docs, self.held_docs = split_documents(docs, seed)
        # here, not at the top: the learner registry imports this module on every start
        from coreflab.features.mention_model import MentionModel
        from coreflab.features.template_subsets import TemplatePool

        model = MentionModel.load(mention_model) if mention_model is not None else None
        compile_part = _PartCompiler(name, mentions, model, mention_filter, jobs)
        self.train = compile_part(train_docs, "select-train")
        self.held = compile_part(self.held_docs, "select-held")
        self.store_options = {"n_bits": n_bits, "window": window, "reach": reach}
        # documents each part holds of its whole, (judged, of), when the memory budgets made a sample
        self.sampled = None
        need = tagged_store_bytes(self.train, pool, **self.store_options) if pool is not None else 0
        if sample and 8 * need > 9 * EXTRACT_BUDGET_BYTES:  # beyond the pool and flat stores per evaluation
            per_doc = tagged_store_bytes_per_document(self.train, pool, **self.store_options)
            keep = documents_within(per_doc, SAMPLE_SHARE_OF_BUDGET * 3 * POOL_BUDGET_BYTES // 4, (seed, 1))
            held = seeded_share(len(self.held_docs), len(keep) / len(train_docs), (seed, 2))
            self.sampled = {"train": (len(keep), len(train_docs)), "held": (len(held), len(self.held_docs))}
            self.sampled["pool_gb_of_all"] = round(need / 1e9, 2)
            train_docs = [train_docs[i] for i in keep]
            self.held_docs = [self.held_docs[i] for i in held]
            self.train = compile_part(train_docs, "select-train")
            self.held = compile_part(self.held_docs, "select-held")
            need = tagged_store_bytes(self.train, pool, **self.store_options)
        recorded = CompiledCorpus.load(policy_from) if policy_from is not None else None
        # auto/None: the whole training key's decision, as `coreflab prepare` records it for the training split
        self.held.response_singletons = resolve_keep_singletons(keep_singletons, recorded, key_docs=docs)
        if recorded is not None and parse_mode(keep_singletons) is None:
            self.held.singleton_policy = recorded.singleton_policy
        self.seed, self.iterations, self.beam, self.root_loss = seed, iterations, beam, root_loss
        self.nonlocal_iterations = iterations if nonlocal_iterations is None else nonlocal_iterations
        self.nonlocal_beam = beam if nonlocal_beam is None else nonlocal_beam
        self.nonlocal_seeds = max(1, int(nonlocal_seeds))
        self.pools = None
        self.worker_key = uuid.uuid4().hex  # `_in_worker` keeps one copy of this evaluator per worker
        # the held-out part is a third of the training part's size: both pools within the budget, judged
        # by counting the features before any pool is built
        self.shared_stores = False
        if pool is not None:
            if 4 * need <= 3 * POOL_BUDGET_BYTES:
                self.pools = (
                    TemplatePool(self.train, pool, **self.store_options),
                    TemplatePool(self.held, pool, **self.store_options),
                )
            else:  # the flat stores of both parts, about 8/9 of the tagged training pool, per evaluation
                self.shared_stores = 8 * need > 9 * EXTRACT_BUDGET_BYTES

    def _stores(self, local):
        """(train store, held-out store) of a local template list."""
        if self.pools is not None and self.pools[0].covers(local):
            # scratch: both stores live only for one evaluation
            return self.pools[0].subset_store(local, scratch=True), self.pools[1].subset_store(local, scratch=True)
        if self.shared_stores:  # built a block at a time, at about 40% of the flat bytes and twice the time
            return tuple(
                extract_shared_arc_store(part, list(local), **self.store_options)[0] for part in (self.train, self.held)
            )
        return tuple(extract_arc_store(part, list(local), **self.store_options) for part in (self.train, self.held))

    def __call__(self, local, nonlocal_=None):
        """MELA of the exact-search baseline (nonlocal_ None) or of delayed LaSO with the given
        non-local templates (a list, possibly empty: the beam learner with local features only)."""
        if not local:
            return 0.0
        train_store, held_store = self._stores(local)
        if nonlocal_ is None:
            model = make_learner(
                "bk_baseline", {"n_iter": self.iterations, "seed": self.seed, "root_loss": self.root_loss}
            )
            model.fit((self.train, train_store))
            return float(score_model(model, self.held, held_store, self.held_docs).mela)
        scores = []
        for seed in range(self.seed, self.seed + self.nonlocal_seeds):
            model = make_learner(
                "bk_delayed_laso",
                {
                    "n_iter": self.nonlocal_iterations,
                    "beam": self.nonlocal_beam,
                    "nonlocal_templates": list(nonlocal_),
                    "seed": seed,
                    "root_loss": self.root_loss,
                },
            )
            model.fit((self.train, train_store))
            scores.append(float(score_model(model, self.held, held_store, self.held_docs).mela))
        return float(np.mean(scores))


def _evaluate_all(evaluate, sets, jobs, progress=None):
    """Scores of the sets, in their order; progress(done, total, score) after each, in that order.

    Workers get the evaluator's large arrays as copy-on-write memory maps (mmap_mode "c"), not
    joblib's default read-only ones: numba compiles a kernel anew for read-only arrays, so on a
    cold cache each worker compiled every kernel the parent had already compiled and cached
    (GUM: selection 50 s longer cold than warm). A write in a worker stays in that worker."""
    if jobs <= 1 or len(sets) <= 1:
        results = (evaluate(*s) for s in sets)
    else:
        from joblib import Parallel, delayed  # here: the learner registry imports this module

        results = Parallel(n_jobs=jobs, backend="loky", return_as="generator", mmap_mode="c")(
            delayed(_in_worker)(evaluate, s) for s in sets
        )
    scores = []
    for score in results:
        scores.append(score)
        if progress is not None:
            progress(len(scores), len(sets), score)
    return scores


_WORKER_EVALUATOR = {}  # worker_key -> the evaluator this worker process unpickled first


def _in_worker(evaluate, args):
    """One evaluation in a joblib worker, whose warnings read like the command's (one line, no source path).

    An evaluator with a `worker_key` (which never changes its arrays) is kept by the worker and reused
    for every later task of that key: each task unpickles the evaluator afresh, with new memory maps of
    its arrays, and touching GUM's 1.1 GB pool through new maps cost every task its page faults again."""
    warnings.formatwarning = one_line_warnings("select")
    key = getattr(evaluate, "worker_key", None)
    if key is not None:
        if key not in _WORKER_EVALUATOR:
            _WORKER_EVALUATOR.clear()  # one evaluator at a time: an earlier command's is dropped
            _WORKER_EVALUATOR[key] = evaluate
        evaluate = _WORKER_EVALUATOR[key]
    return evaluate(*args)


class StepProgress:
    """progress(done, total, score): a line per tenth of a step's candidates (`step 1 (remove): 23/111
    evaluated, 30 s, best so far 78.40`), in steps of 20 candidates or more: at CoNLL-2012 size a step
    takes ten minutes, and its log would otherwise stay silent until it ends."""

    def __init__(self, label, log, tenths=10):
        self.label, self.log, self.tenths = label, log, tenths
        self.t0 = time.perf_counter()
        self.best = None
        self.shown = 0

    def __call__(self, done, total, score):
        self.best = score if self.best is None else max(self.best, score)
        if total >= 2 * self.tenths and done < total and done * self.tenths // total > self.shown:
            self.shown = done * self.tenths // total
            self.log(
                f"  {self.label}: {done}/{total} evaluated, {time.perf_counter() - self.t0:.0f} s, "
                f"best so far {self.best:.2f}"
            )


def _evaluate_step(evaluate, sets, jobs, progress, first=None, on_first=None):
    """(score of `first`, scores of the sets): `first`, a set the step is compared against, is evaluated
    in the same batch ahead of the step's sets, not alone while the other workers wait (GUM: 6 s at
    each phase's start, on one core); on_first(score) is called as soon as it is known."""
    if first is None:
        return None, _evaluate_all(evaluate, sets, jobs, progress)

    def progress_after_first(done, total, score):
        if done == 1:
            on_first(score)
        else:
            progress(done - 1, total - 1, score)

    scores = _evaluate_all(evaluate, [first] + list(sets), jobs, progress_after_first)
    return scores[0], scores[1:]


def _print_now(text):
    print(text, flush=True)  # the workflow sends this to a log file: a line is there when it is said


def greedy_selection(
    evaluate,
    start,
    local_candidates,
    nonlocal_candidates,
    min_gain=0.05,
    max_steps=10,
    jobs=1,
    log=_print_now,
    nonlocal_max_steps=None,
):
    """Returns (selected local, selected non-local, rows of the step log).

    The local phase takes at most `max_steps` steps (an add and a remove step each count); the
    non-local phase at most `nonlocal_max_steps` forward steps, or, when None, what is left of
    2 x max_steps."""
    selected, rows = list(start), []
    best = None  # the start set's score: evaluated with the first step's candidates

    def start_row(score):
        rows.append((0, "local", "start", ", ".join(selected) or "-", score, True))
        log(f"start: {len(selected)} templates, MELA {score:.2f}")

    step = 0
    improved = True
    while improved and step < max_steps:
        improved = False
        for action in ("add", "remove"):
            if action == "add":
                cands = [t for t in local_candidates if t not in selected]
                sets = [(selected + [t],) for t in cands]
            else:
                cands = list(selected) if len(selected) > 1 else []
                sets = [([s for s in selected if s != t],) for t in cands]
            if not cands:
                continue
            step += 1
            t0 = time.perf_counter()
            first = (list(selected),) if best is None else None
            start_score, scores = _evaluate_step(
                evaluate, sets, jobs, StepProgress(f"step {step} ({action})", log), first, start_row
            )
            best = best if start_score is None else start_score
            k = int(np.argmax(scores))
            keep = scores[k] > best + min_gain
            for t, sc in zip(cands, scores):
                rows.append((step, "local", action, t, sc, keep and t == cands[k]))
            log(
                f"step {step} ({action}, {len(cands)} candidates, {time.perf_counter() - t0:.1f} s): best {cands[k]} "
                f"{scores[k]:.2f} vs {best:.2f} -> {'kept' if keep else 'no gain'}"
            )
            if keep:
                selected = list(sets[k][0])
                best = scores[k]
                improved = True
            if step >= max_steps:
                break
    if best is None:  # no local step evaluated anything
        best = evaluate(selected)
        start_row(best)
    chosen_nonlocal = []
    base = None  # non-local candidates are judged against the same beam learner with local features only
    local_steps = step

    def nonlocal_start_row(score):
        rows.append((local_steps, "nonlocal", "start", "-", score, True))
        log(f"non-local start (delayed LaSO, local features only): MELA {score:.2f}")

    budget = 2 * max_steps - step if nonlocal_max_steps is None else nonlocal_max_steps
    for _ in range(budget if nonlocal_candidates else 0):  # none when the budget is spent
        cands = [t for t in nonlocal_candidates if t not in chosen_nonlocal]
        if not cands:
            break
        step += 1
        t0 = time.perf_counter()
        sets = [(selected, chosen_nonlocal + [t]) for t in cands]
        first = (selected, []) if base is None else None
        start_score, scores = _evaluate_step(
            evaluate, sets, jobs, StepProgress(f"step {step} (non-local add)", log), first, nonlocal_start_row
        )
        base = base if start_score is None else start_score
        k = int(np.argmax(scores))
        keep = scores[k] > base + min_gain
        for t, sc in zip(cands, scores):
            rows.append((step, "nonlocal", "add", t, sc, keep and t == cands[k]))
        log(
            f"step {step} (non-local add, {len(cands)} candidates, {time.perf_counter() - t0:.1f} s): best "
            f"{cands[k]} {scores[k]:.2f} vs {base:.2f} -> {'kept' if keep else 'stop'}"
        )
        if not keep:
            break
        chosen_nonlocal.append(cands[k])
        base = scores[k]
    return selected, chosen_nonlocal, rows
