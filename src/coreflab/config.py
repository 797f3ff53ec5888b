"""Workflow configuration: JSON-schema validation with defaults and one-line errors.

Snakemake's own `validate` prints the whole config on failure; a user who typed
`corpra:` wants one line naming the key. Defaults from the schema are filled in, so
rules can read every key with plain dict access.
"""

import difflib
import re
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import yaml

from coreflab.errors import InputFormatError, UserError


def _with_defaults(validator_class):
    validate_props = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, sub in properties.items():
                if "default" in sub and name not in instance:
                    instance[name] = _copy(sub["default"])
        yield from validate_props(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


def _copy(value):
    return yaml.safe_load(yaml.safe_dump(value))


def _describe(error):
    where = ".".join(str(p) for p in error.absolute_path) or "(top level)"
    if error.validator == "additionalProperties":
        known = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(known))
        return f"config key {where + '.' if error.absolute_path else ''}{extra[0]!r} is unknown; expected one of {', '.join(known)}"
    if error.validator in ("oneOf", "anyOf") and error.context:
        # the branch that fits the value's own type says what is wrong (`mentions: silver`: not one of ...)
        typed = [e for e in error.context if e.validator != "type"] or list(error.context)
        inner = jsonschema.exceptions.best_match(typed)
        return f"config key {where}: {inner.message}{_text_hint(inner)}"
    return f"config key {where}: {error.message}{_text_hint(error)}"


def _text_hint(error):
    if error.validator not in ("type", "enum"):
        return ""
    return text_hint(error.instance)


def text_hint(value):
    """Why a number arrived as text. The config cannot tell where a value came from: a quoted number
    in a YAML file (`bits: '22'`) is text, and so is every value inside a mapping given to --config,
    which Snakemake reads with YAML's BaseLoader (`--config 'selection={iterations: 2}'`)."""
    if not isinstance(value, str):
        return ""
    try:
        parsed = yaml.safe_load(value)
    except yaml.YAMLError:
        return ""
    if isinstance(parsed, str) or parsed is None:
        return ""
    return (
        " (a quoted number or true/false in YAML, or a value inside a mapping given to --config, is text; "
        "write it unquoted in a YAML file passed with --configfile)"
    )


def overlay(base, over):
    """Snakemake's --configfile overlay: nested mappings merge key by key, other values replace."""
    out = dict(base)
    for k, v in over.items():
        out[k] = overlay(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def check_config(config, schema_path):
    """Validate (and fill defaults into) a config dict; raise UserError with one line."""
    schema = with_papers(yaml.safe_load(Path(schema_path).read_text()))
    section = config.get("training_size") if isinstance(config, dict) else None
    given_training_size = section.get("learners") if isinstance(section, dict) else None
    cls = _with_defaults(jsonschema.validators.validator_for(schema))
    errors = sorted(cls(schema).iter_errors(config), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    if errors:
        raise UserError(_describe(errors[0]))
    for corpus in config.get("run", {}).get("corpora", []):
        if corpus not in config.get("corpora", {}):
            raise UserError(f"config key run.corpora: {corpus!r} has no entry under 'corpora' (add corpora.{corpus})")
    # a second pass fills defaults inside the corpus entries added above
    for _ in cls(schema).iter_errors(config):
        pass
    check_systems(config)
    check_learners(config)
    check_featuresets(config)
    check_selection_sources(config)
    check_nonlocal_templates(config)
    check_training_size(config, given_training_size)
    from coreflab.papers import registry

    for paper in registry.papers():  # each paper's checks of its own section
        paper.check_config(config, CHECKS)
    if "run" in config:
        # a paper's own switch (Singh et al.'s crossdoc.enabled) says what run.papers would
        config["run"]["papers"] = [p for p in config["run"]["papers"] if registry.get(p).enabled(config)]
    return config


def with_papers(schema):
    """The schema with the registered papers (coreflab.papers.registry): the names `run.papers` takes
    and its default (all of them), and each paper's config sections (`Paper.config_schemas`); a section
    two of them claim is an error."""
    from coreflab.papers import registry

    papers = registry.papers()
    entry = schema["properties"]["run"]["properties"]["papers"]
    entry["items"] = {**entry.get("items", {}), "enum": [p.name for p in papers]}
    entry["default"] = [p.name for p in papers]
    owner = dict.fromkeys(schema["properties"], "the workflow")
    for paper in papers:
        for section, sub in paper.config_schemas().items():
            if section in owner:
                raise UserError(f"paper {paper.name}: its config section {section!r} is {owner[section]}'s already")
            schema["properties"][section] = _copy(sub)
            owner[section] = f"paper {paper.name}"
    return schema


def check_systems(config):
    """Every leaderboard system is `string_match` or a configured learner: a misspelled name
    would otherwise plan nothing for it and leave an old leaderboard in place."""
    valid = ["string_match", *sorted(config.get("learners", {}))]
    for name in config.get("systems", []):
        if name not in valid:
            raise UserError(
                f"config key systems: {name!r} is neither string_match nor a configured learner; "
                f"expected one of {', '.join(valid)}"
            )


def check_training_size(config, given):
    """Every `training_size.learners` name a config gives (`given`, before the defaults are filled in) is a
    configured learner: a misspelled one would draw no curve. The default names that a config does not
    configure are left out of the curves (and said so in curve.md)."""
    valid = sorted(config.get("learners", {}))
    for name in given if isinstance(given, list) else []:
        if name not in valid:
            raise UserError(
                f"config key training_size.learners: {name!r} is not a configured learner (a key of learners)"
                f"{_closest(name, valid)}; expected one of {', '.join(valid)}"
            )


def untrained_learners(config):
    """The learners configured under `learners` but listed neither in `systems` nor in
    `training_size.learners`: no job trains them, which a user who adds a learner would not guess."""
    listed = set(config.get("systems", [])) | set(config.get("training_size", {}).get("learners", []))
    return [name for name in sorted(config.get("learners", {})) if name not in listed]


def untrained_learners_note(config):
    """One line naming the configured learners nothing trains, or '' when every one is a system."""
    names = untrained_learners(config)
    if not names:
        return ""
    keys = ", ".join(f"learners.{n}" for n in names)
    return (
        f"coreflab: note: {keys} {'is' if len(names) == 1 else 'are'} configured but not in systems, "
        "so no job trains {them}; add {them} to the config key systems to put {them} on the leaderboard"
    ).replace("{them}", "it" if len(names) == 1 else "them")


def _closest(value, valid):
    """` (did you mean 'x'?)` when a valid choice is close to a misspelled value, else ''."""
    close = difflib.get_close_matches(str(value), [str(v) for v in valid], n=2)
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""


# the parameters the workflow adds to a learner's, and who passes them
_PASSED_BY = {"seed": "every train job passes"}
_TUNED = "its tuned_params names (tuned on dev, passed by the train job)"


def check_learners(config):
    """Each `learners.<system>` names a registered learner and
    only parameters it takes, of its defaults' types: `coreflab train` would stop on them only after the
    features and template selection ran. Only the keys the config gives are judged (the workflow adds
    others, e.g. seed and root_loss)."""
    from coreflab.learn import registry
    from coreflab.learn.tuned import tuned_names, tuned_params, tuning_of, untuned
    from coreflab.papers.registry import tunings

    def learner(key, name):
        try:
            return registry.get_learner(name)
        except UserError as err:
            raise UserError(f"config key {key}: {err}{_closest(name, registry.available_learners())}") from None

    for system, entry in config.get("learners", {}).items():
        cls = learner(f"learners.{system}.learner", entry["learner"])
        params = entry.get("params") or {}
        _check_learner_params(f"learners.{system}.params", cls, params)
        # what the workflow adds to the params: every train job passes --seed, and the values tuned on dev
        # of the learner's tuned_params that the params do not set (coreflab.learn.tuned)
        known = tunings()
        unknown = [name for name in tuned_params(cls) if tuning_of(known, entry["learner"], name) is None]
        if unknown:
            raise UserError(
                f"config key learners.{system}.learner: learner {entry['learner']!r} takes {', '.join(unknown)} "
                f"from tuning (tuned_params), which no tuning job makes; tuned: "
                f"{', '.join(tuned_names(known, entry['learner']))}"
            )
        added = ["seed"] + untuned(cls, params)
        lacking = [
            f"{name} parameter, which {_PASSED_BY.get(name, _TUNED)}"
            for name in added
            if name not in cls._param_names()
        ]
        if lacking:
            raise UserError(
                f"config key learners.{system}.learner: learner {entry['learner']!r} takes no "
                f"{'; nor a '.join(lacking)}; see docs/adding-a-learner.md"
            )


def _learner(key, name):
    from coreflab.learn import registry

    try:
        return registry.get_learner(name)
    except UserError as err:
        raise UserError(f"config key {key}: {err}{_closest(name, registry.available_learners())}") from None


def check_learner_params(key, name, params):
    """`key.<name>` of a config maps a registered learner to parameters it takes, of its defaults' types."""
    cls = _learner(key, name)
    if not isinstance(params, dict):
        raise UserError(f"config key {key}.{name}: expected a mapping of parameters, got {params!r}")
    _check_learner_params(f"{key}.{name}", cls, params)


def _check_learner_params(key, cls, params):
    from coreflab.learn.base import check_param_types

    known = cls._param_names()
    for name in params:
        if name not in known:
            raise UserError(
                f"config key {key}: {name!r} is not a parameter of learner {cls.name}{_closest(name, known)}; "
                f"expected one of {', '.join(known)}"
            )
    for name, value in params.items():
        try:
            check_param_types(cls, {name: value})
        except UserError as err:
            raise UserError(f"config key {key}.{name}: {err}{text_hint(value)}") from None
    validate = getattr(cls, "_validate", None)  # the checks a learner makes of its parameters before fitting
    if validate is not None:
        try:
            validate(cls(**check_param_types(cls, params)))
        except UserError as err:
            raise UserError(f"config key {key}: {err}") from None
        except (TypeError, ValueError) as err:
            raise UserError(f"config key {key}: learner {cls.name} rejects these parameters ({err})") from None


def check_featuresets(config):
    """`features.featureset`, `selection.start` and `selection.candidates` resolve as the jobs resolve them
    (`load_featureset`: a name under config/featuresets/, else a path) to a file of known templates;
    `features.featureset` may also be `selected`, the output of template selection."""
    from coreflab.features.featureset import FEATURESET_DIRS, load_featureset

    names = sorted({p.stem for folder in FEATURESET_DIRS if folder.is_dir() for p in folder.glob("*.yaml")})
    for key, value, selected in (
        ("features.featureset", config.get("features", {}).get("featureset"), True),
        ("selection.start", config.get("selection", {}).get("start"), False),
        ("selection.candidates", config.get("selection", {}).get("candidates"), False),
    ):
        if value is None or (selected and value == "selected"):
            continue
        valid = (["selected"] if selected else []) + names
        expected = f"expected one of {', '.join(valid)} (config/featuresets/), or the path of a YAML list of templates"
        if not value.strip():
            raise UserError(f"config key {key}: {value!r} is empty; {expected}")
        try:
            load_featureset(value)
        except InputFormatError as err:  # the file is there: its error names the line and the template
            raise UserError(f"config key {key}: {err}") from None
        except UserError:
            raise UserError(
                f"config key {key}: {value!r} is neither a feature set under config/featuresets/ nor an existing file"
                f"{_closest(value, valid)}; {expected}"
            ) from None


def check_selection_sources(config):
    """`selection.from_corpus` maps a corpus to another whose selected templates it uses (itself: its own
    selection): a configured corpus that makes its own selection, never one that borrows in turn."""
    borrowed = {c: s for c, s in (config.get("selection", {}).get("from_corpus") or {}).items() if c != s}
    corpora = sorted(config.get("corpora", {}))
    for corpus, source in borrowed.items():
        key = f"config key selection.from_corpus.{corpus}"
        if source in borrowed:
            raise UserError(f"{key}: {source!r} does not make a selection of its own; name a corpus that does")
        if source not in corpora:
            raise UserError(
                f"{key}: {source!r} is not under corpora:{_closest(source, corpora)}; expected one of {', '.join(corpora)}"
            )


def check_nonlocal_templates(config):
    """`selection.nonlocal_candidates` names only known non-local templates."""
    check_nonlocal_names("selection.nonlocal_candidates", config.get("selection", {}).get("nonlocal_candidates"))


def check_nonlocal_names(key, names, selected=False):
    """A config's list of non-local templates names only known ones (coreflab.features.nonlocal_templates.
    NONLOCAL_TEMPLATES); selected: `selected` (those template selection chose) may stand for the list."""
    from coreflab.features.nonlocal_templates import NONLOCAL_TEMPLATES

    if isinstance(names, list):  # else `selected`, or absent
        for name in names:
            if name not in NONLOCAL_TEMPLATES:
                raise UserError(
                    f"config key {key}: {name!r} is not a non-local template{_closest(name, NONLOCAL_TEMPLATES)}; "
                    f"expected one of {', '.join(NONLOCAL_TEMPLATES)}"
                    + ("; or selected instead of a list (those template selection chose)" if selected else "")
                )


# the checks a paper's `check_config` may apply to its own section: the papers sit below this module,
# which hands these over rather than have them import it
CHECKS = SimpleNamespace(learner_params=check_learner_params, nonlocal_templates=check_nonlocal_names)

_KEY_IN_MESSAGE = re.compile(r"^config key (\S+?)(?::| is unknown)")


def key_origin(message, configfiles=(), overrides=None):
    """` (set at FILE:LINE)` or ` (set by --config)` for the config key a check's message names, so a user
    with several config files sees which one to edit; '' when it cannot tell (the key's default, say).
    configfiles: in the order Snakemake applies them (a later one wins); overrides: the --config mapping."""
    m = _KEY_IN_MESSAGE.match(str(message))
    if not m:
        return ""
    path = [part.strip("'\"") for part in m.group(1).split(".") if part]
    if _lookup(overrides or {}, path):
        return " (set by --config)"
    for name in reversed(list(configfiles)):
        try:
            node = yaml.compose(Path(name).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        line = _line_of(node, path)
        if line is not None:
            return f" (set at {name}:{line})"
    return ""


def _lookup(mapping, path):
    """Whether a nested mapping sets path (or a prefix of it whose value is not a mapping: a list, say)."""
    node = mapping
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
        if not isinstance(node, dict):
            return True
    return True


def _line_of(node, path):
    """Line (from 1) where a composed YAML mapping node sets path (or a prefix of it whose value is not a
    mapping: a list, say), or None when it does not."""
    line = None
    for part in path:
        if not isinstance(node, yaml.MappingNode):
            return line
        for key, value in node.value:
            if key.value == part:
                line, node = key.start_mark.line + 1, value
                break
        else:
            return None
    return line


def check_corpus_folders(config):
    """Fail before any job runs when a corpus to run points at a folder that is not there (or, for a
    user's own CoNLL-2012 release, at none, or at one without a split's files for the configured
    language and annotation): the import's one-line errors, named as the config key.

    Separate from check_config, which judges the config alone; this looks at the machine."""
    from coreflab.corpus.download import DOWNLOAD_KEY, local_copy
    from coreflab.corpus.readers.conll2012_release import SPLIT_DIRS, read_annotation

    for name in config.get("run", {}).get("corpora", []):
        entry = config.get("corpora", {}).get(name) or {}
        local = entry.get("local_dir")
        key = f"corpora.{name}.local_dir"
        try:
            if name == "conll2012":
                for split in SPLIT_DIRS:  # the layout, language and annotation of every split, as the import reads them
                    read_annotation(local, split, entry.get("language", "english"), entry.get("annotation", "gold"))
            elif name in DOWNLOAD_KEY:
                local_copy(name, local)
        except UserError as err:  # named as a config key, so that the message says which file set it
            text = str(err).removeprefix(f"{key} = ").removeprefix(f"{key} is ")
            raise UserError(f"config key {key}: {text}") from None
