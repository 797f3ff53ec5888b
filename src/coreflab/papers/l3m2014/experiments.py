"""The studies of Samdani, Chang & Roth 2014 beside Table 1: learning curves over a (λ, η0) grid,
robustness to the initialisation, CCCP vs SGD (training-data clustering quality and time), and
the mention-order control. Robustness and order control run Table 1's systems as tuned on dev
(`report.tuned_settings` of the curves), so they report "the same set-up as before" (§5.4).
Each study takes its data and a dataclass of settings (`CurveSettings`, `RobustnessSettings`,
`CccpSettings`, `OrderSettings`), so it runs from a notebook or a test as from its verb; each returns
the study's rows as a DataFrame. Their budgets are sized to the corpus (`robustness_runs_within`,
`CccpSettings.max_mentions`) so that no study outlasts the leaderboard learners' training; each
logs what it ran and, while it runs, a progress line at least every 30 s of work (`progress`)."""

import json
import sys
import time
from dataclasses import asdict, dataclass, field, replace

import numpy as np
import pandas as pd

from coreflab.errors import UserError
from coreflab.features.shared_rows import expand
from coreflab.learn.base import TrainingData
from coreflab.learn.evaluation import AVG_METRICS, avg_row, score_model
from coreflab.learn.labels import labels_to_antecedents
from coreflab.learn.leftlink.l3m import L3M
from coreflab.learn.leftlink.l3m_cccp import train_cccp
from coreflab.learn.output import response_documents
from coreflab.learn.registry import make_learner
from coreflab.metrics.scorer import score_documents
from coreflab.papers.l3m2014.order_control import shuffled_data
from coreflab.papers.l3m2014.progress import Progress, run_all
from coreflab.papers.l3m2014.report import ONLINE, tuned_settings


def prefix_sizes(data, doc_idx, max_mentions=None):
    """Mentions kept of each document `doc_idx`: all, or its first `max_mentions` (None/0: all)."""
    sizes = np.diff(np.asarray(data.store.doc_mention_offsets, dtype=np.int64))[np.asarray(doc_idx, dtype=np.int64)]
    return np.minimum(sizes, max_mentions) if max_mentions else sizes


def documents(data, doc_idx, max_mentions=None):
    """TrainingData of the documents `doc_idx` of a split (ascending), corpus arrays and store sliced consistently;
    with `max_mentions`, each document cut to its first mentions (a left-link item set: every antecedent
    of a kept mention precedes it, so its arcs all stay)."""
    from types import SimpleNamespace

    s = expand(data.store)
    doc_off = np.asarray(s.doc_mention_offsets, dtype=np.int64)
    m_arc = np.asarray(s.m_arc_offsets, dtype=np.int64)
    foff = np.asarray(s.arc_feat_offsets, dtype=np.int64)
    vals = getattr(s, "arc_vals", None)
    rows, arcs, entries = [], [], []
    sizes = prefix_sizes(data, doc_idx, max_mentions)
    for d, size in zip(np.asarray(doc_idx, dtype=np.int64), sizes):
        lo, hi = doc_off[d], doc_off[d] + size
        rows.append(np.arange(lo, hi))
        arcs.append(np.arange(m_arc[lo], m_arc[hi]))
        entries.append(np.arange(foff[m_arc[lo]], foff[m_arc[hi]]))
    rows, arcs, entries = (np.concatenate(x) if x else np.empty(0, np.int64) for x in (rows, arcs, entries))
    new_doc_off = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    arc_counts = np.diff(m_arc)[rows]
    feat_counts = np.diff(foff)[arcs]
    store = SimpleNamespace(
        n_bits=s.n_bits,
        doc_mention_offsets=new_doc_off,
        m_arc_offsets=np.concatenate([[0], np.cumsum(arc_counts)]).astype(np.int64),
        arc_ante=np.asarray(s.arc_ante)[arcs],
        arc_feat_offsets=np.concatenate([[0], np.cumsum(feat_counts)]).astype(np.int64),
        arc_feats=np.asarray(s.arc_feats)[entries],
        arc_vals=None if vals is None else np.asarray(vals)[entries],
    )
    corpus = SimpleNamespace(
        m_cluster=np.asarray(data.corpus.m_cluster)[rows],
        arrays={"doc_mention_offsets": new_doc_off},
        n_mentions=int(rows.size),
    )
    return TrainingData(corpus, store)


def _tuned_rows(curves, techniques, setting="tuned"):
    """Table 1's dev-tuned systems (`report.tuned_settings`) of `techniques`, in that order."""
    chosen = tuned_settings(curves)
    chosen = chosen[chosen.setting == setting].set_index("technique")
    missing = [t for t in techniques if t not in chosen.index]
    if missing:
        raise UserError(f"the curves hold no dev-tuned system for {', '.join(missing)} (Table 1's techniques)")
    return chosen.loc[list(techniques)].reset_index()


def learner_params(row, seed):
    """Parameters of a Table 1 system (a `tuned_settings` row): its base parameters, the tuned λ and η0
    (when the learner has them), γ for L3M, and its passes."""
    params = json.loads(row["params"]) if isinstance(row["params"], str) else {}
    for name in ("lam", "eta0"):
        if pd.notna(row[name]):
            params[name] = float(row[name])
    if row["learner"] == "l3m":
        params["gamma"] = float(row["gamma"])
    params["epochs"] = int(row["passes"])
    params["seed"] = seed
    return params


def tuned_l3m_step(curves, gamma, lam, eta0):
    """(λ, η0, where they came from) of L3M at γ for one pass: the dev-best 1-pass setting of the L3M
    curve at γ (Table 1's tuning), else of the tuned-γ L3M; (lam, eta0) as given without curves."""
    if curves is None:
        return lam, eta0, "fixed, not tuned"
    l3m = curves[curves.learner == "l3m"]
    at = l3m[np.isclose(l3m["gamma"].astype(float), gamma)]
    if len(at):
        row = _tuned_rows(at.assign(gamma=gamma), ["l3m"], "1 pass").iloc[0]
        return float(row["lam"]), float(row["eta0"]), f"tuned on dev for L3M at γ = {gamma:g}, 1 pass"
    row = _tuned_rows(curves, ["l3m"], "1 pass").iloc[0]
    return float(row["lam"]), float(row["eta0"]), f"tuned on dev for L3M at γ = {float(row['gamma']):g}, 1 pass"


def training_arcs(data):
    """Arcs (candidate antecedent links, the dummy's included) of a split: a pass's work."""
    return int(np.asarray(data.store.m_arc_offsets)[-1])


def used_slots(data):
    """The hashed feature ids that fire on some arc of a split (ascending; shared rows read in place)."""
    from coreflab.features.shared_rows import mark_ids

    s = data.store
    present = np.zeros(1 << int(s.n_bits), dtype=np.bool_)
    arcs = np.arange(np.asarray(s.arc_ante).shape[0], dtype=np.int64)
    mark_ids(np.asarray(s.arc_feat_offsets, dtype=np.int64), np.asarray(s.arc_feats), arcs, present)
    return np.flatnonzero(present)


def learned_rms(w, used):
    """RMS of the weights `w` over the slots `used` (the feature ids that fire in the training split):
    √(Σ_{f ∈ used} w_f² / |used|). A run from w = 0 leaves every other slot at 0, so this is the scale of
    what learning wrote, not diluted by the hash space's empty slots; 0 when nothing is used."""
    used = np.asarray(used, dtype=np.int64)
    if used.size == 0:
        return 0.0
    w = np.asarray(w, dtype=np.float64)[used]
    return float(np.sqrt(np.mean(w * w)))


def arc_budget(max_arcs, max_passes, arcs):
    """The arcs a study may process: `max_arcs`, `max_passes` passes over a split of `arcs` arcs, the
    smaller of those given (None/0: not given); None without either (no cap)."""
    caps = [int(max_arcs)] if max_arcs else []
    caps += [int(float(max_passes) * int(arcs))] if max_passes else []
    return min(caps) if caps else None


def robustness_runs_within(runs, scales, max_arcs, arcs):
    """Random starts per scale within a budget of `max_arcs` arcs (None/0: `runs`): every start costs `arcs`
    (its training pass and its scoring), the zero start as much; at most `runs`, at least 2 per scale (a
    spread) even past the budget."""
    if not max_arcs:
        return int(runs)
    fit = (int(max_arcs) // max(int(arcs), 1) - 1) // max(int(scales), 1)
    return int(max(2, min(int(runs), fit)))


def _settings_from_args(cls, args):
    """`cls` with the fields `args` (an argparse namespace) sets; None keeps the default."""
    return cls(**{k: getattr(args, k) for k in cls.__dataclass_fields__ if getattr(args, k, None) is not None})


@dataclass(frozen=True)
class RobustnessSettings:
    """runs: random starts per scale (at most); init_sd: the configured start's standard deviation (the
    paper leaves it open); max_arcs, max_passes: the arcs the study may process, absolute or in passes
    over the training split (`arc_budget`; neither: no cap); jobs: runs at a time."""

    runs: int = 30
    gamma: float = 1.0
    lam: float = 1e-4
    eta0: float = 0.1
    seed: int = 1
    init_sd: float = 1.0
    max_arcs: int | None = None
    max_passes: float | None = None
    jobs: int = 1

    @classmethod
    def from_args(cls, args):
        return _settings_from_args(cls, args)


def _stderr(text):
    print(text, file=sys.stderr, flush=True)


def robustness(settings, train, test, key, train_key, curves=None, log=_stderr):
    """One row per run: training-split scores (the paper's measure) and test scores (`test …`), with the
    run's `init sd` (0 for the zero start) and the zero start's `learned RMS` (`learned_rms`).

    Every run sees the documents in the same order (`seed`); only the initial weights differ (N(0, sd²)
    on every hashed weight, `init_seed` = seed + 1000 + run), so the spread is that of the start alone.
    The runs go at two scales, the same draws scaled: the configured `init_sd` and the zero start's
    learned RMS (a start of the size of what learning writes; one scale when the two coincide). As many
    runs per scale as the budget allows (`robustness_runs_within`). λ and η0 are Table 1's dev-tuned ones
    for L3M at γ after one pass (`tuned_l3m_step`; without curves, settings.lam and .eta0).
    """
    lam, eta0, source = tuned_l3m_step(curves, settings.gamma, settings.lam, settings.eta0)
    common = dict(gamma=settings.gamma, lam=lam, eta0=eta0, epochs=1, seed=settings.seed)
    per_run = 2 * training_arcs(train) + training_arcs(test)  # a training pass, scoring train and test
    budget = arc_budget(settings.max_arcs, settings.max_passes, training_arcs(train))
    runs = robustness_runs_within(settings.runs, 2, budget, per_run)

    def row(run, sd, model):
        out = {"run": run, "init sd": sd, **avg_row(score_model(model, train.corpus, train.store, train_key))}
        out.update({f"test {m}": v for m, v in avg_row(score_model(model, test.corpus, test.store, key)).items()})
        out.update({"gamma": settings.gamma, "lam": lam, "eta0": eta0, "tuning": source})
        return out

    zero = L3M(**common).fit(train)
    rms = learned_rms(zero.coef_, used_slots(train))
    scales = [float(settings.init_sd)] + ([rms] if rms > 0 and not np.isclose(rms, settings.init_sd) else [])
    cap = f"a budget of {budget:,} arcs, {per_run:,} a run" if budget else "no budget"
    log(
        f"robustness: {runs} random starts at each of init sd {', '.join(f'{x:.4g}' for x in scales)} "
        f"(the zero start's learned RMS {rms:.4g}), {settings.runs} asked; {cap}; {settings.jobs} job(s)"
    )
    starts = [(sd, run) for sd in scales for run in range(runs)]
    progress = Progress("robustness", len(starts), "random starts")

    def start(point):
        sd, run = point
        model = L3M(init="normal", init_scale=sd, init_seed=settings.seed + 1000 + run, **common).fit(train)
        return row(run, sd, model)

    def done(i, r):
        progress.step(f"init sd {r['init sd']:.4g} run {r['run']}: AVG {r['AVG']:.2f}")

    rows = run_all(start, starts, settings.jobs, on_done=done, progress=progress)
    rows.append(row("zero-init", 0.0, zero))
    df = pd.DataFrame(rows)
    df.insert(2, "learned RMS", rms)
    return df


def random_subsets(n_pool, size, draws, seed):
    """`draws` subsets of `size` item sets (fewer if the pool is smaller), each drawn without replacement
    from range(n_pool), independently of the others; ascending indices."""
    rng = np.random.default_rng(seed)
    size = min(int(size), int(n_pool))
    return [np.sort(rng.choice(n_pool, size, replace=False)) for _ in range(draws)]


@dataclass(frozen=True)
class CccpSettings:
    """CCCP vs SGD (§5.3): `draws` random subsets of `docs` training item sets, each cut to its first
    `max_mentions` mentions (None/0: whole item sets, or the cut that fits the budget); CCCP until an
    outer step lowers the objective by less than `tol` of it, at most `max_outer` outer steps of at most
    `inner` L-BFGS iterations; `sgd_passes` SGD passes; max_arcs, max_passes: the arcs the study may
    process, absolute or in passes over the training split (`arc_budget`; neither: no cap), which sets
    the cut when `max_mentions` is not given (`cccp_mentions_within`); `jobs` draws at a time."""

    docs: int = 20
    draws: int = 3
    max_outer: int = 100
    inner: int = 100
    tol: float = 1e-6
    sgd_passes: int = 1
    gamma: float = 1.0
    lam: float = 1e-4
    eta0: float = 0.1
    seed: int = 1
    max_mentions: int | None = None
    max_arcs: int | None = None
    max_passes: float | None = None
    jobs: int = 1

    @classmethod
    def from_args(cls, args):
        return _settings_from_args(cls, args)

    def training(self):
        """The keyword arguments of `compare_cccp_sgd` (the settings `doccluster.cccp_vs_sgd` takes)."""
        keep = ("gamma", "lam", "eta0", "sgd_passes", "max_outer", "inner", "tol", "seed")
        return {k: v for k, v in asdict(self).items() if k in keep}

    def describe(self, sets, draws, unit="item sets"):
        """What the study ran, for its log: "CCCP vs SGD on 20 item sets of ≤ 60 mentions, 3 draws"."""
        cap = f" of ≤ {self.max_mentions} mentions" if self.max_mentions else ""
        return f"CCCP vs SGD on {sets} {unit}{cap}, {draws} draw{'s' if draws != 1 else ''}"


def prefix_arcs(data, doc_idx, max_mentions=None):
    """Arcs of the documents `doc_idx` cut to their first `max_mentions` mentions (None/0: whole)."""
    doc_off = np.asarray(data.store.doc_mention_offsets, dtype=np.int64)
    m_arc = np.asarray(data.store.m_arc_offsets, dtype=np.int64)
    lo = doc_off[np.asarray(doc_idx, dtype=np.int64)]
    return int(np.sum(m_arc[lo + prefix_sizes(data, doc_idx, max_mentions)] - m_arc[lo]))


def cccp_mentions_within(data, subsets, max_arcs, sweeps, fixed=0, least=2):
    """The cut (mentions per item set) of CCCP vs SGD within `max_arcs` arcs: the largest m with
    `sweeps` · Σ_subsets prefix_arcs(m) + `fixed` ≤ max_arcs, where a sweep is one pass over a draw's
    arcs (CCCP's worst case is max_outer · inner L-BFGS iterations, SGD's its passes) and `fixed` the
    rest (scoring). None when whole item sets fit (or no budget); at least `least` (a link to learn)."""
    if not max_arcs or not len(subsets):
        return None
    cost = lambda m: int(sweeps) * sum(prefix_arcs(data, idx, m) for idx in subsets) + int(fixed)  # noqa: E731
    longest = int(max(prefix_sizes(data, idx).max(initial=0) for idx in subsets))
    if cost(longest) <= max_arcs:
        return None
    lo, hi = 0, longest  # cost(lo) fits or lo = 0, cost(hi) does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if cost(mid) <= max_arcs else (lo, mid)
    return max(int(least), lo)


def compare_cccp_sgd(data, quality, *, gamma, lam, eta0, sgd_passes, max_outer, inner, tol, seed, progress=None):
    """Two rows, CCCP then SGD: L3M at γ trained on `data` from w = 0 by CCCP (until an outer step lowers
    the objective by less than `tol` of it, at most `max_outer` outer steps of at most `inner` L-BFGS
    iterations) and by `sgd_passes` SGD passes; `quality(model)` is the training-data clustering quality.
    Seconds are the training time alone. progress(step, outer, objective) after each CCCP outer step."""
    inner_counts = []
    start = time.perf_counter()
    w, history = train_cccp(
        data,
        gamma=gamma,
        lam=lam,
        outer=max_outer,
        tol=tol,
        inner_maxiter=inner,
        inner_iterations=inner_counts,
        progress=progress,
    )
    cccp_secs = time.perf_counter() - start
    objectives = [h[1] for h in history]
    converged = len(objectives) > 1 and objectives[-2] - objectives[-1] < tol * max(1.0, abs(objectives[-1]))
    cccp = L3M(gamma=gamma, lam=lam, eta0=eta0, seed=seed)
    cccp.coef_ = w
    sgd = L3M(gamma=gamma, lam=lam, eta0=eta0, epochs=sgd_passes, seed=seed)
    start = time.perf_counter()
    sgd.fit(data)
    sgd_secs = time.perf_counter() - start
    offsets = np.asarray(data.store.doc_mention_offsets)
    common = {"sets": len(offsets) - 1, "items": int(offsets[-1]), "largest set": int(np.diff(offsets).max(initial=0))}
    return [
        {
            "method": "CCCP",
            **common,
            "iterations": len(history) - 1,
            "inner iterations": int(sum(inner_counts)),
            "converged": bool(converged),
            "seconds": cccp_secs,
            "objective": objectives[-1],
            "quality": float(quality(cccp)),
        },
        {
            "method": "SGD",
            **common,
            "iterations": sgd_passes,
            "inner iterations": 0,
            "converged": True,
            "seconds": sgd_secs,
            "objective": sgd.objective(data),
            "quality": float(quality(sgd)),
        },
    ]


def _restricted(clusters, spans, keep_singletons):
    """`clusters` cut to the mentions `spans`; one-mention remnants only when singletons are kept."""
    out = [[tuple(m) for m in c if tuple(m) in spans] for c in clusters]
    return [c for c in out if len(c) > 1 or (c and keep_singletons)]


def subset_mela(model, data, key, doc_idx, max_mentions=None):
    """MELA of `model` on the documents `doc_idx` of a split (the whole split is clustered, the subset scored);
    with `max_mentions`, on each document's first mentions only (key and response cut alike: a left-link
    decision depends on earlier mentions alone, so the cut response is the cut item set's)."""
    from coreflab.corpus.singletons import resolve_keep_singletons

    ante = model.predict(data.corpus, data.store)
    response = response_documents(key, data.corpus, ante, source="train", who="L3M")
    parts = data.corpus.arrays.get("doc_parts")
    wanted = {(data.corpus.doc_ids[d], int(parts[d]) if parts is not None else 0): d for d in doc_idx}
    pairs = [(k, r) for k, r in zip(key, response) if k.key in wanted]
    if max_mentions:
        keep = resolve_keep_singletons(None, data.corpus, key)
        offs, starts, ends = (data.corpus.arrays[a] for a in ("doc_mention_offsets", "m_start", "m_end"))
        cut = []
        for k, r in pairs:
            lo = int(offs[wanted[k.key]])
            hi = min(int(offs[wanted[k.key] + 1]), lo + int(max_mentions))
            spans = {(int(starts[i]), int(ends[i])) for i in range(lo, hi)}
            cut.append(
                (
                    k.with_clusters(_restricted(k.clusters, spans, keep)),
                    r.with_clusters(_restricted(r.clusters, spans, keep)),
                )
            )
        pairs = cut
    return score_documents([k for k, _ in pairs], [r for _, r in pairs], metrics=AVG_METRICS).mela


def cccp_rows(draw_rows, settings, metric, data_name, tuning="fixed, not tuned"):
    """The study's CSV rows: per draw, CCCP's and SGD's row with the settings they ran with
    (`settings`: a CccpSettings, or the dict of its `training()`)."""
    get = settings.get if isinstance(settings, dict) else lambda k, default=None: getattr(settings, k, default)
    rows = []
    for draw, pair in draw_rows:
        for r in pair:
            rows.append(
                {
                    "draw": draw,
                    "data": data_name,
                    "metric": metric,
                    **r,
                    "gamma": get("gamma"),
                    "lam": get("lam"),
                    "eta0": get("eta0"),
                    "tol": get("tol"),
                    "max outer": get("max_outer"),
                    "max inner": get("inner"),
                    "sgd passes": get("sgd_passes"),
                    "max mentions": int(get("max_mentions") or 0),
                    "tuning": tuning,
                }
            )
    return pd.DataFrame(rows)


def run_draws(settings, subsets, make, label, log, unit="item sets"):
    """compare_cccp_sgd on every subset (`make(idx)` → (data, quality)), `settings.jobs` draws at a time,
    with a progress line per draw and at least every 30 s (inside a draw, after a CCCP outer step)."""
    log(f"{label}: {settings.describe(len(subsets[0]), len(subsets), unit)}; {settings.jobs} job(s)")
    progress = Progress(label, len(subsets), "draws")

    def draw(k):
        data, quality = make(subsets[k])
        inner = Progress(f"{label} draw {k}", settings.max_outer, "CCCP outer steps (at most)")
        step = lambda s, n, obj: inner.tick(f"objective {obj:.6g}", done=s)  # noqa: E731
        return compare_cccp_sgd(data, quality, **settings.training(), progress=step)

    def done(k, pair):
        progress.step(f"draw {k}: CCCP {pair[0]['iterations']} outer steps in {pair[0]['seconds']:.0f} s")

    pairs = run_all(draw, range(len(subsets)), settings.jobs, on_done=done, progress=progress)
    return list(enumerate(pairs))


def cccp_vs_sgd(settings, train, train_key, curves=None, corpus_name="the corpus", log=_stderr):
    """§5.3 item 2 on a coreference corpus (no 20 Newsgroups folder): per draw, a random subset of
    `docs` training documents, each cut to its first `max_mentions` mentions (given, or the cut that fits
    the budget); quality = MELA on those (training data, as the paper). λ and η0: Table 1's dev tuning
    of L3M at γ, one pass (without curves, settings.lam and .eta0)."""
    lam, eta0, source = tuned_l3m_step(curves, settings.gamma, settings.lam, settings.eta0)
    settings = replace(settings, lam=lam, eta0=eta0)
    n_docs = len(np.asarray(train.store.doc_mention_offsets)) - 1
    draws = random_subsets(n_docs, settings.docs, settings.draws, settings.seed)
    arcs = training_arcs(train)
    budget = arc_budget(settings.max_arcs, settings.max_passes, arcs)
    longest = int(np.diff(np.asarray(train.store.doc_mention_offsets)).max(initial=0))
    if not settings.max_mentions and budget:
        sweeps = settings.max_outer * settings.inner + settings.sgd_passes
        cut = cccp_mentions_within(train, draws, budget, sweeps, fixed=2 * len(draws) * arcs)
        settings = replace(settings, max_mentions=cut)
        log(
            f"cccp_vs_sgd: a budget of {budget:,} arcs ({arcs:,} a training pass) "
            + (f"cuts the documents to their first {cut} mentions" if cut else "fits whole documents")
        )
    log(f"cccp_vs_sgd: {n_docs} training documents of up to {longest} mentions")
    warm = documents(train, draws[0][:1], settings.max_mentions)  # compile / load the kernels outside the timed runs
    compare_cccp_sgd(warm, lambda m: 0.0, **{**settings.training(), "max_outer": 1, "inner": 1})

    def make(idx):
        quality = lambda m: subset_mela(m, train, train_key, idx, settings.max_mentions)  # noqa: E731
        return documents(train, idx, settings.max_mentions), quality

    out = run_draws(settings, draws, make, "cccp_vs_sgd", log, unit="documents")
    return cccp_rows(out, settings, "MELA", f"{corpus_name} training documents", source)


@dataclass(frozen=True)
class OrderSettings:
    """seed: the learners' seed, and the shuffles' (training split: seed, test split: seed + 1);
    jobs: trainings at a time."""

    seed: int = 1
    jobs: int = 1

    @classmethod
    def from_args(cls, args):
        return _settings_from_args(cls, args)


def order_control(settings, train, test, key, curves, techniques=None, log=_stderr):
    """§5.4: each of Table 1's online systems, as tuned on dev (passes, γ, λ, η0), trained and tested
    in text order and with the mentions shuffled within documents (pairs keep their features).
    techniques: Table 1 technique names; None = every online one the curves hold (L3M at γ = 0
    needs 0 among the curves' γ). A progress line per training and at least every 30 s; `settings.jobs`
    trainings at a time."""
    if techniques is None:
        held = set(tuned_settings(curves)["technique"])
        techniques = [t for t in ONLINE if t in held]
        if not techniques:
            raise UserError("the curves hold none of Table 1's online techniques (Sum-Link, Bin-Left-Link, L3M)")
    shuffled_train, _ = shuffled_data(train, settings.seed)
    shuffled_test, new_to_old = shuffled_data(test, settings.seed + 1)
    doc_of = np.repeat(np.arange(len(test.store.doc_mention_offsets) - 1), np.diff(test.store.doc_mention_offsets))
    systems = [system for _, system in _tuned_rows(curves, techniques).iterrows()]

    def unit(point):
        system, order = point
        params = learner_params(system, settings.seed)
        name = system["technique"]
        setting = {"passes": int(system["passes"]), "gamma": system["gamma"], "lam": system["lam"]}
        setting["eta0"] = system["eta0"]
        if order == "natural":
            natural = make_learner(system["learner"], params).fit(train)
            return {
                "technique": name,
                "order": order,
                **setting,
                **avg_row(score_model(natural, test.corpus, test.store, key)),
            }
        shuffled = make_learner(system["learner"], params).fit(shuffled_train)
        labels = shuffled.predict_labels(shuffled_test)
        # back to text order: the clustering is what is scored
        back = np.empty_like(labels)
        back[new_to_old] = labels + 10**9 * doc_of
        ante = labels_to_antecedents(back, test.store.doc_mention_offsets)
        scores = score_documents(
            key, response_documents(key, test.corpus, ante, source="test", who=name), metrics=AVG_METRICS
        )
        return {"technique": name, "order": order, **setting, **avg_row(scores)}

    units = [(system, order) for system in systems for order in ("natural", "shuffled")]
    jobs = int(settings.jobs or 1)
    log(f"order_control: {len(systems)} systems ({', '.join(techniques)}) × 2 orders; {jobs} job(s)")
    progress = Progress("order_control", len(units), "trainings")

    def done(i, r):
        progress.step(f"{r['technique']} {r['order']}: AVG {r['AVG']:.2f}")

    return pd.DataFrame(run_all(unit, units, jobs, on_done=done, progress=progress))


def grid_points(grid, params):
    """The (λ, η0) settings of a --grid: its product; a missing axis keeps `params`' value (if any)."""
    unknown = set(grid) - {"lam", "eta0"}
    if unknown:
        raise UserError(f"--grid tunes lam and eta0 only, not {sorted(unknown)}")
    lams = grid.get("lam") or [params.get("lam")]
    etas = grid.get("eta0") or [params.get("eta0")]
    return [(lam, eta0) for lam in lams for eta0 in etas]


@dataclass(frozen=True)
class CurveSettings:
    """One learner (registry name) with its params, trained `passes` passes (unless the params set its
    epochs) at every (λ, η0) of `grid` ({"lam": [...], "eta0": [...]}, `grid_points`), with `seed`."""

    learner: str = "l3m"
    params: dict = field(default_factory=dict)
    grid: dict = field(default_factory=dict)
    passes: int = 5
    seed: int = 1

    @classmethod
    def from_args(cls, args):
        """The settings of `coreflab l3m2014 curves` (its --params and --grid are JSON)."""
        return cls(args.learner, json.loads(args.params), json.loads(args.grid), args.passes, args.seed)


def curves(settings, train, dev, dev_key, test, key):
    """Learning curves: dev and test scores after every pass of each grid point's training."""
    base = settings.params
    frames = []
    for lam, eta0 in grid_points(settings.grid, base):
        params = {**base, "seed": settings.seed}
        params.setdefault("epochs", settings.passes)
        if lam is not None:
            params["lam"] = lam
        if eta0 is not None:
            params["eta0"] = eta0
        model = make_learner(settings.learner, params)
        rows = []
        start = time.perf_counter()

        def record(epoch, m, rows=rows, start=start):
            secs = time.perf_counter() - start
            for split, data, k in (("dev", dev, dev_key), ("test", test, key)):
                row = {"epoch": epoch, "split": split, "seconds": secs}
                before = (getattr(m, "exact_", None), getattr(m, "fallback_", None))
                row.update(avg_row(score_model(m, data.corpus, data.store, k)))
                if before[0] is not None:  # how this split's inferences were solved (Corr-Clustering)
                    row["exact"], row["fallback"] = m.exact_ - before[0], m.fallback_ - before[1]
                rows.append(row)

        model.fit(train, callback=record)
        df = pd.DataFrame(rows)
        df.insert(0, "eta0", getattr(model, "eta0", np.nan))
        df.insert(0, "lam", getattr(model, "lam", np.nan))
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df.insert(0, "params", json.dumps(base, sort_keys=True))
    df.insert(0, "learner", settings.learner)
    return df
