#!/usr/bin/env bash
# The one place that knows what the package needs from the operating system, checks it before any work
# starts, and installs what is missing from Debian/Ubuntu's packages when it may (root, apt-get).
#
# Usage: tools/prereqs.sh [--install] [--for reproduce|test|venv] [--emulation reduced|full|off]
#                         [--browser on|off] [--python PYTHON]
#   --install     install missing Debian packages with apt-get (needs root); without it, only check
#   --for         what is about to run: `venv` (the package itself), `reproduce` (adds the emulated
#                 testbed of papers 000/002/004), `test` (adds the testbed and the report's browser test)
#   --emulation   off: the real-stack runs are not wanted (their packages and root are not required)
#   --browser     off: the report's browser test is not wanted (chromium is not required)
# Exit status 0 when everything needed is present (after installing it), 1 otherwise, naming each missing
# prerequisite, the one command that installs it, and the opt-outs.
# Used by make (reproduce, test, venv) and by .ci/run.
set -u
install=no
purpose=venv
emulation=reduced
browser=on
py=python3
while (($#)); do
  case $1 in
    --install) install=yes ;;
    --for) purpose=$2; shift ;;
    --emulation) emulation=$2; shift ;;
    --browser) browser=$2; shift ;;
    --python) py=$2; shift ;;
    *) echo "tools/prereqs.sh: unknown argument '$1' (see the usage at the top of the script)" >&2; exit 2 ;;
  esac
  shift
done
case $purpose in venv|reproduce|test) ;; *)
  echo "tools/prereqs.sh: --for must be venv, reproduce or test, not '$purpose'" >&2; exit 2 ;; esac
case $emulation in reduced|full|off) ;; *)
  echo "error: EMULATION must be reduced, full or off, not '$emulation'" >&2; exit 2 ;; esac
case $browser in on|off) ;; *)
  echo "error: BROWSER_TEST must be on or off, not '$browser'" >&2; exit 2 ;; esac

# Each check prints the Debian package that provides what is missing, or nothing.
need_python() {
  if ! command -v "$py" >/dev/null 2>&1; then
    [[ $py == python3 ]] && echo "python3 python3-venv python3-dev"
    return
  fi
  "$py" -c 'import venv, ensurepip' 2>/dev/null || echo python3-venv
  "$py" -c 'import os, sysconfig, sys; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)' \
    2>/dev/null || echo python3-dev
}
need_base() {
  command -v g++ >/dev/null 2>&1 || echo g++
  command -v git >/dev/null 2>&1 || echo git
  command -v make >/dev/null 2>&1 || echo make
}
need_testbed() {
  command -v ip >/dev/null 2>&1 || echo iproute2
  command -v gcc >/dev/null 2>&1 || echo gcc
  command -v tcpdump >/dev/null 2>&1 || echo tcpdump
  [ -e "${PREREQS_USRSCTP_H:-/usr/include/usrsctp.h}" ] || echo libusrsctp-dev
}
need_browser() {
  { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; } || echo chromium
}
why() {
  case $1 in
    python3) echo "Python 3.11-3.13" ;;
    python3-venv) echo "the venv/ensurepip modules of $py" ;;
    python3-dev) echo "Python.h: ns-3's cppyy JIT compiles against it" ;;
    g++) echo "ns-3's cppyy JIT needs a C++ compiler and the system C++ headers" ;;
    git) echo "provenance stamps record the commit" ;;
    make) echo "runs the pipeline" ;;
    iproute2) echo "ip netns, ip tuntap: the emulated testbed's namespaces and routes" ;;
    gcc) echo "compiles the link emulator and the SCTP/TCP application" ;;
    tcpdump) echo "packet capture cross-check of the emulated runs" ;;
    libusrsctp-dev) echo "usrsctp, the SCTP stack of the emulated runs" ;;
    chromium) echo "the report's browser test drives headless Chromium" ;;
    *) echo "" ;;
  esac
}

missing() {
  {
    need_python
    need_base
    if [[ $purpose != venv && $emulation != off ]]; then need_testbed; fi
    if [[ $purpose == test && $browser == on ]]; then need_browser; fi
  } | tr ' ' '\n' | sed '/^$/d' | awk '!seen[$0]++'
}

is_root() { [[ ${PREREQS_FAKE_UID:-$(id -u)} == 0 ]]; }
has_apt() { [[ -z ${PREREQS_NO_APT:-} ]] && command -v apt-get >/dev/null 2>&1; }

mapfile -t pkgs < <(missing)
if ((${#pkgs[@]})) && [[ $install == yes ]] && is_root && has_apt; then
  echo "installing Debian packages for make $purpose:"
  for p in "${pkgs[@]}"; do echo "  - $p ($(why "$p"))"; done
  # chromium-driver comes with chromium: the browser test talks to Chromium's DevTools, the driver is for users.
  extra=()
  [[ " ${pkgs[*]} " == *" chromium "* ]] && extra+=(chromium-driver)
  export DEBIAN_FRONTEND=noninteractive
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${pkgs[@]}" "${extra[@]}" >/dev/null; }; then
    echo "error: apt-get could not install: ${pkgs[*]}" >&2
    exit 1
  fi
  mapfile -t pkgs < <(missing)
fi

status=0
if ((${#pkgs[@]})); then
  status=1
  echo "error: make $purpose needs these Debian packages, which are missing:" >&2
  for p in "${pkgs[@]}"; do echo "  - $p ($(why "$p"))" >&2; done
  if ! has_apt; then
    echo "No apt-get here: install the equivalents of: ${pkgs[*]} with this system's package manager." >&2
  elif ! is_root; then
    echo "Install them (as root), then run make again:   sudo apt-get install -y ${pkgs[*]}" >&2
  else
    echo "Install them, then run make again:   apt-get install -y ${pkgs[*]}   (make $purpose does it as root)" >&2
  fi
fi
if [[ $purpose != venv && $emulation != off ]]; then
  if ! is_root; then
    status=1
    echo "error: the real-stack runs of papers 000, 002 and 004 need root (network namespaces, TUN devices)." >&2
  elif [ ! -e "${PREREQS_TUN:-/dev/net/tun}" ]; then
    status=1
    echo "error: the real-stack runs of papers 000, 002 and 004 need /dev/net/tun, which this machine lacks." >&2
  fi
fi
if ((status)); then
  if [[ $purpose != venv ]]; then
    echo "Or opt out of what cannot run here: make $purpose EMULATION=off (the ledger then says the real-stack" >&2
    echo "column was not run, by choice)$([[ $purpose == test ]] && echo ', BROWSER_TEST=off (skips the report browser test)')." >&2
  fi
  exit 1
fi
# The Python interpreter itself: present and of a supported version (the pins need 3.11-3.13).
if ! command -v "$py" >/dev/null 2>&1; then
  echo "error: '$py' not found. Install Python 3.11-3.13, or point make at one: make PYTHON=/path/to/python3.12 ..." >&2
  exit 1
fi
if ! "$py" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] <= (3, 13) else 1)' 2>/dev/null; then
  echo "error: $("$py" -V 2>&1) at $(command -v "$py") is not supported: the pinned numpy/pandas need >= 3.11" >&2
  echo "       and ns-3's wheels (ns3==3.44.post0) exist for CPython <= 3.13. Use: make PYTHON=python3.11 ..." >&2
  exit 1
fi
exit 0
