#!/usr/bin/env bash
# Check what the environment cannot install by itself; name what to install if anything is missing.
# Usage: tools/check_prereqs.sh PYTHON
set -u
py=${1:-python3}
missing=()
if ! command -v "$py" >/dev/null 2>&1; then
  echo "error: '$py' not found. Install Python 3.11-3.13 (Debian/Ubuntu: apt-get install python3 python3-venv python3-dev)," >&2
  echo "       or point make at one: make PYTHON=/path/to/python3.12 ..." >&2
  exit 1
fi
if ! "$py" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] <= (3, 13) else 1)'; then
  echo "error: $("$py" -V 2>&1) at $(command -v "$py") is not supported: the pinned numpy/pandas need >= 3.11" >&2
  echo "       and ns-3's wheels (ns3==3.44.post0) exist for CPython <= 3.13. Use: make PYTHON=python3.11 ..." >&2
  exit 1
fi
"$py" -c 'import venv, ensurepip' 2>/dev/null || missing+=("python3-venv (the venv/ensurepip modules of $py)")
"$py" -c 'import os, sysconfig, sys; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)' \
  || missing+=("python3-dev (Python.h for $py: ns-3's cppyy JIT compiles against it)")
command -v g++ >/dev/null 2>&1 || missing+=("g++ (ns-3's cppyy JIT needs a C++ compiler and the system C++ headers)")
command -v git >/dev/null 2>&1 || missing+=("git (provenance stamps record the commit)")
# The emulated testbed of papers 000/002/004 (optional: without it the notebooks say the emulated column
# was not run, and its tests are skipped with the reason).
emu=()
command -v ip >/dev/null 2>&1 || emu+=("iproute2 (ip netns, ip tuntap: the testbed's namespaces and routes)")
command -v gcc >/dev/null 2>&1 || emu+=("gcc (compiles the link emulator and the SCTP/TCP application)")
command -v tcpdump >/dev/null 2>&1 || emu+=("tcpdump (packet capture cross-check of the emulated runs)")
[ -e /usr/include/usrsctp.h ] || emu+=("libusrsctp-dev (usrsctp, the SCTP stack of the emulated runs)")
if ((${#emu[@]})); then
  echo "warning: the emulated testbed (papers 000, 002, 004) lacks:" >&2
  for m in "${emu[@]}"; do echo "  - $m" >&2; done
  echo "On Debian/Ubuntu: apt-get install iproute2 gcc tcpdump libusrsctp-dev (it also needs root for namespaces)" >&2
fi
if ((${#missing[@]})); then
  echo "error: missing prerequisites:" >&2
  for m in "${missing[@]}"; do echo "  - $m" >&2; done
  echo "On Debian/Ubuntu: apt-get install python3-venv python3-dev g++ git   (or run .ci/run as root, which does it)" >&2
  exit 1
fi
exit 0
