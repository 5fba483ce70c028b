"""How fast hostile ruleset files are refused (target: well under a second each).

    python bench/hostile_yaml.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from agon.referee.ruleset import validate_file

CASES = {
    "object tag": "a: !!python/object/apply:os.system ['true']\n",
    "alias bomb (9^9 values)": "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{c}: &{c} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)),
    "deep nesting (3000 levels)": "a: " + "[" * 3000 + "]" * 3000 + "\n",
    "3 MB file": "a: " + "x" * (3 * 1024 * 1024) + "\n",
    "1.9 MB flat list": "a: [" + ",".join(["1"] * 950_000) + "]\n",
}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in CASES.items():
            path = Path(tmp) / "case.yaml"
            path.write_text(text)
            began = time.perf_counter()
            _, issues = validate_file(path)
            took = time.perf_counter() - began
            print(f"{name:28s} {took * 1000:8.1f} ms  {issues[0].message[:60] if issues else 'valid'}")


if __name__ == "__main__":
    main()
