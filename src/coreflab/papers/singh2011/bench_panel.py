"""Panel (e) of the benchmark figure (`coreflab bench-report`): the distributed sampler's throughput
against Dask workers, from its record bench/results/crossdoc.json (bench/crossdoc.py)."""

import matplotlib.ticker
import numpy as np

from coreflab.report.performance import REF, is_number, short_tick


def worker_points(results):
    """Dask points [(workers, total proposals/s, sum of per-worker rates, wall s)], from
    crossdoc.json (fresher) or the copy in scaling.json."""
    pts = (results.get("crossdoc") or {}).get("personx")
    if isinstance(pts, dict):  # crossdoc.json: {"runs": [...]} with totals per run
        pts = [
            dict(
                p,
                proposals_per_s_total_wall=p.get("proposals_per_s_total"),
                wall_s=p.get("wall_s_with_scoring", p.get("inference_s")),
            )
            for p in pts.get("runs", [])
        ]
    if not pts:
        pts = ((results.get("scaling") or {}).get("workers") or {}).get("points") or []
    return [
        (
            p["workers"],
            p.get("proposals_per_s_total_wall"),
            p["workers"] * p["proposals_per_s_per_worker"] if is_number(p.get("proposals_per_s_per_worker")) else None,
            p.get("wall_s"),
        )
        for p in pts
        if is_number(p.get("workers"))
    ]


def panel_workers(ax, results):
    pts = worker_points(results)
    if not pts:
        ax.text(0.5, 0.5, "no crossdoc.json", ha="center", transform=ax.transAxes)
        return
    k = np.array([p[0] for p in pts], float)
    total = np.array([p[1] if is_number(p[1]) else np.nan for p in pts], float)
    summed = np.array([p[2] if is_number(p[2]) else np.nan for p in pts], float)
    ax.plot(k, total, "o-", label="total proposals/s (wall)")
    ax.plot(k, summed, "s--", label="K × per-worker rate (shard time)")
    ks = np.arange(1, max(k.max(), 2) + 1)
    if np.isfinite(total[0]):
        ax.plot(ks, total[0] * ks / k[0], ":", color=REF, label="ideal linear (from K=1)")
    ax.plot(ks, 200_000 * ks, "-.", color=REF, lw=1, label="target 200k/s per worker")
    cpus = (results.get("crossdoc") or {}).get("machine_cpus")
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(short_tick))
    ax.set(
        xlabel="Dask workers K",
        ylabel="throughput (proposals / s)",
        xticks=ks,
        ylim=(0, None),
        title=f"(e) cross-doc MCMC vs workers ({cpus or '?'} cores, shared)",
    )
    ax.legend(fontsize=6.5, loc="upper left")
