"""The model options shared by `coreflab singh2011 run` and `calibrate`, and the ModelParams
they describe (bias from --bias, a calibration file or a tuned prior)."""

import json
from pathlib import Path

from coreflab.errors import UserError
from coreflab.papers.singh2011.shard import MOVE_TYPES, ModelParams
from coreflab.papers.singh2011.tuning import load_prior


def add_model_arguments(p):
    p.add_argument(
        "--model",
        choices=sorted(MOVE_TYPES),
        default="flat",
        help="flat (pairwise), sub (sub-entities), super (super-entities), hier (both)",
    )
    p.add_argument(
        "--context",
        choices=["pairwise", "union"],
        default="pairwise",
        help="hierarchy levels as mention-pair models (pairwise) or node-level factors whose "
        "context is the union of the children's bags (union, Singh et al. §4.3)",
    )
    p.add_argument("--bias", type=float, default=0.05, help="entity-level bias b")
    p.add_argument("--bias-from", default=None, help="JSON written by singh2011 calibrate (overrides --bias)")
    p.add_argument("--sub-bias-ratio", type=float, default=3.0, help="sub-entity bias = ratio × b")
    p.add_argument("--super-bias-ratio", type=float, default=0.3, help="super-entity bias = ratio × b")
    p.add_argument("--string-weight", type=float, default=0.0, help="w of w·STREQ (paper: 0.8)")
    p.add_argument(
        "--prior-from",
        default=None,
        help="JSON written by singh2011 calibrate: its bias and string weight override --bias and "
        "--string-weight, and its held-out entities are left out of the run",
    )
    p.add_argument("--p-new", type=float, default=0.1, help="probability of proposing a new group")


def model_params(args):
    bias, weight = args.bias, args.string_weight
    if getattr(args, "prior_from", None):
        bias, weight, _ = load_prior(args.prior_from)
    if args.bias_from:
        path = Path(args.bias_from)
        try:
            bias = float(json.loads(path.read_text())["bias"])
        except (OSError, ValueError, KeyError) as err:
            raise UserError(f"{path}: expected a JSON object with a numeric 'bias' ({err})") from None
    if bias <= 0:
        raise UserError(f"bias must be positive, got {bias}")
    return ModelParams(
        model=args.model,
        context=args.context,
        bias=bias,
        sub_bias=bias * args.sub_bias_ratio,
        super_bias=bias * args.super_bias_ratio,
        string_weight=weight,
        p_new=args.p_new,
    )
