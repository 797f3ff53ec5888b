"""`coreflab hm2017 mela-fit`: fit the MELA regressor w_ρ (LinearSVR on the nine features) and save it.

The saved JSON (coefficients, intercept, feature names, estimator parameters and the
response-singletons mode of the data, from its `keep_singletons` column) is what `lsp_rho`
reads through its `regressor` parameter.
"""

import sys


def add_arguments(p):
    p.add_argument("--data", required=True, help="CSV from `coreflab hm2017 mela-data`")
    p.add_argument("--sample", default="all", choices=("all", "1", "2"), help="train on S1, S2 or both (default all)")
    p.add_argument("--svr-C", type=float, default=1.0, help="LinearSVR C (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="regressor JSON to write")


def run(args):
    from coreflab.mela.features import FEATURE_NAMES
    from coreflab.mela.regressor import fit_regressor, mse_scc, save_regressor
    from coreflab.papers.hm2017.regressor_data import data_mode, read_data

    df = read_data(args.data)
    if args.sample != "all":
        df = df[df["sample"] == int(args.sample)]
    keep = data_mode(df, args.data)
    X, y = df[list(FEATURE_NAMES)].to_numpy(), df["mela"].to_numpy()
    model = fit_regressor(X, y, seed=args.seed, C=args.svr_C)
    mse, scc = mse_scc(y, model.predict(X))
    save_regressor(
        args.out, model, len(y), {"train_mse": mse, "train_scc": scc, "sample": args.sample}, keep_singletons=keep
    )
    print(
        f"coreflab hm2017 mela-fit: {len(y)} examples, training MSE {mse:.3f}, SCC {scc:.2f}% -> {args.out}",
        file=sys.stderr,
    )
    return 0
