"""Papers as plugins: the registry lists the package's papers, and a paper from outside the package
(tests/fixtures/toy_paper, named in COREFLAB_PAPER_MODULES) is listed by the CLI, checked by the
config and planned by the workflow with no file outside its folder; the CLI imports only the verb
it runs, and the core rules name no paper (tests/test_layout.py: no core verb imports one)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coreflab.errors import UserError
from coreflab.papers import registry

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_PAPERS = ["bk2014", "cc2007", "hm2017", "l3m2014", "singh2011"]
TOY_ENV = {"COREFLAB_PAPER_MODULES": "toy_paper", "PYTHONPATH": str(ROOT / "tests" / "fixtures")}


def _run(args, env=None, cwd=ROOT):
    env = dict(os.environ, **(env or {}))
    if env.get("PYTHONPATH") and os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] += os.pathsep + os.environ["PYTHONPATH"]
    return subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env, timeout=900)


def test_the_package_papers_are_registered_each_with_its_rule_file_and_verbs():
    assert registry.names()[: len(PACKAGE_PAPERS)] == PACKAGE_PAPERS
    for paper in registry.papers()[: len(PACKAGE_PAPERS)]:
        assert Path(registry.rule_file(paper, ROOT / "workflow")).is_file(), paper.name
        assert paper.title and paper.help and paper.verbs
        for verb, (module, *_) in paper.verbs.items():
            assert module.startswith(f"coreflab.papers.{paper.name}."), (paper.name, verb)


def test_an_unknown_paper_is_a_one_line_error_naming_the_known_ones():
    with pytest.raises(UserError, match=r"unknown paper 'bk2015'; known: bk2014, cc2007, .*COREFLAB_PAPER_MODULES"):
        registry.get("bk2015")


def test_run_papers_takes_registered_names_and_defaults_to_all_of_them():
    from coreflab.config import check_config, overlay

    schema = ROOT / "workflow" / "schemas" / "config.schema.yaml"
    base = yaml_config()
    with pytest.raises(UserError, match=r"^config key run.papers.0: 'toy' is not one of \['bk2014'"):
        check_config(overlay(base, {"run": {"papers": ["toy"]}}), schema)
    del base["run"]["papers"]
    assert check_config(base, schema)["run"]["papers"] == registry.names()


def test_each_package_paper_brings_its_config_sections_from_its_folder(monkeypatch):
    """The papers' sections are no part of the workflow's schema: each paper's `config.schema.yaml` gives
    them, defaulted like the workflow's own; a section two owners claim is an error naming both."""
    import yaml

    from coreflab.config import check_config, with_papers

    schema = ROOT / "workflow" / "schemas" / "config.schema.yaml"
    sections = {"bk2014", "cc2007", "l3m2014", "doccluster", "hm2017", "crossdoc"}
    assert sections.isdisjoint(yaml.safe_load(schema.read_text())["properties"])
    owned = {s: p.name for p in registry.papers() for s in p.config_schemas()}
    assert {s: owned[s] for s in sections} == {
        **{s: s for s in ("bk2014", "cc2007", "l3m2014", "hm2017")},
        "doccluster": "l3m2014",
        "crossdoc": "singh2011",
    }
    cfg = check_config(yaml_config(), schema)
    assert cfg["bk2014"]["beams"] == [5, 20] and cfg["crossdoc"]["tune"]["heldout_by"] == "topic"
    clash = registry.Paper(
        name="clash", title="c", help="h", verbs={}, rules="x.smk", targets=list, config_sections={"crossdoc": {}}
    )
    package = registry.papers()
    monkeypatch.setattr(registry, "papers", lambda: [*package, clash])
    with pytest.raises(UserError, match=r"^paper clash: its config section 'crossdoc' is paper singh2011's already$"):
        with_papers(yaml.safe_load(schema.read_text()))
    seeds = registry.Paper(name="seeds", title="s", help="h", verbs={}, rules="x.smk", targets=list, config={})
    monkeypatch.setattr(registry, "papers", lambda: [*package, seeds])
    with pytest.raises(UserError, match=r"^paper seeds: its config section 'seeds' is the workflow's already$"):
        with_papers(yaml.safe_load(schema.read_text()))


def yaml_config():
    import yaml

    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


PROBE = """
import json, sys
from coreflab.cli import build_parser, main
argv = sys.argv[1:]
code = main(argv) if argv[-1] != "--parse-only" else build_parser(argv[:-1]) and 0
how_papers_are_found = {"coreflab.papers", "coreflab.papers.registry"}
papers = sorted(m for m in sys.modules if m.startswith("coreflab.papers") and m not in how_papers_are_found)
print(json.dumps({"code": code, "modules": papers}))
"""


def _imported_papers(args):
    proc = _run([sys.executable, "-c", PROBE, *args])
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])["modules"]


@pytest.mark.slow
def test_a_core_verb_imports_no_paper(tmp_path):
    key = tmp_path / "key.conll"
    key.write_text("#begin document (d);\nt\t0\t0\tw\t(1)\nt\t0\t1\tw\t(1)\n#end document\n")
    assert _imported_papers(["score", str(key), str(key), "--format", "json"]) == []


@pytest.mark.slow
def test_a_paper_verb_imports_its_own_verb_module_alone():
    modules = _imported_papers(["cc2007", "tables", "--parse-only"])
    verbs = [m for m in modules if ".commands." in m]
    assert verbs == ["coreflab.papers.cc2007.commands.tables"]


@pytest.mark.slow
def test_the_toy_paper_is_listed_by_the_cli_from_outside_the_package():
    assert " toy " not in _run([sys.executable, "-m", "coreflab.cli", "--help"]).stdout
    listing = _run([sys.executable, "-m", "coreflab.cli", "--help"], TOY_ENV)
    assert listing.returncode == 0, listing.stderr
    assert re.search(r"^\s+toy\s+a toy paper", listing.stdout, re.M), listing.stdout
    verbs = _run([sys.executable, "-m", "coreflab.cli", "toy", "table", "--help"], TOY_ENV)
    assert verbs.returncode == 0 and "--score SCORE" in verbs.stdout, verbs.stderr


@pytest.mark.slow
def test_a_paper_module_that_fails_to_import_is_named_in_one_line_not_hidden():
    proc = _run([sys.executable, "-m", "coreflab.cli", "--help"], {"COREFLAB_PAPER_MODULES": "no_such_paper_module"})
    assert proc.returncode == 0 and re.search(r"^\s+bk2014\s", proc.stdout, re.M)
    assert proc.stderr.strip().splitlines() == [
        "coreflab: warning: paper module no_such_paper_module left out: "
        "ModuleNotFoundError: No module named 'no_such_paper_module'"
    ]


OUTSIDE_PAPER = """
from coreflab.papers.registry import Paper
from coreflab.report.io import format_p  # the report, imported while the registry finds papers

PAPER = Paper(name="outside", title="An outside paper " + format_p(0.5), help="h", verbs={}, rules="x.smk",
              targets=lambda config, runs: [], system_names={"outside_system": "Outside"})
"""


@pytest.mark.slow
@pytest.mark.parametrize("first", ["coreflab.report.io", "coreflab.papers.registry"])
def test_an_outside_paper_importing_the_report_is_registered(tmp_path, first):
    """A paper may import the report at its import, whichever of the two a process imports first."""
    (tmp_path / "outside_paper").mkdir()
    (tmp_path / "outside_paper" / "__init__.py").write_text(OUTSIDE_PAPER)
    probe = (
        f"import {first}\n"
        "from coreflab.papers import registry\n"
        "from coreflab.report.style_names import PAPERS, system_name\n"
        "print(registry.names()[-1], PAPERS['outside'], system_name('outside_system'))\n"
    )
    proc = _run([sys.executable, "-c", probe], {"COREFLAB_PAPER_MODULES": "outside_paper", "PYTHONPATH": str(tmp_path)})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert proc.stdout.split() == ["outside", "An", "outside", "paper", "0.500", "Outside"]


def _dry_run(target, *options, env=None):
    cmd = [sys.executable, "-m", "snakemake", target, "-n", "-p", "--forceall", "--snakefile", "workflow/Snakefile"]
    return _run(cmd + ["--configfile", "tests/workflow/config.yaml", *options], env)


@pytest.mark.slow
def test_the_toy_paper_is_planned_by_a_dry_run_on_the_tiny_config():
    proc = _dry_run("toy", env=TOY_ENV)
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout + proc.stderr
    assert "rule toy_table:" in text
    assert re.search(
        r"coreflab toy table --score results/synth/scores/string_match/test.json --system string_match +"
        r"--out results/synth/paper/toy/table.md",
        text,
    )
    # its own config section (toy.system), checked and defaulted like the workflow's
    proc = _dry_run(
        "toy", "--config", "toy={system: bk_baseline}", "run={corpora: [synth], papers: [toy]}", env=TOY_ENV
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "--score results/synth/scores/bk_baseline/test.json" in proc.stdout + proc.stderr
    proc = _dry_run("toy", "--config", "toy={sytem: bk_baseline}", env=TOY_ENV)
    assert proc.returncode != 0
    assert proc.stderr.strip().splitlines()[-1].startswith("coreflab: error: config key toy.'sytem' is unknown")


TOY = ROOT / "tests" / "fixtures" / "toy_paper"


@pytest.mark.slow
def test_the_toy_papers_learner_trains_with_the_smoothing_its_own_job_fits(tmp_path):
    """Its config overlay puts its learner (`learner_modules`) on the leaderboard: the train job takes the
    value the toy's own job fits (`Paper.tunings`), and the table reports that system; a published-scores
    file (its optional data) becomes an input of the table."""
    overlay = str(TOY / "config.yaml")
    proc = _dry_run("toy", "--configfile", "tests/workflow/config.yaml", overlay, env=TOY_ENV)
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout + proc.stderr
    assert "coreflab toy smoothing --train-conll results/synth/data/train.conll" in text
    train = next(line for line in text.splitlines() if "coreflab train --learner toy_counts" in line)
    assert "--tuned results/synth/paper/toy/smoothing.json" in train
    assert "--score results/synth/scores/toy_counts/test.json --system toy_counts" in text
    assert "--published" not in text
    published = tmp_path / "published.json"
    published.write_text('{"muc": 70.0, "bcub": 60.0, "ceafe": 50.0}')
    more = ("--config", f"toy={{system: toy_counts, published: {published}}}")
    proc = _dry_run("toy", "--configfile", "tests/workflow/config.yaml", overlay, *more, env=TOY_ENV)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"--published {published}" in proc.stdout + proc.stderr


@pytest.mark.slow
def test_the_toy_paper_lists_its_verbs_and_learner_and_announces_its_missing_data():
    verbs = _run([sys.executable, "-m", "coreflab.cli", "toy", "--help"], TOY_ENV)
    assert verbs.returncode == 0 and re.search(r"^\s+smoothing\s", verbs.stdout, re.M), verbs.stdout
    probe = (
        "import yaml\n"
        "from coreflab.config import check_config, overlay\n"
        "from coreflab.learn.registry import available_learners\n"
        "from coreflab.optional_data import announcement\n"
        "from coreflab.papers import registry\n"
        "cfg = overlay(yaml.safe_load(open('tests/workflow/config.yaml')), yaml.safe_load(open(%r)))\n"
        "cfg = check_config(cfg, 'workflow/schemas/config.schema.yaml')\n"
        "print('toy_counts' in available_learners(), cfg['toy'])\n"
        "print(*announcement(registry.skipped_experiments(cfg)), sep='\\n')\n"
    ) % str(TOY / "config.yaml")
    proc = _run([sys.executable, "-c", probe], TOY_ENV)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "True {'system': 'toy_counts', 'published': None}"
    assert lines[1].startswith("coreflab: 1 experiment(s) skipped")
    assert "the toy table's published row: toy.published is not set" in lines[2]


@pytest.mark.slow
def test_the_toy_papers_claim_is_rendered_on_the_scorecard(tmp_path):
    """`coreflab docs` renders the registered toy's claim in docs/templates/findings.md (`{{ findings papers }}`),
    after the package's papers: decided on the snapshot's table, and "not run" on a corpus without it."""
    for corpus in ("synth", "litbank"):
        (tmp_path / "numbers" / corpus).mkdir(parents=True)
        (tmp_path / "numbers" / corpus / "leaderboard.csv").write_text("rank,system\n")
    (tmp_path / "numbers" / "synth" / "paper" / "toy").mkdir(parents=True)
    (tmp_path / "numbers" / "synth" / "paper" / "toy" / "table.md").write_text(
        "Test scores of toy_counts\n\n| source | MUC | B3 | CEAFe | CoNLL | MELA |\n|---|---|---|---|---|---|\n"
        "| ours | 60.00 | 50.00 | 40.00 | 50.00 | 45.00 |\n"
    )
    # the scorecard's own template, untouched: its paper sections come from the registry
    args = ["--template", str(ROOT / "docs" / "templates" / "findings.md"), "--out", str(tmp_path / "out.md")]
    proc = _run(
        [sys.executable, "-m", "coreflab.cli", "docs", *args, "--snapshot", str(tmp_path / "numbers"), "--no-collect"],
        TOY_ENV,
    )
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "out.md").read_text()
    assert page.index("## Singh et al. 2011") < page.index("## A toy paper\n\n| claim | paper | [synth]")
    assert (
        "| The system beats putting every mention alone (test CoNLL F1) | above 0 | **held** CoNLL F1 50.00 |" in page
    )
    assert "*not run*: the paper is not in this corpus's run (run.papers)" in page


@pytest.mark.slow
def test_without_the_variable_the_workflow_does_not_know_the_toy_paper():
    proc = _dry_run("papers")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "toy_table" not in proc.stdout + proc.stderr


def test_the_core_rules_name_no_paper_and_no_learner_prefix():
    """Paper names, and learner-name prefixes such as `bk_`, appear only in the papers' rule files."""
    names = "|".join(registry.names())
    core = [ROOT / "workflow" / "Snakefile", *sorted((ROOT / "workflow" / "rules").glob("*.smk"))]
    for path in core:
        code = "\n".join(line.split("#")[0] for line in path.read_text(encoding="utf-8").splitlines())
        assert not re.search(rf"\b({names})\b", code), path.name
        assert not re.search(r"""startswith\(\s*["'](bk|cc|lsp|l3m)_""", code), path.name


def test_common_smk_is_generic_and_short():
    """common.smk holds validation and the helpers several rule files share: no paper's or learner's name,
    each stage's own helpers sitting in that stage's file."""
    from coreflab.learn.registry import available_learners

    text = (ROOT / "workflow" / "rules" / "common.smk").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    named = [n for n in [*registry.names(), *available_learners()] if re.search(rf"\b{n}\b", text)]
    assert named == []


# files outside papers/ and rules/papers/ that still name a paper, a paper's learner or a paper's file layout,
# each with what it holds; the test fails on one that no longer does, so that the list only shrinks
STILL_NAMING_A_PAPER = {}  # file -> why it still names a paper (none does)


def paper_learners():
    """The learners a paper owns: registered from its `learner_modules` or from inside its package."""
    from coreflab.learn.registry import LEARNERS, available_learners

    available_learners()
    owned = {m for p in registry.papers() for m in p.learner_modules}
    return sorted(
        name
        for name, cls in LEARNERS.items()
        if cls.__module__ in owned or cls.__module__.startswith("coreflab.papers.")
    )


def paper_layouts():
    """The folders under results/ that the papers' targets use beside the runs (Singh et al.'s crossdoc,
    L3M's doccluster): a paper's file layout, which the core does not know."""
    import copy

    from coreflab.config import check_config

    cfg = copy.deepcopy(check_config(yaml_config(), ROOT / "workflow" / "schemas" / "config.schema.yaml"))
    cfg["doccluster"]["enabled"] = True  # its optional experiment too
    folders = set()
    for paper in registry.papers():
        for target in paper.targets(cfg, ["RUN"]):
            parts = Path(target).parts
            if parts[0] == "results" and parts[1] != "RUN":
                folders.add(parts[1])
    return sorted(folders)


def core_files():
    """Every file of src/coreflab outside papers/ and of workflow/ outside rules/papers/."""
    return [
        p
        for p in sorted([*(ROOT / "src" / "coreflab").rglob("*"), *(ROOT / "workflow").rglob("*")])
        if p.is_file()
        and p.suffix != ".pyc"
        and "papers" not in p.relative_to(ROOT).parts[2:-1]
        and p.relative_to(ROOT).parts[:3] != ("workflow", "rules", "papers")
    ]


def test_the_core_names_no_paper_strings_and_comments_included():
    """No file of src/coreflab outside papers/ and of workflow/ outside rules/papers/ names a registered
    paper, a learner a paper owns, or a folder of a paper's file layout (as a string or a path part): its
    knowledge lives in its folder (a paper's name in the core would be a paper it knows)."""
    assert paper_layouts() == ["crossdoc", "doccluster"]
    words = "|".join([*registry.names(), *paper_learners()])
    layouts = "|".join(paper_layouts())
    naming = {
        str(p.relative_to(ROOT))
        for p in core_files()
        if re.search(rf"\b({words})\b|[\"'/]({layouts})[\"'/]", p.read_text(encoding="utf-8", errors="replace"))
    }
    assert sorted(naming - set(STILL_NAMING_A_PAPER)) == []
    assert sorted(set(STILL_NAMING_A_PAPER) - naming) == [], "no longer names a paper: remove it from the list"


def test_a_papers_own_learner_is_one_the_core_check_looks_for(monkeypatch):
    """`paper_learners` finds the learners of a paper's `learner_modules` (the package's papers have none)."""
    from coreflab.learn.registry import LEARNERS

    class Owned:
        __module__ = "ours.learner"

    monkeypatch.setitem(LEARNERS, "ours_learner", Owned)
    ours = registry.Paper(
        name="ours", title="o", help="h", verbs={}, rules="x.smk", targets=list, learner_modules=("ours.learner",)
    )
    package = registry.papers()
    monkeypatch.setattr(registry, "papers", lambda: [*package, ours])
    assert paper_learners() == ["ours_learner"]


IMPORTS_PROBE = """
import importlib, json, sys
imported = []
real = importlib.import_module
def recording(name, package=None):
    if sys._getframe(1).f_globals.get("__name__", "").startswith("coreflab"):  # coreflab's calls alone
        imported.append(name)
    return real(name, package)
importlib.import_module = recording
from coreflab import cli
from coreflab.learn import registry as learners
from coreflab.papers import registry
papers = registry.papers()
learners.available_learners()
for verb in cli.VERBS:
    cli.build_parser([verb])
for paper in papers:
    for verb in paper.verbs:
        cli.build_parser([paper.name, verb])
import pkgutil, coreflab.learn as pkg
registered = {m for m, *_ in cli.VERBS.values()}
registered |= {m for p in papers for m, *_ in p.verbs.values()}
registered |= {f"coreflab.papers.{p.name}" for p in papers} | set(registry._outside_modules())
registered |= {i.name for i in pkgutil.walk_packages(pkg.__path__, prefix="coreflab.learn.")}
registered |= {m for p in papers for m in p.learner_modules}
registered |= {"coreflab.features.nonlocal_templates"}
print(json.dumps({"imported": sorted(set(imported)), "unregistered": sorted(set(imported) - registered)}))
"""


@pytest.mark.slow
def test_runtime_imports_resolve_only_registered_names():
    """Every module the package imports by name at run time (importlib.import_module: the verbs, the papers,
    the learners) is a registered one: a core verb, a registered paper or its verb or learner module, a module
    of coreflab.learn. With the toy paper too, from outside the package."""
    for env in (None, TOY_ENV):
        proc = _run([sys.executable, "-c", IMPORTS_PROBE], env)
        assert proc.returncode == 0, proc.stderr
        found = json.loads(proc.stdout.strip().splitlines()[-1])
        assert found["unregistered"] == [] and found["imported"], found
        if env:
            assert {"toy_paper", "toy_paper.learner", "toy_paper.table"} <= set(found["imported"])


def test_import_module_is_called_only_where_names_are_registered():
    """The package's run-time imports are the registries' and the CLI's (a new call site is a new way in)."""
    sites = {
        str(p.relative_to(ROOT))
        for p in (ROOT / "src" / "coreflab").rglob("*.py")
        if "import_module(" in p.read_text(encoding="utf-8")
    }
    assert sites == {
        "src/coreflab/cli.py",
        "src/coreflab/features/featureset.py",
        "src/coreflab/learn/registry.py",
        "src/coreflab/papers/registry.py",
    }


@pytest.mark.workflow
def test_the_toy_paper_runs_on_the_tiny_config(tmp_path):
    """`snakemake toy` with its overlay: the corpus, the smoothing its job fits, its own learner trained with
    it, the learner's score, then the toy's table; the run ends announcing the missing published scores."""
    import shutil

    for name in ("workflow", "config", "profiles"):
        shutil.copytree(ROOT / name, tmp_path / name)
    shutil.copy(ROOT / "tests" / "workflow" / "config.yaml", tmp_path / "tiny.yaml")
    shutil.copy(ROOT / "tests" / "fixtures" / "toy_paper" / "config.yaml", tmp_path / "toy.yaml")
    proc = _run(
        [sys.executable, "-m", "snakemake", "toy", "--cores", "2", "--configfile", "tiny.yaml", "toy.yaml"],
        TOY_ENV,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    smoothing = json.loads((tmp_path / "results" / "synth" / "paper" / "toy" / "smoothing.json").read_text())
    assert 1 < smoothing["smoothing"] < 2
    table = (tmp_path / "results" / "synth" / "paper" / "toy" / "table.md").read_text()
    assert table.startswith("Test scores of toy_counts") and "| source | MUC | B3 | CEAFe | CoNLL | MELA |" in table
    assert "coreflab: 1 experiment(s) skipped" in proc.stderr and "the toy table's published row" in proc.stderr


def _paper(name, tunings):
    return registry.Paper(name=name, title=name, help=name, verbs={}, rules="x.smk", targets=list, tunings=tunings)


def test_tunings_are_keyed_by_learner_and_parameter_and_a_second_paper_tuning_one_is_an_error(monkeypatch):
    from coreflab.learn.tuned import ANY_LEARNER, ROOT_LOSS, Tuning, tuning_of

    known, package = registry.tunings(), registry.papers()
    assert known[(ANY_LEARNER, "root_loss")] == ROOT_LOSS
    assert tuning_of(known, "lsp_rho", "regressor").is_file and tuning_of(known, "lsp_f", "regressor") is None
    assert tuning_of(known, "bk_laso", "root_loss") == ROOT_LOSS
    ours = _paper("ours", {("my_learner", "C"): Tuning("results/{corpus}/ours.json")})
    monkeypatch.setattr(registry, "papers", lambda: [*package, ours])
    assert registry.tunings()[("my_learner", "C")].path == "results/{corpus}/ours.json"  # C of another learner
    clash = _paper("clash", {("lsp_f", "C"): Tuning("results/{corpus}/clash.json")})
    monkeypatch.setattr(registry, "papers", lambda: [*package, clash])
    with pytest.raises(UserError, match=r"paper clash tunes C of lsp_f, which paper hm2017 tunes already"):
        registry.tunings()
    root = _paper("root", {("bk_laso", "root_loss"): Tuning("results/{corpus}/r.json")})
    monkeypatch.setattr(registry, "papers", lambda: [*package, root])
    with pytest.raises(UserError, match=r"tunes root_loss of bk_laso, which the workflow tunes already"):
        registry.tunings()
    bare = _paper("bare", {"C": Tuning("results/{corpus}/b.json")})
    monkeypatch.setattr(registry, "papers", lambda: [*package, bare])
    with pytest.raises(UserError, match=r"a key of Paper.tunings is \(learner, parameter\), not 'C'"):
        registry.tunings()


@pytest.mark.slow
def test_a_papers_own_learner_module_is_found_by_the_learner_registry(tmp_path):
    """A learner may live in its paper's folder (`Paper.learner_modules`), not in coreflab.learn."""
    (tmp_path / "learning_paper").mkdir()
    (tmp_path / "learning_paper" / "__init__.py").write_text(
        "from coreflab.papers.registry import Paper\n"
        "PAPER = Paper(name='learning', title='t', help='h', verbs={}, rules='x.smk', targets=list,\n"
        "              learner_modules=('learning_paper.learner',))\n"
    )
    (tmp_path / "learning_paper" / "learner.py").write_text(
        "from coreflab.learn.registry import register\n\n@register('paper_learner')\nclass PaperLearner:\n    pass\n"
    )
    probe = "from coreflab.cli import main\nfrom coreflab.learn import registry\nprint(registry.get_learner('paper_learner').name)\n"
    proc = _run(
        [sys.executable, "-c", probe], {"COREFLAB_PAPER_MODULES": "learning_paper", "PYTHONPATH": str(tmp_path)}
    )
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert proc.stdout.split() == ["paper_learner"]
