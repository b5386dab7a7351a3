#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian machine (as root): the Debian packages for the real-SSH,
# browser, Slurm (munge, slurmctld, slurmd and its clients), GNU parallel, dask.distributed and SimGrid
# comparisons, and the login shells outside the POSIX family some users have (tcsh, csh, fish); then the npm
# packages from the lockfile (which also builds).
set -euo pipefail

packages=(openssh-server openssh-client chromium parallel rsync iproute2 iptables g++ libsimgrid-dev munge slurmctld slurmd slurm-client python3-distributed tcsh csh fish)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-test-deps: need root to apt-get install: ${missing[*]}" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
for bin in /usr/sbin/sshd /usr/bin/ssh-keygen /usr/bin/chromium /usr/bin/parallel /usr/bin/rsync /usr/sbin/ip /usr/sbin/tc /usr/sbin/iptables /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd /usr/bin/sbatch /usr/bin/srun /usr/bin/tcsh /usr/bin/bsd-csh /usr/bin/fish; do
  [ -x "$bin" ] || { echo "install-test-deps: $bin is missing after install" >&2; exit 1; }
done
npm ci --no-audit --no-fund
