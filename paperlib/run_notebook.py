"""Execute a notebook with papermill, writing the executed copy atomically.

``python -m paperlib.run_notebook notebooks/004_slow_start_latency.ipynb OUT.ipynb -p rtt_s 0.05``

Papermill writes its output notebook cell by cell; here it writes to a
temporary file that replaces ``OUT.ipynb`` only once the whole run succeeded,
so an interrupted run leaves the previous executed copy intact. The kernel
runs with the notebook's folder as working directory.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import yaml

from paperlib.notebook_output import normalise_file


def run(notebook: Path, output: Path, parameters: dict | None = None) -> Path:
    """Execute ``notebook`` with ``parameters`` into ``output`` (atomically)."""
    import papermill as pm

    notebook, output = Path(notebook).resolve(), Path(output).resolve()
    output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".ipynb", dir=output.parent)
    os.close(fd)
    try:
        pm.execute_notebook(
            str(notebook),
            tmp,
            parameters=parameters or {},
            cwd=str(notebook.parent),
            progress_bar=False,
            kernel_name="python3",
        )
        normalise_file(tmp)  # no wall-clock time or run path in the executed copy (paperlib/notebook_output.py)
        os.replace(tmp, output)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m paperlib.run_notebook", description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument(
        "-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
        help="a notebook parameter; VALUE is read as YAML (0.05 -> float, [1, 2] -> list)",
    )
    args = parser.parse_args(argv)
    params = {name: yaml.safe_load(value) for name, value in args.parameter}
    try:
        run(args.notebook, args.output, params)
    except Exception as err:  # papermill's PapermillExecutionError carries the cell's traceback
        sys.stderr.write(f"{args.notebook}: execution failed: {getattr(err, 'ename', type(err).__name__)}: "
                         f"{getattr(err, 'evalue', err)}\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
