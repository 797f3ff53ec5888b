"""Find an open corpus on disk, or download it from its public archive at a pinned commit.

Reproducibility needs the exact data the results came from, so each open corpus is a
GitHub tarball at a fixed commit (codeload.github.com), unpacked into `resources/<name>/`
in the layout the readers expect. The download is atomic: everything lands in a
temporary folder next to the target, which is renamed only when complete (a `.complete`
file records the pins), so an interrupted run never leaves a half corpus that later runs
would trust. `corpora.<name>.local_dir` reads an existing copy instead and never touches
the network. When neither works the user gets one line naming both ways.
"""

import json
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from coreflab.errors import UserError

DEFAULT_RESOURCES = "resources"
MARKER = ".complete"


@dataclass(frozen=True)
class Archive:
    """One pinned repository tarball and which of its paths to keep (repo path -> local path)."""

    repo: str
    commit: str
    members: tuple

    @property
    def url(self):
        return f"https://codeload.github.com/{self.repo}/tar.gz/{self.commit}"


# download key -> archives; the paths on the right form the layout of a shared copy.
ARCHIVES = {
    "litbank": (
        Archive("dbamman/litbank", "3e50db0ffc033d7ccbb94f4d88f6b99210328ed8", (("coref/conll/", "conll/"),)),
        Archive(
            "dbamman/lrec2020-coref",
            "e30de53743d36d1ea2c9e7292c69477fa332713c",
            (("data/litbank_tenfold_splits/", "splits_tenfold/"),),
        ),
    ),
    "gum": (
        Archive(
            "amir-zeldes/gum",
            "72ce5ac14978a324c2fd18d49484e65292cbe316",
            (
                ("coref/gum/conll/", "conll_gum_native/"),
                ("coref/ontogum/conll/", "conll_ontogum/"),
                ("dep/", "dep/"),
                ("const/", "const/"),
                ("splits.md", "splits.md"),
            ),
        ),
    ),
    # ECB+ (Singh et al. 2011, Table 2 and Fig. 7): the per-file XML of the parser repository (the
    # official repository keeps it as a zip) and the official list of completely annotated sentences
    "ecbplus": (
        Archive("cltl/ECB-parser", "eba7c4d1caa758816bcee3139bdd4e6688dee00d", (("ECB+/", "ECB+/"),)),
        Archive(
            "cltl/ecbPlus",
            "3aa071e12fd08fc0705b16bb1841e7a9c5c22420",
            (("ECB+_LREC2014/ECBplus_coreference_sentences.csv", "ECBplus_coreference_sentences.csv"),),
        ),
    ),
}
# corpus (source name) -> download key: GUM and OntoGUM come from one archive.
DOWNLOAD_KEY = {"litbank": "litbank", "gum": "gum", "ontogum": "gum", "ecbplus": "ecbplus"}


def corpus_root(name, options=None, resources_dir=None, fetch=None):
    """The folder holding corpus `name`: `local_dir` when given, else the pinned download."""
    options = options or {}
    target = Path(resources_dir or DEFAULT_RESOURCES) / DOWNLOAD_KEY[name]
    local = local_copy(name, options.get("local_dir"), target)
    return local if local is not None else download_corpus(name, target, options, fetch)


def local_copy(name, local, target=None):
    """The configured local copy of corpus `name` as a Path (None: not configured, download).

    A configured folder that does not exist is a one-line UserError naming both ways to get it.
    """
    if local in (None, ""):
        return None
    key = DOWNLOAD_KEY[name]
    path = Path(str(local)).expanduser()
    if not path.is_dir():
        target = target or Path(DEFAULT_RESOURCES) / key
        raise UserError(
            f"corpora.{name}.local_dir = {local}: {'a file, not a directory' if path.exists() else 'no such directory'}; "
            f"point it at an existing copy of {key} "
            f"(e.g. ../shared/data/{key}) or remove it to download the pinned archive into {target}/"
        )
    return path


def pinned_archives(name, options=None):
    """The archives of a corpus with the `commit` / `url` / `splits_commit` overrides applied."""
    options = options or {}
    archives = list(ARCHIVES[DOWNLOAD_KEY[name]])
    main = archives[0]
    if options.get("commit"):
        main = Archive(main.repo, str(options["commit"]), main.members)
    archives[0] = main
    if len(archives) > 1 and options.get("splits_commit"):
        archives[1] = Archive(archives[1].repo, str(options["splits_commit"]), archives[1].members)
    urls = [str(options["url"]) if options.get("url") else main.url] + [a.url for a in archives[1:]]
    return list(zip(archives, urls))


def download_corpus(name, target, options=None, fetch=None):
    """Download and unpack the pinned archives of `name` into `target` (atomic; reused when
    a complete copy with the same pins is already there)."""
    target = Path(target)
    pins = [(a.repo, a.commit, url) for a, url in pinned_archives(name, options)]
    marker = target / MARKER
    if marker.is_file():
        try:
            if json.loads(marker.read_text(encoding="utf-8")) == [list(p) for p in pins]:
                return target
        except (OSError, ValueError):
            pass
    fetch = fetch or fetch_url
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    try:
        for archive, url in pinned_archives(name, options):
            tarball = tmp / ".archive.tar.gz"
            try:
                fetch(url, tarball)
            except (urllib.error.URLError, OSError, ValueError) as err:
                reason = getattr(err, "reason", None) or err
                raise UserError(
                    f"corpus {name!r} is not available: downloading {url} failed ({reason}); either set "
                    f"corpora.{name}.local_dir to an existing copy (e.g. ../shared/data/{target.name}) or allow "
                    f"network access so coreflab can download it into {target}/"
                ) from None
            extract_members(tarball, archive.members, tmp)
            tarball.unlink()
        (tmp / MARKER).write_text(json.dumps([list(p) for p in pins]), encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def fetch_url(url, dest, timeout=60):
    """Stream `url` into the file `dest` (urllib; raises URLError/OSError on failure)."""
    with urllib.request.urlopen(url, timeout=timeout) as response, open(dest, "wb") as fh:
        shutil.copyfileobj(response, fh, length=1 << 20)


def extract_members(tarball, members, dest):
    """Copy the wanted files of a GitHub tarball (top folder `<repo>-<commit>/` stripped) to
    their local paths under `dest`; nothing outside `dest` is ever written."""
    dest = Path(dest).resolve()
    found = {src: 0 for src, _ in members}
    try:
        with tarfile.open(tarball, "r:*") as tar:
            for member in tar:
                if not member.isfile():
                    continue
                parts = member.name.split("/", 1)
                if len(parts) < 2:
                    continue
                inner = parts[1]
                for src, dst in members:
                    if inner == src or (src.endswith("/") and inner.startswith(src)):
                        out = (dest / (dst + inner[len(src) :])).resolve()
                        if dest not in out.parents:
                            raise UserError(f"{tarball}: member {member.name!r} would land outside {dest}")
                        out.parent.mkdir(parents=True, exist_ok=True)
                        with tar.extractfile(member) as src_fh, open(out, "wb") as out_fh:
                            shutil.copyfileobj(src_fh, out_fh)
                        found[src] += 1
                        break
    except (tarfile.TarError, EOFError) as err:
        raise UserError(f"{tarball}: not a readable tar.gz archive ({err})") from None
    missing = [src for src, n in found.items() if n == 0]
    if missing:
        raise UserError(f"{tarball}: archive lacks {', '.join(missing)}; is the pinned commit right?")
