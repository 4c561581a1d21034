"""A PEP 517 / PEP 660 build backend in the standard library, for this one pure-Python package.

The wheel holds src/avatar_video and a .dist-info (METADATA from pyproject.toml's [project], WHEEL, RECORD);
the sdist holds what it takes to build that wheel again. Archives are reproducible (fixed timestamps, sorted).
"""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "avatar_video"
TAG = "py3-none-any"
EPOCH = (1980, 1, 1, 0, 0, 0)
WHEEL = f"Wheel-Version: 1.0\nGenerator: avatar_video_build\nRoot-Is-Purelib: true\nTag: {TAG}\n"


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _dist_name(project: dict) -> str:
    return project["name"].replace("-", "_")


def _license_file() -> Path:
    """The package's LICENSE: its own in an sdist, the repository's in a checkout."""
    own = ROOT / "LICENSE"
    return own if own.exists() else ROOT.parents[1] / "LICENSE"


def _metadata(project: dict) -> str:
    """Core metadata (PKG-INFO in the sdist, METADATA in the wheel)."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        f"License: {project['license']['text']}",
        f"Author: {', '.join(a['name'] for a in project.get('authors', []))}",
        f"Keywords: {','.join(project.get('keywords', []))}",
        *(f"Classifier: {c}" for c in project.get("classifiers", [])),
        *(f"Project-URL: {label}, {url}" for label, url in project.get("urls", {}).items()),
        *(f"Requires-Dist: {d}" for d in project.get("dependencies", [])),
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(lines) + "\n\n" + (ROOT / project["readme"]).read_text()


def _package_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def _write_wheel(wheel_directory: str, files: dict[str, bytes]) -> str:
    """A wheel of `files` (archive path → content) with its .dist-info; returns its file name."""
    project = _project()
    dist = f"{_dist_name(project)}-{project['version']}"
    info = f"{dist}.dist-info"
    files = {
        **files,
        f"{info}/METADATA": _metadata(project).encode(),
        f"{info}/WHEEL": WHEEL.encode(),
        f"{info}/licenses/LICENSE": _license_file().read_bytes(),
    }
    record = []
    for path, content in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(content)}")
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    name = f"{dist}-{TAG}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, content in files.items():
            entry = zipfile.ZipInfo(path, EPOCH)
            entry.external_attr = 0o644 << 16
            wheel.writestr(entry, content, zipfile.ZIP_DEFLATED)
    return name


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: dict | None = None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings: dict | None = None) -> list[str]:
    return []


def build_wheel(
    wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None
) -> str:
    files = {str(p.relative_to(PACKAGE.parent)): p.read_bytes() for p in _package_files()}
    return _write_wheel(wheel_directory, files)


def build_editable(
    wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None
) -> str:
    """`pip install -e .`: a wheel whose .pth puts this checkout's src/ on sys.path."""
    return _write_wheel(wheel_directory, {"avatar_video_editable.pth": f"{PACKAGE.parent}\n".encode()})


def build_sdist(sdist_directory: str, config_settings: dict | None = None) -> str:
    project = _project()
    dist = f"{_dist_name(project)}-{project['version']}"
    members = {
        "PKG-INFO": _metadata(project).encode(),
        "pyproject.toml": (ROOT / "pyproject.toml").read_bytes(),
        "README.md": (ROOT / project["readme"]).read_bytes(),
        "LICENSE": _license_file().read_bytes(),
        "build_backend/avatar_video_build.py": Path(__file__).read_bytes(),
        **{str(p.relative_to(ROOT)): p.read_bytes() for p in _package_files()},
    }
    name = f"{dist}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        for path, content in sorted(members.items()):
            entry = tarfile.TarInfo(f"{dist}/{path}")
            entry.size, entry.mode, entry.mtime = len(content), 0o644, 315532800
            sdist.addfile(entry, io.BytesIO(content))
    return name
