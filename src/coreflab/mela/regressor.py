"""The MELA regressor w_ρ: a linear SVM regression on the nine features (H&M 2017, Sec. 4.3).

scikit-learn's `LinearSVR` (the paper's "simple linear SVM"). Saved as JSON: the nine
coefficients, the intercept, the feature names, the estimator's parameters and a few
training statistics, written atomically, so `lsp_rho` needs no pickle and a reader can
see the learned loss. The JSON records `response_singletons` ("kept" or "dropped"): the
mode of the features and MELA labels it was fitted on (`coreflab.mela.mode`), which
`lsp_rho` checks against its own. Evaluation (Table 1, Fig. 2): mean squared error and the squared
correlation coefficient SCC = r² (in percent).
"""

import json
from pathlib import Path

import numpy as np

from coreflab.corpus.readers.conll import atomic_write_text
from coreflab.errors import UserError
from coreflab.mela.features import FEATURE_NAMES

DEFAULT_SVR = {
    "C": 1.0,
    "epsilon": 0.0,
    "loss": "squared_epsilon_insensitive",
    "dual": False,
    "max_iter": 10000,
    "tol": 1e-6,
}


def fit_regressor(X, y, seed=0, **params):
    """Fitted LinearSVR on features X (n, 9) → MELA y (percent)."""
    from sklearn.svm import LinearSVR

    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != len(FEATURE_NAMES) or X.shape[0] != y.shape[0]:
        raise UserError(f"regressor data must have {len(FEATURE_NAMES)} feature columns and one MELA per row")
    if X.shape[0] < 2:
        raise UserError("the regressor needs at least 2 examples")
    p = dict(DEFAULT_SVR)
    p.update(params)
    return LinearSVR(random_state=seed, **p).fit(X, y)


def regressor_dict(model, n_examples=None, extra=None, keep_singletons=False):
    from coreflab.mela.mode import mode_name

    out = {
        "format": "coreflab-mela-regressor-1",
        "features": list(FEATURE_NAMES),
        "response_singletons": mode_name(keep_singletons),
        "coef": [float(x) for x in model.coef_],
        "intercept": float(np.ravel(model.intercept_)[0]),
        "estimator": "sklearn.svm.LinearSVR",
        "params": {k: v for k, v in model.get_params().items() if isinstance(v, (int, float, str, bool))},
    }
    if n_examples is not None:
        out["n_examples"] = int(n_examples)
    if extra:
        out.update(extra)
    return out


def save_regressor(path, model, n_examples=None, extra=None, keep_singletons=False):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    reg = regressor_dict(model, n_examples, extra, keep_singletons)
    atomic_write_text(path, json.dumps(reg, indent=2, sort_keys=True) + "\n")
    return path


def load_regressor(path):
    """{"coef": [9], "intercept": float, ...} from a file written by `save_regressor`."""
    try:
        reg = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise UserError(f"{path}: not a readable MELA regressor ({err})") from None
    if not isinstance(reg, dict) or reg.get("features") != list(FEATURE_NAMES) or len(reg.get("coef", [])) != 9:
        raise UserError(
            f"{path}: not a coreflab MELA regressor (expected the nine features {', '.join(FEATURE_NAMES)})"
        )
    from coreflab.mela.mode import regressor_mode

    try:
        regressor_mode(reg)
    except UserError as err:
        raise UserError(f"{path}: {err}") from None
    return reg


def predict_mela(reg, X):
    return np.asarray(X, dtype=np.float64) @ np.asarray(reg["coef"]) + float(reg["intercept"])


def mse_scc(y_true, y_pred):
    """(mean squared error, squared correlation coefficient in percent)."""
    y_true = np.asarray(y_true, dtype=np.float64)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    mse = float(np.mean((y_true - y_pred) ** 2)) if y_true.size else float("nan")
    if y_true.size < 2 or np.std(y_true) == 0 or np.std(y_pred) == 0:
        return mse, float("nan")
    r = float(np.corrcoef(y_true, y_pred)[0, 1])
    return mse, 100.0 * r * r


__all__ = ["fit_regressor", "save_regressor", "load_regressor", "regressor_dict", "predict_mela", "mse_scc"]
