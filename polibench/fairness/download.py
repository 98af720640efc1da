"""Fetch a data file (an OSF project file or a URL) into polibench's cache and verify its SHA-256.

The OSF look-up lists the project's storage through the public API
(``https://api.osf.io/v2/nodes/<project>/files/osfstorage/``), finds the file by name or path, and takes its
download link and the SHA-256 OSF reports for it. The download is written to a temporary file beside it and
renamed only after its hash matches the task's pinned ``sha256`` (or, when the task pins none, OSF's). Offline
(``POLIBENCH_OFFLINE=1`` or ``HF_HUB_OFFLINE=1``, or no network), it raises a
:class:`~polibench.errors.PolibenchError` that says exactly what to fetch by hand and how to pass it.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from typing import Optional

from polibench.errors import PolibenchError
from polibench.fairness.spec import Download
from polibench.hashing import file_sha256
from polibench.kit.files import atomic_path

OSF_API = "https://api.osf.io/v2/nodes/{project}/files/osfstorage/"
TIMEOUT_S = 60
CHUNK = 1 << 20


class OfflineError(PolibenchError):
    """The file is not on disk and cannot be downloaded here."""


def offline() -> bool:
    return any(os.environ.get(v, "").strip().lower() in ("1", "true", "yes")
               for v in ("POLIBENCH_OFFLINE", "HF_HUB_OFFLINE"))


def where_to_get(spec: Download, file: str) -> str:
    """Human instructions for fetching ``file`` by hand."""
    if spec.url:
        return f"download {spec.url}"
    return (f"download '{spec.osf_path}' from the OSF project https://osf.io/{spec.osf_project}/ "
            f"(Files > OSF Storage)")


def _get_json(url: str) -> dict:
    request = urllib.request.Request(url, headers={"Accept": "application/vnd.api+json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
        return json.loads(response.read().decode("utf-8"))


def osf_lookup(project: str, wanted: str) -> tuple[str, Optional[str]]:
    """(download URL, SHA-256 reported by OSF or None) of ``wanted`` (a file name or path) in the project."""
    wanted = wanted.strip("/")
    folders = [OSF_API.format(project=project)]
    seen = set()
    while folders:
        url = folders.pop(0)
        if url in seen:
            continue
        seen.add(url)
        while url:
            page = _get_json(url)
            for entry in page.get("data", []):
                attributes = entry.get("attributes", {})
                path = str(attributes.get("materialized_path", "")).strip("/")
                if attributes.get("kind") == "folder":
                    related = entry.get("relationships", {}).get("files", {}).get("links", {}).get("related", {})
                    href = related.get("href") if isinstance(related, dict) else related
                    if href:
                        folders.append(href)
                elif path == wanted or attributes.get("name") == wanted or path.endswith("/" + wanted):
                    hashes = (attributes.get("extra") or {}).get("hashes") or {}
                    return entry["links"]["download"], hashes.get("sha256")
            url = (page.get("links") or {}).get("next")
    raise PolibenchError(f"OSF project {project} has no file '{wanted}'; check the task's download.osf_path")


def fetch(spec: Download, dest: Path, show_progress: bool = True) -> Path:
    """Download ``spec`` to ``dest`` (verified), unless ``dest`` already exists; returns ``dest``."""
    dest = Path(dest)
    if dest.is_file():
        return dest
    hint = (f"{where_to_get(spec, dest.name)}, then run `polibench fairness data --task TASK --path "
            f"/path/to/{dest.name}`")
    if offline():
        raise OfflineError(f"{dest.name} is not on disk and downloads are off (offline mode): {hint}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(dest) as partial:  # removed unless the whole file arrived and its hash matches
        try:
            if spec.url:
                url, reported = spec.url, None
            else:
                url, reported = osf_lookup(spec.osf_project, spec.osf_path)
            expected = spec.sha256 or reported
            digest = hashlib.sha256()
            with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response, open(partial, "wb") as out:
                total = int(response.headers.get("Content-Length") or 0) or None
                from tqdm.auto import tqdm

                with tqdm(total=total, unit="B", unit_scale=True, desc=f"download {dest.name}",
                          disable=not show_progress) as bar:
                    for block in iter(lambda: response.read(CHUNK), b""):
                        out.write(block)
                        digest.update(block)
                        bar.update(len(block))
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            reason = getattr(exc, "reason", exc)
            raise OfflineError(f"could not download {dest.name} ({reason}): {hint}") from None
        except (ValueError, KeyError, TypeError) as exc:  # an OSF answer of an unexpected shape
            raise PolibenchError(f"unexpected answer from OSF while looking up {dest.name} ({exc!s:.120}): {hint}") \
                from None
        actual = digest.hexdigest()
        if expected and actual != expected:
            raise PolibenchError(f"{dest.name}: SHA-256 {actual} does not match the expected {expected}; "
                                 "the download was discarded")
    return dest


def verify(path: Path, expected: Optional[str]) -> str:
    """SHA-256 of ``path``; raises when a pinned ``expected`` hash does not match."""
    actual = file_sha256(path)
    if expected and actual != expected:
        raise PolibenchError(f"{path}: SHA-256 {actual} does not match the task's pinned {expected} "
                             "(a different version of the file?)")
    return actual
