"""`coreflab mela-fit`: fit the MELA regressor w_ρ (LinearSVR on the nine features) and save it.

The saved JSON (coefficients, intercept, feature names, estimator parameters and the
response-singletons mode of the data, from its `keep_singletons` column) is what `lsp_rho`
reads through its `regressor` parameter.
"""

import sys

from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--data", required=True, help="CSV from `coreflab mela-data`")
    p.add_argument("--sample", default="all", choices=("all", "1", "2"), help="train on S1, S2 or both (default all)")
    p.add_argument("--svr-C", type=float, default=1.0, help="LinearSVR C (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="regressor JSON to write")


def read_data(path):
    import pandas as pd

    from coreflab.learn.lsp_regressor_data import COLUMNS

    try:
        df = pd.read_csv(path)
    except (OSError, ValueError) as err:
        raise UserError(f"{path}: not a readable CSV ({err})") from None
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise UserError(f"{path}: line 1: missing column(s) {', '.join(missing)} (expected `coreflab mela-data` output)")
    return df


def data_mode(df, path):
    """The one response-singletons mode of a mela-data table (True: kept)."""
    modes = sorted(set(int(x) for x in df["keep_singletons"]))
    if len(modes) > 1 or (modes and modes[0] not in (0, 1)):
        raise UserError(f"{path}: column keep_singletons must hold one value, 0 or 1 (found {modes})")
    return bool(modes and modes[0])


def run(args):
    from coreflab.mela.features import FEATURE_NAMES
    from coreflab.mela.regressor import fit_regressor, mse_scc, save_regressor

    df = read_data(args.data)
    if args.sample != "all":
        df = df[df["sample"] == int(args.sample)]
    keep = data_mode(df, args.data)
    X, y = df[list(FEATURE_NAMES)].to_numpy(), df["mela"].to_numpy()
    model = fit_regressor(X, y, seed=args.seed, C=args.svr_C)
    mse, scc = mse_scc(y, model.predict(X))
    save_regressor(args.out, model, len(y), {"train_mse": mse, "train_scc": scc, "sample": args.sample},
                   keep_singletons=keep)
    print(f"coreflab mela-fit: {len(y)} examples, training MSE {mse:.3f}, SCC {scc:.2f}% -> {args.out}",
          file=sys.stderr)
    return 0
