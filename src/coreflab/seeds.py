"""The spread over seeds shared by every paper's figures: the order a job runs its seeds in, the
`--seeds` option a rule passes, and, in a frame with a `seed` column, the main seed's rows (what
tables read and figures draw as the line) and how many seeds it holds (the bands)."""


def seed_order(seed, seeds):
    """`seed` first, then every other seed of `seeds` once, in their order."""
    return [seed] + [k for k in dict.fromkeys(seeds) if k != seed]


def seeds_args(seeds):
    """`--seeds ...` of a run command for the workflow's `seeds` ("" for none)."""
    seeds = list(dict.fromkeys(int(s) for s in seeds or []))
    return " ".join(["--seeds", *map(str, seeds)]) if seeds else ""


def main_seed_rows(df, seed=None, by=()):
    """The rows of the main seed: `seed`, or (None) the first seed of each group of the `by` columns
    (of the whole frame without them: jobs write their own seed first). A frame without a `seed`
    column, and rows without a seed, count as main (written before runs carried one)."""
    if "seed" not in df or df.empty:
        return df
    keys = [c for c in by if c in df]
    if seed is not None:
        main = seed
    elif keys:
        main = df.groupby(keys, sort=False, dropna=False)["seed"].transform("first")
    else:
        main = df["seed"].iloc[0]
    return df[df["seed"].isna() | (df["seed"] == main)]


def n_seeds(df):
    """How many seeds a frame holds (1 without a `seed` column)."""
    return max(1, int(df["seed"].nunique())) if "seed" in df else 1
