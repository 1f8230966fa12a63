#!/usr/bin/env python3
"""Download the external data sets listed in datasets/manifest.toml.

Usage: scripts/fetch_datasets.py [DEST]     (default: datasets/ in the checkout)

Each file comes from its public GitHub origin (raw.githubusercontent.com) and is
checked against the SHA-256 in the manifest before it is moved into place, so a
failed or altered download never leaves a half-written file behind. Files that
are already present with the right hash are skipped. Point ccdlab at the result
with CCDLAB_DATA=DEST (datasets/ is found without it).

Standard library only (Python >= 3.11 for tomllib).
"""
import hashlib
import os
import sys
import tomllib
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REF = os.environ.get("CCDLAB_DATA_REF", "HEAD")


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main() -> int:
    dest = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "datasets"
    manifest = tomllib.loads((ROOT / "datasets" / "manifest.toml").read_text())
    repos = {s["name"]: s["repo"] for s in manifest["source"]}
    failures = 0
    for entry in manifest["file"]:
        target = dest / entry["source"] / entry["path"]
        if target.exists() and sha256(target) == entry["sha256"]:
            continue
        origin = entry.get("origin_path", entry["path"])
        url = f"https://raw.githubusercontent.com/{repos[entry['source']]}/{REF}/{origin}"
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".part")
        try:
            with urllib.request.urlopen(url, timeout=60) as r, partial.open("wb") as out:
                while chunk := r.read(1 << 20):
                    out.write(chunk)
        except OSError as e:
            print(f"error: {url}: {e}", file=sys.stderr)
            partial.unlink(missing_ok=True)
            failures += 1
            continue
        got = sha256(partial)
        if got != entry["sha256"]:
            print(f"error: {url}: sha256 {got}, manifest says {entry['sha256']}", file=sys.stderr)
            partial.unlink()
            failures += 1
            continue
        partial.replace(target)
        print(f"fetched {target.relative_to(dest)}")
    if failures:
        print(f"{failures} file(s) failed; nothing partial was kept", file=sys.stderr)
        return 1
    print(f"data sets complete under {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
