"""`coreflab features`: compute the arc feature store of one compiled split.

    coreflab features --compiled SPLIT.npz --featureset NAME_OR_PATH --out ARCS.npz \
        [--bits 22] [--window N] [--no-reach] [--flat]
    coreflab features --list       # the local templates, what they need, what they mean

Prints arcs, feature entries, bytes, time and the templates the corpus cannot support.
"""

import time
from pathlib import Path

from coreflab.arg_types import at_least
from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--compiled", help="compiled split (.npz from `coreflab prepare`)")
    p.add_argument("--featureset", help="feature-set name (config/featuresets/NAME.yaml) or path to a YAML file")
    p.add_argument("--out", help="arc store to write (.npz)")
    p.add_argument("--bits", type=at_least(1), default=22, help="hash into 2**BITS weights (default 22)")
    p.add_argument(
        "--window",
        type=at_least(0),
        default=None,
        help="at most N candidate antecedents per mention (default: all earlier mentions)",
    )
    p.add_argument(
        "--no-reach",
        dest="reach",
        action="store_false",
        help="with --window: no string-matched candidates beyond the window "
        "(default: a name or nominal also gets every earlier mention with its head "
        "or full string)",
    )
    p.add_argument(
        "--flat",
        dest="shared_rows",
        action="store_false",
        help="every arc lists all its ids (default: arcs share rows of the ids that do not depend on "
        "the pair, features/shared_rows.py)",
    )
    p.add_argument("--list", action="store_true", help="list the local templates and exit")


def run(args):
    from coreflab.corpus.compiled import CompiledCorpus
    from coreflab.features import load_featureset
    from coreflab.features.extract import extract_arc_store, extract_shared_arc_store
    from coreflab.features.templates import REGISTRY

    if args.list:
        for t in REGISTRY.values():
            needs = f" [needs {', '.join(t.requires)}]" if t.requires else ""
            print(f"{t.name:18s} {t.doc}{needs}")
        return 0
    for opt in ("compiled", "featureset", "out"):
        if not getattr(args, opt):
            raise UserError(f"--{opt} is required (or use --list)")
    if not Path(args.compiled).is_file():
        raise UserError(f"compiled split {args.compiled} not found")
    try:
        corpus = CompiledCorpus.load(args.compiled)
    except (OSError, ValueError, KeyError) as err:
        raise UserError(f"{args.compiled}: not a compiled corpus ({err})") from None
    fs = load_featureset(args.featureset)
    t, cpu = time.perf_counter(), time.process_time()
    if args.shared_rows:
        store, flat_bytes = extract_shared_arc_store(corpus, fs, n_bits=args.bits, window=args.window, reach=args.reach)
    else:
        store = extract_arc_store(corpus, fs, n_bits=args.bits, window=args.window, reach=args.reach)
        flat_bytes = store.nbytes
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    store.meta["nonlocal"] = list(fs.nonlocal_)  # what `nonlocal_templates: selected` trains with
    store.save(args.out)
    per_arc = seconds / max(store.n_arcs, 1) * 1e6
    print(
        f"{corpus.name}/{corpus.split}: feature set {fs.name} ({len(store.templates)} templates, "
        f"2**{store.n_bits} weights, window {store.window or 'none'}"
        f"{', string-matched candidates beyond it' if store.meta.get('reach') else ''})"
    )
    print(
        f"arcs {store.n_arcs}  entries {store.n_entries}  bytes {store.nbytes} "
        f"({store.nbytes / max(store.n_arcs, 1):.1f}/arc"
        + (f"; {store.n_rows} shared rows, flat {flat_bytes / max(store.n_arcs, 1):.1f}/arc" if store.n_rows else "")
        + f")  time {seconds:.2f} s ({per_arc:.3f} µs/arc, "
        f"cpu {cpu:.2f} s)"
    )
    if fs.nonlocal_:
        print(f"non-local templates (computed by the decoder): {', '.join(fs.nonlocal_)}")
    if store.unavailable:
        print(f"unavailable templates ({len(store.unavailable)}):")
        for name, reason in store.unavailable.items():
            print(f"  {name}: {reason}")
    else:
        print("unavailable templates: none")
    return 0
