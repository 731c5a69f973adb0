"""Execute a notebook with papermill: parameters checked first, outputs replaced as a set.

``python -m paperlib.run_notebook notebooks/004_slow_start_latency.ipynb OUT.ipynb -p rtt_s 0.05``

1. Every parameter is checked before anything runs or is written (:mod:`paperlib.parameters`):
   an unknown name fails listing the notebook's parameters (read from its ``parameters`` cell),
   a value of the wrong kind (``true`` or ``"0.05"`` for a number, a list for a scalar) fails
   naming it, and so does the notebook's own what-if check where it has one (values and cost
   bounds). A relative ``output_dir`` (or any ``*_dir``) is resolved against the caller's
   working directory. ``OUT.ipynb`` may not be the source notebook nor any notebook in its folder.
   ``--profile quick`` adds the quick profile's parameters (:mod:`paperlib.profiles`; given ``-p`` values win)
   and marks every ledger row of the run as the quick profile's.
2. The notebook writes into a staging folder next to ``output_dir``; only when the whole run
   succeeded is a ``.run-manifest.json`` (every file's sha256) written into it and the folder
   swapped in for ``output_dir``. An interrupted run leaves the previous set intact (or, killed
   mid-swap, no folder), never a mix; ``python -m paperlib.manifest check`` tells.
3. SIGINT and SIGTERM remove the staging folder and the temporary notebook; after SIGKILL the
   next run removes them. A failed run keeps ``<name>.failed.ipynb`` next to ``OUT.ipynb`` and
   prints the failing cell's source and traceback.

The kernel runs with the notebook's folder as working directory. It talks to the runner over Unix
sockets (ZeroMQ's IPC transport) in a private temporary folder, not over TCP on localhost: nothing
outside this machine's user can reach it, and the kernel has no reason to warn that it runs over TCP
without encryption.

The kernel is shut down without an interrupt (:class:`RunKernelManager`). jupyter_client begins every shutdown by
sending SIGINT to the kernel's process group, and papermill shuts the kernel down as soon as the reply to its last
request (a ``kernel_info`` after the last cell) arrives, while the kernel may still be inside that request's
handler, where SIGINT raises KeyboardInterrupt: on a loaded machine (papers side by side, at lower priority) the
kernel then logged "KeyboardInterrupt caught in kernel." The shutdown request alone lets it finish the handler and
exit; a kernel still busy (a run stopped by SIGTERM or Ctrl-C in a cell) is terminated after jupyter_client's wait.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import errno
import fcntl
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import yaml
from jupyter_client.manager import AsyncKernelManager

from paperlib import manifest, profiles
from paperlib.notebook_output import normalise_file
from paperlib.parameters import check as check_parameters
from paperlib.parameters import notebook_parameters, resolve_folder
from paperlib.validate import ParameterError

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
FIGURES = REPO / "figures"

class _Loader(yaml.SafeLoader):
    """YAML as papermill reads ``-p`` values, but ``1e12`` is a float (YAML 1.2), not the string YAML 1.1 makes."""


_Loader.add_implicit_resolver("tag:yaml.org,2002:float",
                              re.compile(r"^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+$"), list("-+0123456789."))


def parse_value(text: str):
    """Return a ``-p NAME VALUE`` value read as YAML (``0.05`` float, ``[1, 2]`` list, ``1e12`` float)."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 (a SafeLoader)


def normalise_executed(path: Path) -> None:
    """Normalise the executed notebook at ``path`` in place, before it is written out.

    Removes what changes from run to run (papermill's start/end times and durations, run paths,
    the injected cell's random id: :mod:`paperlib.notebook_output`), so two runs give
    byte-identical executed notebooks. It runs on the temporary copy, before the manifest is
    written and before the copy replaces the output.
    """
    normalise_file(path)


class RunKernelManager(AsyncKernelManager):
    """The kernel manager of a run: a shutdown asks the kernel to stop, without first interrupting it (SIGINT).

    Interrupting (:meth:`interrupt_kernel`) still sends SIGINT; only :meth:`shutdown_kernel` leaves it out (see the
    module docstring). A kernel that does not stop is terminated and then killed, as jupyter_client does.
    """

    _shutting_down_quietly = False

    async def _async_interrupt_kernel(self) -> None:
        if self._shutting_down_quietly:
            return  # the shutdown's interrupt: left out
        await super()._async_interrupt_kernel()

    async def _async_shutdown_kernel(self, now: bool = False, restart: bool = False) -> None:
        self._shutting_down_quietly = True
        try:
            await super()._async_shutdown_kernel(now=now, restart=restart)
        finally:
            self._shutting_down_quietly = False

    interrupt_kernel = _async_interrupt_kernel
    shutdown_kernel = _async_shutdown_kernel


def kernel_config(socket_dir: Path):
    """Return the traitlets configuration that has the kernel use IPC sockets named ``<socket_dir>/kernel-<port>``."""
    from traitlets.config import Config

    return Config({"KernelManager": {"transport": "ipc", "ip": str(Path(socket_dir) / "kernel")}})


def _check_output(notebook: Path, output: Path) -> None:
    """Refuse an executed-notebook path that would overwrite a source notebook."""
    if output.suffix != ".ipynb":
        raise ParameterError(f"output: {output} must end in .ipynb")
    if output == notebook:
        raise ParameterError(f"output: {output} is the source notebook; it would be overwritten")
    for folder in {notebook.parent, NOTEBOOKS}:
        if output.parent == folder:
            raise ParameterError(f"output: {output} is in {folder}, the source notebooks' folder; "
                                 f"write executed notebooks elsewhere (e.g. figures/executed/)")
    if output.is_dir():
        raise ParameterError(f"output: {output} is a folder")


def _default_output_dir(notebook: Path) -> Path:
    default = notebook_parameters(notebook).get("output_dir")
    if not isinstance(default, str):
        raise ParameterError(f"{notebook.name} has no output_dir parameter with a default; pass -p output_dir DIR")
    return resolve_folder("output_dir", default, cwd=notebook.parent)


def _as_seen_by(notebook: Path, path: Path) -> str:
    """Return ``path`` as the kernel should see it: relative to the notebook's folder inside the repository
    (so the executed notebook does not depend on where the repository is), absolute elsewhere."""
    try:
        path.relative_to(REPO)
    except ValueError:
        return str(path)
    return os.path.relpath(path, notebook.parent)


def _what_if_check(notebook: Path, params: dict) -> None:
    """Run the notebook's own parameter check (values and cost bounds) on the given parameters, if it has one.

    The check is ``paperlib.reproduce.p<id>.what_if.check``; it gets the values the notebook will run with
    (its parameters cell's defaults, replaced by ``params``), those of them it names.
    """
    prefix = notebook.name.split("_", 1)[0]
    if not prefix.isdigit():
        return
    from importlib import import_module

    package = f"paperlib.reproduce.p{prefix}"  # a paper package (the layout of paperlib.reproduce)
    try:
        check = import_module(f"{package}.what_if").check
    except ModuleNotFoundError as err:
        if err.name not in (package, f"{package}.what_if"):
            raise
        return
    import inspect

    from paperlib.parameters import notebook_parameters

    names = set(inspect.signature(check).parameters)
    values = {**notebook_parameters(notebook), **params}  # what the notebook will run with
    check(**{k: v for k, v in values.items() if k in names})


def _swap(staging: Path, target: Path) -> None:
    """Put ``staging`` in place of ``target``: an atomic exchange where the kernel has one (renameat2)."""
    if target.exists():
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = getattr(libc, "renameat2", None)
        if renameat2 is not None and renameat2(-100, os.fsencode(staging), -100, os.fsencode(target), 2) == 0:
            shutil.rmtree(staging)  # now holds the old outputs
            return
        old = target.with_name(f".{target.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.rename(target, old)
        os.rename(staging, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(staging, target)


def _check_replaceable(out_dir: Path, params: dict) -> None:
    """Refuse to replace a folder that holds files no run wrote (a user's folder given as output_dir),
    the repository or a folder holding another folder parameter (a cache inside the outputs)."""
    for name, value in params.items():
        if isinstance(value, Path) and _inside(value, out_dir) is not None:
            raise ParameterError(f"output_dir: {out_dir} holds {name} ({value}); the run replaces the whole "
                                 f"output folder, so put {name} elsewhere")
    if _inside(REPO, out_dir) is not None or out_dir == FIGURES:
        raise ParameterError(f"output_dir: {out_dir} would replace the repository or all of figures/")
    if not out_dir.exists() or not any(out_dir.iterdir()):
        return
    if (out_dir / manifest.NAME).exists():
        return
    if _inside(out_dir, FIGURES) is not None:
        return  # a paper's folder under figures/ is generated: a pre-manifest set is replaced
    raise ParameterError(f"output_dir: {out_dir} holds files not written by a run ({manifest.NAME} missing); "
                         f"the run replaces the whole folder, so give a new or empty folder")


@contextlib.contextmanager
def _terminate_as_exit():
    """Turn SIGTERM/SIGHUP into SystemExit so ``finally`` blocks clean up (SIGINT is KeyboardInterrupt)."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)

    previous = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            previous[sig] = signal.signal(sig, handler)
        except ValueError:  # not the main thread: leave the handlers alone
            pass
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextlib.contextmanager
def _lock(out_dir: Path):
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    fh = open(out_dir.parent / f".{out_dir.name}.lock", "w")
    try:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            if err.errno in (errno.EAGAIN, errno.EACCES):
                raise ParameterError(f"output_dir: another run is writing {out_dir} right now") from None
            raise
        yield
    finally:
        fh.close()


def _strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)


def failure_report(err: BaseException) -> str:
    """Return the failing cell's number, source and traceback of a papermill error (or the error itself)."""
    source = getattr(err, "source", None)
    if source is None:
        return f"{type(err).__name__}: {err}"
    tb = "\n".join(_strip_ansi(line) for line in (getattr(err, "traceback", None) or []))
    return (f"cell {getattr(err, 'cell_index', '?')} (execution count {getattr(err, 'exec_count', '?')}) failed:\n"
            f"---- source ----\n{source}\n---- traceback ----\n{tb or f'{err.ename}: {err.evalue}'}\n")


@contextlib.contextmanager
def _profile_environment(profile: str | None):
    """Set :data:`paperlib.profiles.ENV` to ``profile`` (unset it for None) while the kernel starts and runs."""
    before = os.environ.get(profiles.ENV)
    if profile:
        os.environ[profiles.ENV] = profile
    else:
        os.environ.pop(profiles.ENV, None)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(profiles.ENV, None)
        else:
            os.environ[profiles.ENV] = before


def run(notebook: Path, output: Path, parameters: dict | None = None, *, cwd: Path | str | None = None,
        profile: str | None = None) -> Path:
    """Execute ``notebook`` with ``parameters`` into ``output``; its outputs replace ``output_dir`` as a set.

    ``profile`` (``"quick"``, :mod:`paperlib.profiles`) adds that profile's parameters for the notebook (those
    in ``parameters`` win) and runs the kernel with :data:`paperlib.profiles.ENV` set to it, so every ledger row
    and provenance stamp of the run names the profile; None runs it without (the variable unset).

    Raises :class:`ParameterError` (before anything is run or written) for a bad parameter or
    output path; papermill's ``PapermillExecutionError`` if a cell fails (the executed notebook is
    then kept as ``<output stem>.failed.ipynb``).
    """
    import papermill as pm

    notebook = Path(notebook).resolve()
    output = (Path(cwd or os.getcwd()) / Path(output).expanduser()).resolve()
    _check_output(notebook, output)
    if profile is not None:
        parameters = {**profiles.parameters(profile, notebook), **(parameters or {})}
    params = check_parameters(notebook, dict(parameters or {}), cwd)
    _what_if_check(notebook, params)
    out_dir = params.pop("output_dir", None) or _default_output_dir(notebook)
    resolve_folder("output", output.parent)
    _check_replaceable(out_dir, params)
    for name, value in params.items():
        if isinstance(value, Path):
            params[name] = _as_seen_by(notebook, value)
    failed = output.with_name(f"{output.stem}.failed.ipynb")
    staging = out_dir.with_name(f".{out_dir.name}.staging")
    with _terminate_as_exit(), _lock(out_dir):
        shutil.rmtree(staging, ignore_errors=True)  # left by a killed run
        shutil.rmtree(out_dir.with_name(f".{out_dir.name}.old"), ignore_errors=True)
        for stale in output.parent.glob(f".{output.name}.*.ipynb"):
            stale.unlink(missing_ok=True)
        output.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".ipynb", dir=output.parent)
        os.close(fd)
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would stay with the executed notebook; the other outputs are 0644
        tmp = Path(tmp)
        try:
            staging.mkdir(parents=True)
            try:
                with tempfile.TemporaryDirectory(prefix="webperf-kernel-") as sockets, _profile_environment(profile):
                    pm.execute_notebook(
                        str(notebook), str(tmp),
                        parameters={**params, "output_dir": _as_seen_by(notebook, staging)},
                        cwd=str(notebook.parent), progress_bar=False, kernel_name="python3",
                        config=kernel_config(Path(sockets)), kernel_manager_class=RunKernelManager,
                    )
            except pm.PapermillExecutionError:
                if tmp.exists():
                    os.replace(tmp, failed)
                raise
            normalise_executed(tmp)
            _note_staging(tmp, notebook, staging, out_dir)
            inside = _inside(output, out_dir)
            if inside is not None:  # the executed notebook is one of the set
                (staging / inside).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(tmp, staging / inside)
            rel = _inside(notebook, REPO)
            manifest.write(staging, notebook=str(notebook) if rel is None else rel.as_posix(),
                           parameters={k: v for k, v in sorted((parameters or {}).items()) if k != "output_dir"})
            _swap(staging, out_dir)
            if inside is None:
                os.replace(tmp, output)
            failed.unlink(missing_ok=True)
        finally:
            tmp.unlink(missing_ok=True)
            shutil.rmtree(staging, ignore_errors=True)
    return output


def _inside(path: Path, folder: Path) -> Path | None:
    try:
        return path.relative_to(folder)
    except ValueError:
        return None


def _note_staging(path: Path, notebook: Path, staging: Path, out_dir: Path) -> None:
    """Show the real output folder in the executed notebook's injected-parameters cell (it ran on the staging one)."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    seen, real = repr(_as_seen_by(notebook, staging)), repr(_as_seen_by(notebook, out_dir))
    for cell in nb.cells:
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            cell.source = cell.source.replace(
                f"output_dir = {seen.replace(chr(39), chr(34))}",
                f"output_dir = {real.replace(chr(39), chr(34))}  # written to {seen} first, swapped in on success")
    recorded = nb.metadata.get("papermill", {}).get("parameters", {})
    if "output_dir" in recorded:  # papermill's record of the run's parameters: the real folder too
        recorded["output_dir"] = _as_seen_by(notebook, out_dir)
    nbformat.write(nb, str(path))


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``python -m paperlib.run_notebook NOTEBOOK OUTPUT -p NAME VALUE``; return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m paperlib.run_notebook", description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument(
        "-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
        help="a notebook parameter; VALUE is read as YAML (0.05 -> float, [1, 2] -> list, 1e12 -> float)",
    )
    parser.add_argument("--profile", choices=sorted(profiles.PROFILES),
                        help="run with this profile's parameters (given -p values win); its ledger rows name it")
    args = parser.parse_args(argv)
    try:
        params = {name: parse_value(value) for name, value in args.parameter}
    except yaml.YAMLError as err:
        sys.stderr.write(f"{args.notebook}: parameter value is not valid YAML: {err}\n")
        return 2
    try:
        run(args.notebook, args.output, params, profile=args.profile)
    except ParameterError as err:
        sys.stderr.write(f"{args.notebook}: bad parameter: {err}\n")
        return 2
    except Exception as err:  # papermill's PapermillExecutionError carries the cell's source and traceback
        failed = Path(args.output).with_name(f"{Path(args.output).stem}.failed.ipynb")
        sys.stderr.write(f"{args.notebook}: execution failed; {failure_report(err)}")
        if failed.exists():
            sys.stderr.write(f"executed notebook kept as {failed}\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
