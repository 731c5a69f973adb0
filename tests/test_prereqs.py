"""tools/prereqs.sh, the one script that checks (and as root on Debian/Ubuntu installs) what the operating system
must provide, and make reproduce / make test, which run it before any work.

Each prerequisite is made to look missing without uninstalling anything: the script runs with a PATH of
symlinks and stubs that lacks the command, or with its test hooks (PREREQS_FAKE_UID, PREREQS_USRSCTP_H,
PREREQS_TUN, PREREQS_NETNS, PREREQS_OS_RELEASE, PREREQS_PLATFORM; see the script's header). apt-get and snap
are stubs that record their arguments and "install" a package by creating its command or header, so the
install path runs for real without touching the machine.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "tools" / "prereqs.sh"

#: The commands the script checks, by the Debian package that provides each (as the script's checks say).
CHECKED = {"g++": "g++", "git": "git", "make": "make", "ip": "iproute2", "gcc": "gcc", "tcpdump": "tcpdump",
           "nghttpd": "nghttp2-server", "nghttp": "nghttp2-client", "gtlsserver": "ngtcp2-server",
           "gtlsclient": "ngtcp2-client", "chromium": "chromium"}
#: The system tools the script itself uses.
TOOLS = ("tr", "sed", "awk", "uname", "mktemp", "tail", "head", "rm", "id")

STUB_APT = r"""#!/bin/bash
# records its arguments; `install` creates what each package provides (in this folder, or the header hook)
echo "$*" >> "${0%/*}/apt-get.calls"
[[ -n ${STUB_APT_FAIL:-} ]] && { echo "E: Unable to locate package $STUB_APT_FAIL"; exit 100; }
echo "debconf: delaying package configuration, since apt-utils is not installed" >&2
[[ $1 == install && -z ${STUB_APT_NOOP:-} ]] || exit 0
for p in "$@"; do
  case $p in
    iproute2) printf '#!/bin/sh\n' > "${0%/*}/ip"; CHMOD +x "${0%/*}/ip" ;;
    libusrsctp-dev) : > "$PREREQS_USRSCTP_H" ;;
    chromium-driver|install|-y|--no-install-recommends) ;;
    *) printf '#!/bin/sh\n' > "${0%/*}/$p"; CHMOD +x "${0%/*}/$p" ;;
  esac
done
"""

STUB_SNAP = r"""#!/bin/bash
echo "$*" >> "${0%/*}/snap.calls"
[[ $1 == install ]] && printf '#!/bin/sh\n' > "${0%/*}/$2" && CHMOD +x "${0%/*}/$2"
"""


def _stub(path: Path, text: str = "#!/bin/sh\n") -> None:
    path.write_text(text.replace("CHMOD", shutil.which("chmod")))
    path.chmod(0o755)


def toolbox(tmp_path: Path, missing=(), apt=True, snap=False) -> Path:
    """Return a folder to be the whole PATH: the script's tools, python3 (this interpreter), a stub for each
    checked command except ``missing``, and the apt-get/snap stubs if asked for."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name in TOOLS:
        (bindir / name).symlink_to(shutil.which(name))
    (bindir / "python3").symlink_to(sys.executable)
    for name in CHECKED:
        if name not in missing:
            _stub(bindir / name)
    if apt:
        _stub(bindir / "apt-get", STUB_APT)
    if snap:
        _stub(bindir / "snap", STUB_SNAP)
    return bindir


def hooks(tmp_path: Path, uid=0, header=True, tun=True, netns="yes", os_id="debian") -> dict:
    """Return the test hooks of a machine as given: user id, usrsctp.h, /dev/net/tun, namespaces, distribution."""
    header_path, tun_path, os_release = tmp_path / "usrsctp.h", tmp_path / "tun", tmp_path / "os-release"
    if header:
        header_path.touch()
    if tun:
        tun_path.touch()
    os_release.write_text(f'PRETTY_NAME="x"\nID={os_id}\n')
    return {"PREREQS_FAKE_UID": str(uid), "PREREQS_USRSCTP_H": str(header_path), "PREREQS_TUN": str(tun_path),
            "PREREQS_NETNS": netns, "PREREQS_OS_RELEASE": str(os_release), "PREREQS_PLATFORM": "Linux-x86_64",
            # tmp_path is under pytest's folder, whose name holds "test": check a path as a user's would be
            "PREREQS_VENV_PATH": "/home/user/webperf-repro/.venv"}


def run_script(bindir: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    """Run tools/prereqs.sh with PATH = ``bindir`` only and the given hooks."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PREREQS_")}
    environ["TMPDIR"] = str(bindir.parent)  # a failed install's log stays inside the test's folder
    return subprocess.run(["/bin/bash", str(SCRIPT), *args], env={**environ, **env, "PATH": str(bindir)},
                          capture_output=True, text=True, timeout=60)


def calls(bindir: Path, tool: str = "apt-get") -> list[str]:
    log = bindir / f"{tool}.calls"
    return log.read_text().splitlines() if log.exists() else []


# --- the check --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("purpose", ["venv", "reproduce", "test"])
def test_everything_present_passes_silently(tmp_path, purpose):
    bindir = toolbox(tmp_path)
    proc = run_script(bindir, hooks(tmp_path), "--install", "--for", purpose)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert calls(bindir) == []  # nothing missing: apt-get is not even updated


@pytest.mark.parametrize("hide, package, purpose", [
    ("tcpdump", "tcpdump", "reproduce"), ("gcc", "gcc", "reproduce"), ("ip", "iproute2", "test"),
    ("header", "libusrsctp-dev", "reproduce"), ("header", "libusrsctp-dev", "test"),
    ("nghttpd", "nghttp2-server", "reproduce"), ("gtlsclient", "ngtcp2-client", "test"),
])
def test_missing_testbed_package_not_root_names_it_the_command_and_the_opt_out(tmp_path, hide, package, purpose):
    bindir = toolbox(tmp_path, missing=(hide,))
    proc = run_script(bindir, hooks(tmp_path, uid=1000, header=hide != "header"), "--install", "--for", purpose)
    assert proc.returncode == 1 and proc.stdout == ""
    assert f"error: make {purpose} needs these packages, which are missing:\n  - {package} (" in proc.stderr
    # not root: make itself installs them as root, and runs the real-stack runs that need root anyway
    assert f"\n    sudo make {purpose}\n" in proc.stderr
    assert f"make {purpose} EMULATION=off (the ledger then says the real-stack column was not run, by choice)" \
        in proc.stderr
    assert "BROWSER_TEST=off" not in proc.stderr  # the browser is not what is missing
    assert calls(bindir) == []  # not root: nothing installed


def test_missing_base_package_as_root_without_install_names_the_apt_command(tmp_path):
    bindir = toolbox(tmp_path, missing=("g++", "tcpdump"))
    proc = run_script(bindir, hooks(tmp_path), "--for", "reproduce")
    assert proc.returncode == 1
    assert "  - g++ (ns-3's cppyy JIT" in proc.stderr and "  - tcpdump (" in proc.stderr
    assert "\n    apt-get update && apt-get install -y g++ tcpdump\n" in proc.stderr
    assert calls(bindir) == []  # without --install it only checks


def test_missing_browser_not_root_names_sudo_apt_and_browser_opt_out(tmp_path):
    bindir = toolbox(tmp_path, missing=("chromium",))
    proc = run_script(bindir, hooks(tmp_path, uid=1000), "--install", "--for", "test", "--emulation", "off")
    assert proc.returncode == 1
    assert "  - chromium (the browser tests of the report and JupyterLab drive headless Chromium)" in proc.stderr
    assert "\n    sudo apt-get update && sudo apt-get install -y chromium\n" in proc.stderr
    assert "make test BROWSER_TEST=off (skips the browser tests)" in proc.stderr
    assert "EMULATION=off" not in proc.stderr  # already off; the testbed is not the trouble


def test_no_apt_names_the_packages_for_another_package_manager(tmp_path):
    bindir = toolbox(tmp_path, missing=("tcpdump",), apt=False)
    proc = run_script(bindir, hooks(tmp_path, header=False), "--install", "--for", "reproduce")
    assert proc.returncode == 1
    assert "No apt-get here: install the equivalents of tcpdump libusrsctp-dev with this system's package " \
        "manager." in proc.stderr
    assert "EMULATION=off" in proc.stderr


def test_no_apt_hook_hides_an_existing_apt_get(tmp_path):
    bindir = toolbox(tmp_path, missing=("tcpdump",))
    proc = run_script(bindir, {**hooks(tmp_path), "PREREQS_NO_APT": "1"}, "--install", "--for", "reproduce")
    assert proc.returncode == 1 and "No apt-get here" in proc.stderr and calls(bindir) == []


@pytest.mark.parametrize("machine, message", [
    ({"uid": 1000}, "need root (network namespaces, TUN devices):\n    sudo make reproduce"),
    ({"tun": False}, "need the TUN device /dev/net/tun"),
    ({"netns": "no"}, "need network namespaces, which cannot be"),
])
def test_testbed_machine_trouble_stops_reproduce_unless_opted_out(tmp_path, machine, message):
    bindir = toolbox(tmp_path)
    proc = run_script(bindir, hooks(tmp_path, **machine), "--install", "--for", "reproduce")
    assert proc.returncode == 1 and message in proc.stderr
    assert "make reproduce EMULATION=off" in proc.stderr
    opted_out = run_script(bindir, hooks(tmp_path, **machine), "--install", "--for", "reproduce",
                           "--emulation", "off")
    assert (opted_out.returncode, opted_out.stderr) == (0, "")
    # the package itself (make venv) never needs the testbed
    assert run_script(bindir, hooks(tmp_path, **machine), "--for", "venv").returncode == 0


def test_opt_outs_drop_what_they_opt_out_of(tmp_path):
    bindir = toolbox(tmp_path, missing=("tcpdump", "chromium"))
    env = hooks(tmp_path, uid=1000, header=False, tun=False, netns="no")
    assert run_script(bindir, env, "--for", "reproduce", "--emulation", "off").returncode == 0
    assert run_script(bindir, env, "--for", "test", "--emulation", "off", "--browser", "off").returncode == 0
    only_browser_on = run_script(bindir, env, "--for", "test", "--emulation", "off")
    assert only_browser_on.returncode == 1 and "chromium" in only_browser_on.stderr
    assert "tcpdump" not in only_browser_on.stderr


def test_other_platforms_stop_naming_the_supported_one(tmp_path):
    bindir = toolbox(tmp_path)
    proc = run_script(bindir, {**hooks(tmp_path), "PREREQS_PLATFORM": "Linux-aarch64"}, "--for", "venv")
    assert proc.returncode == 1
    assert "this machine is Linux-aarch64; the package runs on Linux x86-64 only" in proc.stderr
    assert "ns3==3.44.post0" in proc.stderr


@pytest.mark.parametrize("args, name", [(["--emulation", "tiny"], "EMULATION"), (["--browser", "no"], "BROWSER_TEST"),
                                        (["--for", "lab"], "--for"), (["--bogus"], "--bogus"), (["--for"], "--for")])
def test_bad_arguments_exit_2_naming_them(tmp_path, args, name):
    proc = run_script(toolbox(tmp_path), hooks(tmp_path), *args)
    assert proc.returncode == 2 and name in proc.stderr


def test_missing_python_is_named(tmp_path):
    bindir = toolbox(tmp_path)
    (bindir / "python3").unlink()
    # a version by its Debian name: its packages
    proc = run_script(bindir, hooks(tmp_path), "--for", "venv", "--python", "python3.12")
    assert proc.returncode == 1
    assert "  - python3.12 (Python 3.11-3.13)\n" in proc.stderr
    assert "apt-get install -y python3.12 python3.12-venv python3.12-dev\n" in proc.stderr
    # a path: no package to name, the versions to install and how to point make at one
    proc = run_script(bindir, hooks(tmp_path), "--for", "venv", "--python", "/opt/py/bin/python3.12")
    assert proc.returncode == 1
    assert "'/opt/py/bin/python3.12' not found" in proc.stderr and "Install Python 3.11-3.13" in proc.stderr


def test_too_old_python_is_named(tmp_path):
    fake = tmp_path / "old-python"
    # runs and answers like Python 3.9 with venv and Python.h, so only the version check (exit 1) fails
    _stub(fake, "#!/bin/bash\nif [[ $1 == -V ]]; then echo 'Python 3.9.2'; exit 0; fi\n"
                "case $2 in 'import sys'|*'import venv'*|*Python.h*) exit 0 ;; *'python%d.%d'*) echo python3.9 ;; "
                "esac\nexit 1\n")
    proc = run_script(toolbox(tmp_path), hooks(tmp_path), "--for", "venv", "--python", str(fake))
    assert proc.returncode == 1
    assert "Python 3.9.2" in proc.stderr and "not supported" in proc.stderr


def test_a_python_that_does_not_run_is_named(tmp_path):
    shim = tmp_path / "python3.13"
    _stub(shim, "#!/bin/sh\necho 'pyenv: python3.13: command not found' >&2\nexit 127\n")
    proc = run_script(toolbox(tmp_path), hooks(tmp_path), "--for", "venv", "--python", str(shim))
    assert proc.returncode == 1 and "needs these packages" not in proc.stderr
    assert f"error: '{shim}' ({shim}) does not run: pyenv: python3.13: command not found" in proc.stderr


def test_another_python_version_is_named_by_its_own_packages(tmp_path):
    fake = tmp_path / "py"
    # runs, says it is 3.11, has Python.h but no venv module: Debian's python3.11-venv is what is missing
    _stub(fake, "#!/bin/bash\ncase $2 in *'import venv'*) exit 1 ;; *'python%d.%d'*) echo python3.11 ;; esac\n")
    proc = run_script(toolbox(tmp_path), hooks(tmp_path), "--for", "venv", "--python", str(fake))
    assert proc.returncode == 1
    assert f"  - python3.11-venv (the venv/ensurepip modules of {fake})" in proc.stderr
    assert "apt-get install -y python3.11-venv\n" in proc.stderr


def test_install_brings_a_named_python_version(tmp_path):
    # make PYTHON=python3.11 on a machine without it (Ubuntu 22.04's python3 is 3.10): its three packages
    bindir = toolbox(tmp_path)
    proc = run_script(bindir, hooks(tmp_path), "--install", "--for", "venv", "--python", "python3.11")
    assert proc.returncode == 0, proc.stderr
    assert calls(bindir) == ["update", "install -y --no-install-recommends python3.11 python3.11-venv python3.11-dev"]


# --- the install path (root, apt-get) ---------------------------------------------------------------------

def test_install_installs_exactly_the_missing_packages_and_says_so(tmp_path):
    bindir = toolbox(tmp_path, missing=("tcpdump", "chromium"))
    env = hooks(tmp_path, header=False)
    proc = run_script(bindir, env, "--install", "--for", "test")
    assert proc.returncode == 0, proc.stderr
    assert calls(bindir) == ["update", "install -y --no-install-recommends tcpdump libusrsctp-dev chromium "
                                       "chromium-driver"]
    assert proc.stdout == (
        "installing what make test needs (apt-get, as root):\n"
        "  - tcpdump (packet-capture cross-check of the emulated runs)\n"
        "  - libusrsctp-dev (usrsctp, the SCTP stack of the emulated runs)\n"
        "  - chromium (the browser tests of the report and JupyterLab drive headless Chromium)\n"
        "installed: tcpdump libusrsctp-dev chromium\n")
    # apt-get's own chatter (the stub prints debconf's note) goes to a log, removed after success
    assert proc.stderr == "" and "debconf" not in proc.stdout
    assert Path(env["PREREQS_USRSCTP_H"]).exists() and (bindir / "tcpdump").exists()
    # now present: a second run installs nothing
    again = run_script(bindir, env, "--install", "--for", "test")
    assert (again.returncode, again.stdout) == (0, "") and len(calls(bindir)) == 2


def test_install_only_what_the_purpose_needs(tmp_path):
    # reproduce with EMULATION=off needs neither the testbed nor the browser: only the missing g++
    bindir = toolbox(tmp_path, missing=("g++", "tcpdump", "chromium"))
    proc = run_script(bindir, hooks(tmp_path, header=False), "--install", "--for", "reproduce", "--emulation", "off")
    assert proc.returncode == 0
    assert calls(bindir) == ["update", "install -y --no-install-recommends g++"]


def test_failed_install_shows_apt_output_and_its_log(tmp_path):
    bindir = toolbox(tmp_path, missing=("tcpdump",))
    env = {**hooks(tmp_path), "STUB_APT_FAIL": "tcpdump", "TMPDIR": str(tmp_path)}
    proc = run_script(bindir, env, "--install", "--for", "reproduce")
    assert proc.returncode == 1
    assert "error: installing tcpdump failed; the last lines of its output:" in proc.stderr
    assert "    E: Unable to locate package tcpdump" in proc.stderr
    (log,) = tmp_path.glob("webperf-prereqs.*")
    assert f"(all of it: {log})" in proc.stderr
    # and the package is still named as missing, with the command to install it
    assert "  - tcpdump (" in proc.stderr and "apt-get install -y tcpdump" in proc.stderr


def test_an_install_that_provides_nothing_is_caught_by_the_second_check(tmp_path):
    # apt-get exits 0 but tcpdump is still not on PATH (e.g. another PATH): named, not taken on trust
    bindir = toolbox(tmp_path, missing=("tcpdump",))
    proc = run_script(bindir, {**hooks(tmp_path), "STUB_APT_NOOP": "1"}, "--install", "--for", "reproduce")
    assert proc.returncode == 1 and "installed:" not in proc.stdout
    assert "error: the installer succeeded, but these are still missing: tcpdump" in proc.stderr


def test_successful_install_leaves_no_log(tmp_path):
    bindir = toolbox(tmp_path, missing=("tcpdump",))
    proc = run_script(bindir, {**hooks(tmp_path), "TMPDIR": str(tmp_path)}, "--install", "--for", "reproduce")
    assert proc.returncode == 0 and list(tmp_path.glob("webperf-prereqs.*")) == []


def test_ubuntu_gets_chromium_from_snap_not_apt(tmp_path):
    bindir = toolbox(tmp_path, missing=("chromium", "tcpdump"), snap=True)
    proc = run_script(bindir, hooks(tmp_path, os_id="ubuntu"), "--install", "--for", "test")
    assert proc.returncode == 0, proc.stderr
    assert calls(bindir) == ["update", "install -y --no-install-recommends tcpdump"]
    assert calls(bindir, "snap") == ["install chromium"]
    assert "installing what make test needs (apt-get, snap, as root):" in proc.stdout


def test_ubuntu_without_snapd_names_snap_and_the_browser_opt_out(tmp_path):
    bindir = toolbox(tmp_path, missing=("chromium",))
    proc = run_script(bindir, hooks(tmp_path, uid=1000, os_id="ubuntu"), "--install", "--for", "test",
                      "--emulation", "off")
    assert proc.returncode == 1
    assert "Ubuntu ships it as a snap: snap install chromium" in proc.stderr
    assert "\n    sudo snap install chromium\n" in proc.stderr and "BROWSER_TEST=off" in proc.stderr


def test_script_is_bash_clean_and_shellcheck_clean():
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (Debian: apt-get install shellcheck)")
    for script in (SCRIPT, REPO / "tools" / "bootstrap.sh", REPO / ".ci" / "run"):
        proc = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout


# --- make reproduce and make test: the check comes first ----------------------------------------------------

#: What make's rules read: a copy of these is enough to run make reproduce/test up to the first notebook.
COPIED = ("Makefile", "tools", "paperlib", "notebooks", "data", "requirements.lock", "pyproject.toml")


@pytest.fixture
def checkout(tmp_path) -> Path:
    """Return a copy of the repository's make inputs, with figures/ holding only its .gitignore."""
    repo = tmp_path / "repo"
    repo.mkdir()
    for name in COPIED:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, repo / name)
    (repo / "figures").mkdir()
    (repo / "figures" / ".gitignore").write_text("*\n!.gitignore\n")
    return repo


def make_toolbox(tmp_path: Path, missing=()) -> Path:
    """Return a PATH folder for make: every command of this PATH except ``missing`` (symlinks), plus stubs for
    the checked commands this machine lacks (so only ``missing`` looks missing), and no apt-get."""
    bindir = tmp_path / "makebin"
    bindir.mkdir()
    for folder in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for entry in os.scandir(folder):
            target = bindir / entry.name
            if entry.name in missing or entry.name == "apt-get" or target.exists() or target.is_symlink():
                continue
            if os.access(entry.path, os.X_OK) and not entry.is_dir():
                target.symlink_to(entry.path)
    for name in CHECKED:
        if name not in missing and not (bindir / name).exists():
            _stub(bindir / name)
    (bindir / "python3").unlink(missing_ok=True)
    (bindir / "python3").symlink_to(sys.executable)
    return bindir


def fake_venv(tmp_path: Path) -> Path:
    """Return a virtual environment folder that make takes as built (its stamp newer than the lock) whose
    python and ruff only record that they were called, then fail: how far make got, without any real work."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    for name in ("python", "ruff"):
        _stub(venv / "bin" / name, f'#!/bin/sh\necho "{name} $*" >> "{venv}/calls"\nexit 3\n')
    (venv / ".installed").touch()
    return venv


def run_make(checkout: Path, bindir: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    # this make alone: nothing from an outer make (make test runs pytest) or the caller's settings leaks in
    outer = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "EMULATION", "BROWSER_TEST", "PROFILE", "VENV", "PYTHON")
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PREREQS_") and k not in outer}
    return subprocess.run([shutil.which("make"), "-C", str(checkout), *args],
                          env={**environ, **env, "PATH": str(bindir)}, capture_output=True, text=True, timeout=300)


def written(checkout: Path) -> list[str]:
    return sorted(str(p.relative_to(checkout)) for p in (checkout / "figures").rglob("*") if p.name != ".gitignore")


@pytest.mark.parametrize("target, hide, package, args", [
    ("reproduce", "tcpdump", "tcpdump", ()),
    ("test", "tcpdump", "tcpdump", ()),
    ("test", "chromium", "chromium", ("EMULATION=off",)),
])
def test_make_stops_before_any_venv_or_notebook_when_a_package_is_missing(tmp_path, checkout, target, hide,
                                                                            package, args):
    bindir = make_toolbox(tmp_path, missing=(hide,))
    venv = tmp_path / "no-venv-yet"
    proc = run_make(checkout, bindir, hooks(tmp_path, uid=1000), target, f"VENV={venv}", *args)
    assert proc.returncode != 0
    assert f"error: make {target} needs these packages, which are missing:\n  - {package} (" in proc.stderr
    assert "=off" in proc.stderr  # the opt-out that would let it run
    assert not venv.exists() and written(checkout) == []
    assert "creating" not in proc.stdout and "run_notebook" not in proc.stdout


def test_make_reproduce_not_root_stops_and_says_sudo(tmp_path, checkout):
    bindir = make_toolbox(tmp_path)
    venv = tmp_path / "no-venv-yet"
    proc = run_make(checkout, bindir, hooks(tmp_path, uid=1000), "reproduce", f"VENV={venv}")
    assert proc.returncode != 0 and "sudo make reproduce" in proc.stderr and "EMULATION=off" in proc.stderr
    assert not venv.exists() and written(checkout) == []


def test_make_reproduce_with_emulation_off_passes_the_check(tmp_path, checkout):
    # tcpdump missing, not root: the testbed cannot run, but EMULATION=off opts out of it, so make goes on
    # to the first output (the fake venv's python records the call and stops the run there)
    bindir = make_toolbox(tmp_path, missing=("tcpdump",))
    venv = fake_venv(tmp_path)
    proc = run_make(checkout, bindir, hooks(tmp_path, uid=1000), "reproduce", f"VENV={venv}", "EMULATION=off")
    assert "needs these packages" not in proc.stderr and "error: the real-stack" not in proc.stderr
    # make reproduce runs its outputs side by side (make -j): the data check starts first
    assert (venv / "calls").read_text().splitlines()[0] == "python -m paperlib.data --report figures/data-check.md"


def test_make_test_with_both_opt_outs_passes_the_check(tmp_path, checkout):
    bindir = make_toolbox(tmp_path, missing=("tcpdump", "chromium"))
    venv = fake_venv(tmp_path)
    proc = run_make(checkout, bindir, hooks(tmp_path, uid=1000), "test", f"VENV={venv}", "EMULATION=off",
                    "BROWSER_TEST=off")
    assert "needs these packages" not in proc.stderr
    assert (venv / "calls").read_text().splitlines() == ["ruff check ."]


def test_a_change_of_emulation_reruns_the_notebook_and_only_then(tmp_path, checkout):
    bindir = make_toolbox(tmp_path)
    venv = fake_venv(tmp_path)
    # the notebook runner, replaced: records its arguments and writes the partial ledger the rule makes
    runner = tmp_path / "run-notebook"
    _stub(runner, f'#!/bin/bash\necho "$*" >> "{tmp_path}/runs"\n'
                  'mkdir -p figures/004 && touch figures/004/ledger.csv\n')
    # RUN_PAPER= : the runner directly, without the progress wrapper (which the fake venv's python would be)
    target = ["figures/004/ledger.csv", f"VENV={venv}", f"RUN_NOTEBOOK={runner}", "RUN_PAPER="]

    def runs_after(*args):
        proc = run_make(checkout, bindir, hooks(tmp_path), *target, *args)  # the paper's rule checks the system first
        assert proc.returncode == 0, proc.stderr
        log = tmp_path / "runs"
        return log.read_text().splitlines() if log.exists() else []

    first = runs_after("EMULATION=off")
    # the notebook gets "off" in double quotes: papermill reads -p values as YAML, where a bare off is False
    assert len(first) == 1 and first[0].endswith('-p emulation "off"')
    assert runs_after("EMULATION=off") == first  # up to date: not rerun
    third = runs_after("EMULATION=reduced")
    assert len(third) == 2 and third[1].endswith('-p emulation "reduced"')
    assert (checkout / ".cache" / "emulation-profile").read_text() == "reduced\n"


def test_make_help_and_dry_runs_write_no_emulation_stamp(tmp_path, checkout):
    bindir = make_toolbox(tmp_path)
    for args in (["help", "EMULATION=off"], ["-n", "reproduce", "EMULATION=off"], ["-n", "test", "EMULATION=full"]):
        proc = run_make(checkout, bindir, {}, *args, f"VENV={tmp_path / 'venv'}")
        assert proc.returncode == 0, proc.stderr
    assert not (checkout / ".cache").exists() and written(checkout) == []


@pytest.mark.parametrize("setting, message", [("EMULATION=", "EMULATION must be reduced, full or off, not ''"),
                                              ("EMULATION=tiny", "not 'tiny'"),
                                              ("BROWSER_TEST=maybe", "BROWSER_TEST must be on or off")])
def test_make_rejects_a_bad_setting_before_anything(tmp_path, checkout, setting, message):
    venv = tmp_path / "no-venv-yet"
    proc = run_make(checkout, make_toolbox(tmp_path), hooks(tmp_path), "test", f"VENV={venv}", setting)
    assert proc.returncode != 0 and message in proc.stderr
    assert not venv.exists() and written(checkout) == []


@pytest.mark.parametrize("venv, stops", [
    ("/home/user/webperf-repro/.venv", False),
    ("/home/user/tests/webperf-repro/.venv", True),    # a parent folder named tests
    ("/srv/contest/webperf-repro/.venv", True),        # "test" inside a longer name counts too
])
def test_a_venv_with_test_in_its_path_is_refused_before_anything(tmp_path, venv, stops):
    # ns-3's loader filters its libraries with `"test" not in path`: from such a venv it finds none
    bindir = toolbox(tmp_path)
    proc = run_script(bindir, {**hooks(tmp_path), "PREREQS_VENV_PATH": venv}, "--for", "venv")
    if stops:
        assert proc.returncode == 1
        assert f"the virtual environment {venv} has \"test\" in its path" in proc.stderr
        assert "make VENV=/path/to/venv" in proc.stderr
    else:
        assert (proc.returncode, proc.stderr) == (0, "")
