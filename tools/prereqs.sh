#!/usr/bin/env bash
# The one place that knows what the package needs from the operating system. It checks everything before
# any work starts and, as root on Debian/Ubuntu, installs what is missing with apt-get, saying what and why.
# make venv/reproduce/test and .ci/run all go through it, so a missing prerequisite stops a run within
# seconds, never minutes into a notebook.
#
# Supported platform: Linux x86-64 (the pinned wheels of requirements.lock, ns3==3.44.post0 among them,
# exist only there), CPython 3.11-3.13, Debian 12 or later / Ubuntu 22.04 or later (other Linux: install
# the equivalents of the packages named here, e.g. with PREREQS_NO_APT=1 to see the list).
#
# Usage: tools/prereqs.sh [--install] [--for venv|reproduce|test] [--emulation reduced|full|off]
#                         [--browser on|off] [--python PYTHON] [--venv DIR]
#   --install     install missing packages with apt-get when root (apt-get's own output goes to a log file,
#                 shown only when it fails); without it, or not root, or no apt-get: only check and name them
#   --for         what is about to run: `venv` (the package itself), `reproduce` (adds the emulated testbed of
#                 papers 000/002/004 and root), `test` (adds the testbed and the browser tests)
#   --emulation   off: the real-stack runs are not wanted (their packages and root are not required)
#   --browser     off: the browser tests of the report and JupyterLab are not wanted (Chromium is not required)
#   --python      the interpreter the virtual environment is built with (default python3)
#   --venv        the virtual environment's folder (default .venv): its absolute path must not contain
#                 "test", because ns-3's loader drops every library whose path does (it filters out its
#                 own test libraries by that substring), and `from ns import ns` then fails
# Exit status: 0 when everything needed is present (after installing it); 1 otherwise, after naming each
# missing prerequisite, the one command that installs it, and the opt-outs; 2 for a bad argument.
#
# Ubuntu: the same Debian package names (libusrsctp-dev is in universe), except Chromium, which Ubuntu ships
# only as a snap (its chromium-browser .deb is a stub that installs the snap): as root the script runs
# `snap install chromium` where snapd is present; elsewhere it says so, and BROWSER_TEST=off opts out.
#
# Test hooks (environment variables; tests/test_prereqs.py uses them to make a prerequisite look missing
# without uninstalling anything):
#   PREREQS_FAKE_UID=N        behave as if the user id were N (1000: the non-root path)
#   PREREQS_NO_APT=1          behave as if apt-get did not exist (the no-apt path)
#   PREREQS_USRSCTP_H=PATH    look for usrsctp.h at PATH instead of /usr/include and /usr/local/include
#   PREREQS_TUN=PATH          look for the TUN device at PATH instead of /dev/net/tun
#   PREREQS_NETNS=yes|no      behave as if network namespaces could (yes) or could not (no) be created,
#                             instead of trying `unshare --net` (as root)
#   PREREQS_OS_RELEASE=PATH   read the distribution from PATH instead of /etc/os-release
#   PREREQS_PLATFORM=OS-ARCH  behave as if `uname -s`-`uname -m` printed OS-ARCH (e.g. Linux-aarch64)
#   PREREQS_VENV_PATH=PATH    check PATH instead of the virtual environment's own absolute path (the tests'
#                             folders are under pytest's, whose name contains "test")
# A command looks missing when PATH does not reach it (tests run the script with a PATH of symlinks).
set -u
install=no
purpose=venv
emulation=reduced
browser=on
py=python3
venv=.venv
while (($#)); do
  case $1 in
    --install) install=yes ;;
    --for|--emulation|--browser|--python|--venv)
      if (($# < 2)); then echo "tools/prereqs.sh: $1 needs a value (see the usage at the top of the script)" >&2; exit 2; fi
      case $1 in
        --for) purpose=$2 ;;
        --emulation) emulation=$2 ;;
        --browser) browser=$2 ;;
        --python) py=$2 ;;
        --venv) venv=$2 ;;
      esac
      shift ;;
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

# --- the platform: nothing can be installed that makes another one work --------------------------------
platform=${PREREQS_PLATFORM:-$(uname -s)-$(uname -m)}
if [[ $platform != Linux-x86_64 ]]; then
  echo "error: this machine is $platform; the package runs on Linux x86-64 only: the pinned wheels of" >&2
  echo "       requirements.lock (ns3==3.44.post0, the ns-3 simulator's bindings) exist only for it." >&2
  exit 1
fi

# --- where the virtual environment lives: ns-3's loader cannot load its libraries from a path with "test" ---
if [[ $venv == /* ]]; then venv_abs=$venv; else venv_abs=$PWD/$venv; fi
venv_abs=${PREREQS_VENV_PATH:-$venv_abs}
if [[ $venv_abs == *test* ]]; then
  echo "error: the virtual environment $venv_abs has \"test\" in its path. ns-3's Python loader" >&2
  echo "       (ns3==3.44.post0) drops every library whose path contains \"test\" (meant for its own test" >&2
  echo "       libraries), so the simulations could not load. Clone the repository into a folder without" >&2
  echo "       \"test\" in its path, or point make at another place: make VENV=/path/to/venv ..." >&2
  exit 1
fi

testbed_wanted() { [[ $purpose != venv && $emulation != off ]]; }
browser_wanted() { [[ $purpose == test && $browser == on ]]; }
is_root() { [[ ${PREREQS_FAKE_UID:-$(id -u)} == 0 ]]; }
has_apt() { [[ -z ${PREREQS_NO_APT:-} ]] && command -v apt-get >/dev/null 2>&1; }
has_cmd() { command -v "$1" >/dev/null 2>&1; }
is_ubuntu() {
  local id="" id_like="" line
  while IFS= read -r line; do
    case $line in
      ID=*) id=${line#ID=} ;;
      ID_LIKE=*) id_like=${line#ID_LIKE=} ;;
    esac
  done < "${PREREQS_OS_RELEASE:-/etc/os-release}" 2>/dev/null
  [[ ${id//\"/} == ubuntu || ${id_like//\"/} == *ubuntu* ]]
}

# --- what is missing: each check prints the Debian package that provides it, or nothing ------------------
need_python() {
  if ! has_cmd "$py"; then
    case $py in
      python3) echo "python3 python3-venv python3-dev" ;;
      python3.1[1-3]) echo "$py $py-venv $py-dev" ;;  # e.g. make PYTHON=python3.11 on Ubuntu 22.04
    esac
    return
  fi
  "$py" -c 'import sys' >/dev/null 2>&1 || return  # it does not run (a pyenv shim of no version): said below
  # the default python3's packages, or those of the version asked for (python3.11-venv, python3.11-dev)
  local name=python3
  if [[ $py != python3 ]]; then
    name=$("$py" -c 'import sys; print("python%d.%d" % sys.version_info[:2])' 2>/dev/null) || name=python3
  fi
  "$py" -c 'import venv, ensurepip' 2>/dev/null || echo "$name-venv"
  "$py" -c 'import os, sysconfig, sys; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)' \
    2>/dev/null || echo "$name-dev"
}
need_base() {
  has_cmd g++ || echo g++
  has_cmd git || echo git
  has_cmd make || echo make
}
netns_ok() {
  case ${PREREQS_NETNS:-probe} in
    yes) return 0 ;;
    no) return 1 ;;
  esac
  ! has_cmd unshare || unshare --net "$BASH" -c : 2>/dev/null
}
usrsctp_header() {
  if [[ -n ${PREREQS_USRSCTP_H:-} ]]; then [[ -e $PREREQS_USRSCTP_H ]]; return; fi
  [[ -e /usr/include/usrsctp.h || -e /usr/local/include/usrsctp.h ]]
}
need_testbed() {
  has_cmd ip || echo iproute2
  has_cmd gcc || echo gcc
  has_cmd tcpdump || echo tcpdump
  usrsctp_header || echo libusrsctp-dev
  has_cmd nghttpd || echo nghttp2-server
  has_cmd nghttp || echo nghttp2-client
  has_cmd gtlsserver || echo ngtcp2-server
  has_cmd gtlsclient || echo ngtcp2-client
}
need_browser() {
  has_cmd chromium || has_cmd chromium-browser || echo chromium
}
why() {
  case $1 in
    python3|python3.1[1-3]) echo "Python 3.11-3.13" ;;
    python3*-venv) echo "the venv/ensurepip modules of $py" ;;
    python3*-dev) echo "Python.h: ns-3's cppyy JIT compiles against it" ;;
    g++) echo "ns-3's cppyy JIT needs a C++ compiler and the system C++ headers" ;;
    git) echo "provenance stamps record the commit" ;;
    make) echo "runs the pipeline" ;;
    iproute2) echo "ip netns, ip route: the emulated testbed's namespaces and addresses" ;;
    gcc) echo "compiles the link emulator and the TCP/SCTP application of the emulated runs" ;;
    tcpdump) echo "packet-capture cross-check of the emulated runs" ;;
    libusrsctp-dev) echo "usrsctp, the SCTP stack of the emulated runs" ;;
    nghttp2-server|nghttp2-client) echo "nghttpd and nghttp, the C HTTP/2 stack beside paper 005's Python one" ;;
    ngtcp2-server|ngtcp2-client) echo "gtlsserver and gtlsclient, the C HTTP/3 stack (ngtcp2) beside paper 005's Python one" ;;
    chromium) if is_ubuntu; then echo "the browser tests of the report and JupyterLab; Ubuntu ships it as a snap: snap install chromium"
              else echo "the browser tests of the report and JupyterLab drive headless Chromium"; fi ;;
    *) echo "" ;;
  esac
}
missing() {
  {
    need_python
    need_base
    if testbed_wanted; then need_testbed; fi
    if browser_wanted; then need_browser; fi
  } | tr ' ' '\n' | sed '/^$/d' | awk '!seen[$0]++'
}
# The one command that installs the packages given (as root: without sudo).
install_command() {
  local sudo="" debs=() snap=no p
  is_root || sudo="sudo "
  for p in "$@"; do
    if [[ $p == chromium ]] && is_ubuntu; then snap=yes; else debs+=("$p"); fi
  done
  local cmd=""
  ((${#debs[@]})) && cmd="${sudo}apt-get update && ${sudo}apt-get install -y ${debs[*]}"
  if [[ $snap == yes ]]; then cmd="${cmd:+$cmd && }${sudo}snap install chromium"; fi
  echo "$cmd"
}

# --- install (root, apt-get) ----------------------------------------------------------------------------
mapfile -t pkgs < <(missing)
if ((${#pkgs[@]})) && [[ $install == yes ]] && is_root && has_apt; then
  debs=()
  snap=no
  extra=()
  for p in "${pkgs[@]}"; do
    if [[ $p == chromium ]] && is_ubuntu; then snap=yes; else debs+=("$p"); fi
    # chromium-driver comes with Debian's chromium: the browser tests speak DevTools themselves, the driver is for users.
    [[ $p == chromium ]] && ! is_ubuntu && extra+=(chromium-driver)
  done
  echo "installing what make $purpose needs (apt-get$([[ $snap == yes ]] && echo ', snap'), as root):"
  for p in "${pkgs[@]}"; do echo "  - $p ($(why "$p"))"; done
  log=$(mktemp "${TMPDIR:-/tmp}/webperf-prereqs.XXXXXX") || exit 1
  ok=yes
  export DEBIAN_FRONTEND=noninteractive
  if ((${#debs[@]})); then
    { apt-get update && apt-get install -y --no-install-recommends "${debs[@]}" "${extra[@]}"; } >"$log" 2>&1 || ok=no
  fi
  if [[ $ok == yes && $snap == yes ]]; then
    if has_cmd snap; then snap install chromium >>"$log" 2>&1 || ok=no
    else echo "snap is not installed: Ubuntu's Chromium comes only as a snap" >>"$log"; ok=no; fi
  fi
  if [[ $ok == no ]]; then
    echo "error: installing ${pkgs[*]} failed; the last lines of its output:" >&2
    tail -n 15 "$log" | sed 's/^/    /' >&2
    echo "  (all of it: $log)" >&2
  else
    rm -f "$log"
  fi
  wanted=("${pkgs[@]}")
  mapfile -t pkgs < <(missing)
  done_now=()
  for p in "${wanted[@]}"; do [[ " ${pkgs[*]} " == *" $p "* ]] || done_now+=("$p"); done
  ((${#done_now[@]})) && echo "installed: ${done_now[*]}"
  if [[ $ok == yes ]] && ((${#pkgs[@]})); then
    echo "error: the installer succeeded, but these are still missing: ${pkgs[*]}" >&2
  fi
fi

# --- what still stops the run: name it, the one command, the opt-outs -----------------------------------
status=0
testbed_trouble=no
if ((${#pkgs[@]})); then
  status=1
  echo "error: make $purpose needs these packages, which are missing:" >&2
  for p in "${pkgs[@]}"; do echo "  - $p ($(why "$p"))" >&2; done
  if ! has_apt; then
    echo "No apt-get here: install the equivalents of ${pkgs[*]} with this system's package manager." >&2
  elif testbed_wanted && ! is_root; then
    echo "make $purpose installs them itself as root (it needs root for the real-stack runs anyway):" >&2
    echo "    sudo make $purpose" >&2
  else
    echo "Install them$(is_root || echo ' (as root)'), then run make $purpose again:" >&2
    echo "    $(install_command "${pkgs[@]}")" >&2
  fi
fi
if testbed_wanted; then
  if ! is_root; then
    status=1
    testbed_trouble=yes
    if ! ((${#pkgs[@]})) || ! has_apt; then
      echo "error: the real-stack runs of papers 000, 002 and 004 need root (network namespaces, TUN devices):" >&2
      echo "    sudo make $purpose" >&2
    fi
  elif [ ! -e "${PREREQS_TUN:-/dev/net/tun}" ]; then
    status=1
    testbed_trouble=yes
    echo "error: the real-stack runs of papers 000, 002 and 004 need the TUN device /dev/net/tun, which this" >&2
    echo "       machine lacks (a container: start it with --device /dev/net/tun --cap-add NET_ADMIN)." >&2
  elif ! netns_ok; then
    status=1
    testbed_trouble=yes
    echo "error: the real-stack runs of papers 000, 002 and 004 need network namespaces, which cannot be" >&2
    echo "       created here (a container: start it with --cap-add SYS_ADMIN --cap-add NET_ADMIN)." >&2
  fi
fi
if ((status)); then
  # The opt-outs that would let this run go ahead: the testbed's when it is part of the trouble, the browser's.
  optouts=()
  for p in "${pkgs[@]}"; do
    case $p in iproute2|gcc|tcpdump|libusrsctp-dev|nghttp2-*|ngtcp2-*) testbed_trouble=yes ;; esac
  done
  [[ $testbed_trouble == yes ]] && \
    optouts+=("make $purpose EMULATION=off (the ledger then says the real-stack column was not run, by choice)")
  [[ " ${pkgs[*]} " == *" chromium "* ]] && optouts+=("make $purpose BROWSER_TEST=off (skips the browser tests)")
  if ((${#optouts[@]})); then
    echo "Or opt out of what cannot run here: ${optouts[0]}${optouts[1]:+, or ${optouts[1]}}." >&2
  fi
  exit 1
fi
# The Python interpreter itself: present and of a supported version (the pins need 3.11-3.13).
if ! has_cmd "$py"; then
  echo "error: '$py' not found. Install Python 3.11-3.13 (Debian/Ubuntu: apt-get install python3.11 python3.11-venv" >&2
  echo "       python3.11-dev), then point make at it: make PYTHON=python3.11 ..." >&2
  exit 1
fi
if ! "$py" -c 'import sys' >/dev/null 2>&1; then
  echo "error: '$py' ($(command -v "$py")) does not run: $("$py" -c 'import sys' 2>&1 | head -n 1)" >&2
  echo "       Point make at a Python 3.11-3.13 that runs: make PYTHON=python3.11 ..." >&2
  exit 1
fi
if ! "$py" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] <= (3, 13) else 1)' 2>/dev/null; then
  echo "error: $("$py" -V 2>&1) at $(command -v "$py") is not supported: the pinned numpy/pandas need >= 3.11" >&2
  echo "       and ns-3's wheels (ns3==3.44.post0) exist for CPython <= 3.13. Install one (Ubuntu 22.04: apt-get" >&2
  echo "       install python3.11 python3.11-venv python3.11-dev), then: make PYTHON=python3.11 ..." >&2
  exit 1
fi
exit 0
