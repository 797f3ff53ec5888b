"""Paper registry: name → `Paper`, found the way learners are (`coreflab.learn.registry`).

A paper is a package `coreflab.papers.<name>` whose `PAPER` is a `Paper`: its name (the command
group `coreflab <name>`, the Snakemake target, an entry of `run.papers`), its rule file, its
targets and its names for tables. Papers outside the package are modules named in the environment
variable COREFLAB_PAPER_MODULES (colon-separated, importable: e.g. their folder on PYTHONPATH),
each with its own `PAPER`. The CLI, the config check, the report's names and the Snakefile's
includes all read this list. docs/adding-a-paper.md walks through one.
"""

import importlib
import os
import pkgutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import yaml

from coreflab.errors import UserError
from coreflab.learn import registry as learners
from coreflab.report import style_names

PAPER_MODULES = "COREFLAB_PAPER_MODULES"


def _always(config):
    return True


def _nothing_skipped(config):
    return []


def _no_checks(config, checks):
    return None


@dataclass(frozen=True)
class Paper:
    """One re-run paper, as the workflow, the CLI and the report see it.

    targets(config, runs) -> the files its experiments make for a config, runs being the runs
    (`results/<run>/`) it uses (`paper_mentions`); enabled(config) -> False leaves it out of
    `run.papers`; verbs: `coreflab <name> <verb>` -> (module, help[, parser defaults]), each module
    with `add_arguments(parser)` and `run(args)`; rules: its Snakemake rule file, absolute or
    relative to workflow/; config: the JSON schema of its config section `<name>:`, and config_sections:
    {section: JSON schema} of sections of other names (both validated and defaulted with the workflow's
    schema; `config_schema` reads them from a YAML file in its folder); system_names: the names its tables print for its systems, and
    system_name(name) those of names made from a pattern (None: not one of its names);
    docs_blocker(config, results) -> why these cited result files cannot be made (None: they can);
    skipped(config) -> [(experiment, why, how to enable)] of its experiments whose data is missing;
    learner_modules: the modules of its own learners (`@register`), which the learner registry imports;
    check_config(config, checks): raise UserError on what its schema cannot say of its section (`checks`:
    coreflab.config.CHECKS, the core's checks of learner parameters and template names);
    tunings: {(learner, parameter): coreflab.learn.tuned.Tuning} of the learner parameters its jobs tune
    or fit, which a leaderboard train job of that learner then takes from them; claims: its claims on the findings scorecard
    (coreflab.report.findings.Claim, kept in its `findings` module), its section of the page under its title
    between findings_intro and findings_note (Markdown paragraphs), placed by findings_order (then registry order);
    bench_anchors, bench_headlines: the targets of its own benchmark records (coreflab.report.bench_targets),
    which `coreflab bench-report` judges them by; bench_panel: draw(ax, results), its panel of that figure.
    """

    name: str
    title: str
    help: str
    verbs: dict
    rules: str
    targets: Callable
    enabled: Callable = _always
    config: dict | None = None
    config_sections: dict = field(default_factory=dict)
    system_names: dict = field(default_factory=dict)
    system_name: Callable | None = None
    docs_blocker: Callable | None = None
    tunings: dict = field(default_factory=dict)
    claims: list = field(default_factory=list)
    findings_intro: str = ""
    findings_note: str = ""
    findings_order: int = 100
    bench_anchors: tuple = ()
    bench_headlines: tuple = ()
    bench_panel: Callable | None = None
    learner_modules: tuple = ()
    check_config: Callable = _no_checks
    skipped: Callable = _nothing_skipped

    def config_schemas(self):
        """{config section: JSON schema} of the sections it brings: `<name>` (config) and config_sections."""
        own = {self.name: self.config} if self.config is not None else {}
        return {**own, **self.config_sections}


def config_schema(path):
    """{section: JSON schema} of a paper's schema fragment, a YAML file (the package's papers: the
    `config.schema.yaml` beside their `__init__.py`)."""
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


_papers = {}
_module_of = {}  # paper name -> the module that registered it
_order = []  # module names in discovery order: the package's by name, then COREFLAB_PAPER_MODULES'
_discovered = False
_import_errors = {}  # module -> error, reported when a requested paper is missing


def _outside_modules():
    return [m for m in os.environ.get(PAPER_MODULES, "").split(":") if m]


def _add(module):
    """Import a paper module and register its PAPER (errors kept for the message of `get`)."""
    try:
        paper = getattr(importlib.import_module(module), "PAPER", None)
    except Exception as err:  # one broken paper must not hide the others
        _import_errors[module] = f"{type(err).__name__}: {err}"
        return
    if not isinstance(paper, Paper):
        _import_errors[module] = "no PAPER (a coreflab.papers.registry.Paper) in it"
        return
    if paper.name in _papers and _papers[paper.name] is not paper:
        raise UserError(f"paper {paper.name!r} registered twice ({module})")
    _papers[paper.name] = paper
    _module_of[paper.name] = module


def _discover():
    global _discovered
    if _discovered:
        return
    import coreflab.papers as pkg

    inside = sorted(info.name for info in pkgutil.iter_modules(pkg.__path__) if info.ispkg)
    _order[:] = [f"coreflab.papers.{name}" for name in inside] + _outside_modules()
    for module in _order:
        _add(module)
    for module, error in sorted(_import_errors.items()):  # a paper that vanished would be a riddle
        print(f"coreflab: warning: paper module {module} left out: {error}", file=sys.stderr)
    _discovered = True


def papers():
    """Every registered paper, the package's in name order, then those of COREFLAB_PAPER_MODULES."""
    _discover()
    rank = {module: i for i, module in enumerate(_order)}
    return sorted(_papers.values(), key=lambda p: rank.get(_module_of[p.name], len(rank)))


style_names.use_papers(papers)  # the report's names of systems and papers, read at the first lookup


def learner_modules():
    """The modules of the papers' own learners (`Paper.learner_modules`), for the learner registry."""
    return [module for paper in papers() for module in paper.learner_modules]


learners.use_modules(learner_modules)


def names():
    return [p.name for p in papers()]


def get(name):
    """The paper registered as `name`; a package paper is imported alone (UserError naming the known ones)."""
    if name not in _papers and not _discovered and _is_package_paper(name):
        _add(f"coreflab.papers.{name}")
    if name not in _papers:
        _discover()
    if name not in _papers:
        broken = "".join(f"; {m} failed to import ({e})" for m, e in sorted(_import_errors.items()))
        outside = os.environ.get(PAPER_MODULES, "")
        hint = (
            f" ({PAPER_MODULES} names {outside!r})"
            if outside
            else f" (a paper outside the package: name its module in {PAPER_MODULES})"
        )
        raise UserError(f"unknown paper {name!r}; known: {', '.join(names())}{broken}{hint}")
    return _papers[name]


def _is_package_paper(name):
    import coreflab.papers as pkg

    return name.isidentifier() and any(info.ispkg and info.name == name for info in pkgutil.iter_modules(pkg.__path__))


def tunings():
    """{(learner, parameter): coreflab.learn.tuned.Tuning} of every tuning job the workflow has: the root
    loss (every learner's) and the papers' tunings (`Paper.tunings`). Two papers tuning one learner's
    parameter are an error: one would silently feed the other's train jobs."""
    from coreflab.learn.tuned import ANY_LEARNER, ROOT_LOSS

    out = {(ANY_LEARNER, "root_loss"): ROOT_LOSS}
    owner = dict.fromkeys(out, "the workflow")
    for paper in papers():
        for key, tuning in paper.tunings.items():
            if not (isinstance(key, tuple) and len(key) == 2):
                raise UserError(f"paper {paper.name}: a key of Paper.tunings is (learner, parameter), not {key!r}")
            shared = (ANY_LEARNER, key[1])
            clash = key if key in out else shared if shared in out else None
            if clash:
                raise UserError(
                    f"paper {paper.name} tunes {key[1]} of {key[0]}, which {owner[clash]} tunes already "
                    f"({out[clash].path})"
                )
            out[key] = tuning
            owner[key] = f"paper {paper.name}"
    return out


def skipped_experiments(config):
    """[(experiment, why, how to enable)] of the configured papers (`run.papers`) whose optional data is missing."""
    wanted = set(config["run"]["papers"])
    return [entry for paper in papers() if paper.name in wanted for entry in paper.skipped(config)]


def rule_file(paper, workflow_dir):
    """The absolute path of a paper's rule file (`rules` relative to workflow_dir unless absolute)."""
    return os.path.join(workflow_dir, paper.rules)
