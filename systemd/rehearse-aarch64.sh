#!/usr/bin/env bash
# The Pi install rehearsed on this machine: a Debian Bookworm arm64 root run under
# qemu-user-static, the real installer into it, the aarch64 wheels from PyPI, then the
# non-GUI tests and `tablekeeper doctor` inside it. Not part of CI: one to two hours on a
# shared 2-core machine (the tests alone need more than 50 minutes under qemu).
#
#   sudo nice -n 19 systemd/rehearse-aarch64.sh [ROOT] > rehearsal.log 2>&1
#
# Needs root, network access to Debian's archive and PyPI, and (once):
#   sudo apt install debootstrap qemu-user-static binfmt-support
# ROOT (default /var/tmp/tablekeeper-arm64) is reused when it exists: only the steps after
# debootstrap run again. What it cannot rehearse: Raspberry Pi OS's own packages
# (picamera2, libcamera, lgpio are not in Debian); Debian's python3-bottleneck, a C
# extension built against the same numpy 1.24, stands in for them in the numpy check.
# The committed tree (git HEAD) is what is installed, not uncommitted edits.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(dirname "$here")
root=${1:-/var/tmp/tablekeeper-arm64}
model="Raspberry Pi 5 Model B Rev 1.0"
mounts=()

step() { printf '\n==> [%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
cleanup() {
  local m
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    m=${mounts[$i]}
    umount -R "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
}
trap cleanup EXIT

if [ "$(id -u)" -ne 0 ]; then
  echo "rehearse-aarch64.sh: run it as root (debootstrap, chroot, mounts)" >&2
  exit 2
fi
start=$(date +%s)

step "binfmt: can this machine run arm64 programs?"
binfmt=/proc/sys/fs/binfmt_misc
if [ ! -e "$binfmt/status" ]; then
  mount -t binfmt_misc binfmt_misc "$binfmt" || {
    echo "no binfmt_misc here (a container without it?): qemu-user cannot run arm64 programs" >&2
    exit 1
  }
fi
if [ ! -e "$binfmt/qemu-aarch64" ]; then
  update-binfmts --enable qemu-aarch64 || {
    echo "qemu-aarch64 is not registered: apt install qemu-user-static binfmt-support" >&2
    exit 1
  }
fi
head -n 2 "$binfmt/qemu-aarch64"

step "debootstrap: Debian Bookworm arm64 in $root"
if [ ! -f "$root/etc/debian_version" ]; then
  # The installer's system packages, less the display (no screen here) and what only
  # Raspberry Pi OS has; plus python3-bottleneck (numpy 1.24's ABI, like picamera2).
  packages=python3,python3-venv,python3-pip,python3-dev,python3-numpy,python3-bottleneck
  packages+=,tesseract-ocr,tesseract-ocr-eng,scowl,libgl1,libegl1,libgles2,libglib2.0-0
  packages+=,libmtdev1,libinput10,libdrm2,libgbm1,libxi6,passwd,systemd,ca-certificates,file
  time debootstrap --arch=arm64 --variant=minbase --include="$packages" bookworm "$root"
else
  echo "reusing $root ($(cat "$root/etc/debian_version"))"
fi
chroot "$root" uname -m
chroot "$root" /usr/bin/python3 -c 'import numpy, platform; print(platform.machine(), "numpy", numpy.__version__)'

step "network and certificates for pip inside the root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# This machine's certificate bundle (it may trust a proxy the root's bundle does not), and
# no pip settings that name this machine's paths (they mean nothing inside the root).
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/rehearsal-ca.crt"
ca=/etc/ssl/certs/rehearsal-ca.crt
export PIP_CERT=$ca SSL_CERT_FILE=$ca REQUESTS_CA_BUNDLE=$ca PIP_DISABLE_PIP_VERSION_CHECK=1
unset SSL_CERT_DIR PIP_FIND_LINKS PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_CONFIG_FILE
export PIP_CONFIG_FILE=/dev/null

step "the source (git HEAD) into $root/src/tablekeeper"
rm -rf "$root/src/tablekeeper"
mkdir -p "$root/src/tablekeeper"
git -C "$source_dir" archive HEAD | tar -x -C "$root/src/tablekeeper"
git -C "$source_dir" log --oneline -1

step "the installer, as on a $model (--root: the venv is built inside with chroot)"
t0=$(date +%s)
TABLEKEEPER_CHECK_ALSO=bottleneck bash "$root/src/tablekeeper/systemd/install-pi.sh" \
  --root "$root" --pi "$model" || echo "INSTALLER FAILED (exit $?)"
echo "installer: $(($(date +%s) - t0)) s"
head -n1 "$root/opt/tablekeeper/bin/tablekeeper" || true

for m in proc sys dev; do
  if ! mountpoint -q "$root/$m"; then
    case $m in
      proc) mount -t proc proc "$root/proc" ;;
      sys) mount -t sysfs sysfs "$root/sys" ;;
      dev) mount --rbind /dev "$root/dev"; mount --make-rslave "$root/dev" ;;  # with /dev/pts
    esac
    mounts+=("$root/$m")
  fi
done
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
  PIP_CERT="$ca" SSL_CERT_FILE="$ca" REQUESTS_CA_BUNDLE="$ca" PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"; }

step "what the venv has: the numpy it imports must be Debian's 1.24"
in_root /opt/tablekeeper/bin/python -m pip list 2>/dev/null | grep -iE '^(numpy|opencv|kivy|pillow|gpiozero|adafruit)' || true
in_root /opt/tablekeeper/bin/python -m kiosk.doctor.pi_check --also bottleneck || echo "PI CHECK FAILED"

step "without the constraints: numpy 2 in a venv breaks the apt extension (what the Pi would see)"
t0=$(date +%s)
in_root /usr/bin/python3 -m venv --system-site-packages /tmp/unpinned
in_root /tmp/unpinned/bin/python -m pip install -q "numpy>=2" || echo "numpy 2 did not install"
in_root /bin/sh -c 'cd /src/tablekeeper && PYTHONPATH=. /tmp/unpinned/bin/python -m kiosk.doctor.pi_check --also bottleneck' \
  | sed 's/^/    unpinned: /' || echo "    unpinned: the check fails, as it must"
echo "unpinned demonstration: $(($(date +%s) - t0)) s"

step "tablekeeper doctor inside the root"
in_root /bin/sh -c 'TABLEKEEPER_DATA=/tmp/doctor-data TABLEKEEPER_CONFIG=/tmp/doctor-data/tablekeeper.toml \
  /opt/tablekeeper/bin/tablekeeper doctor' || echo "doctor exit $? (fail findings are expected: no screen, no Pi)"

step "the non-GUI tests inside the root (pytest -m 'not gui and not slow')"
t0=$(date +%s)
in_root /opt/tablekeeper/bin/python -m pip install -q -c /src/tablekeeper/systemd/pi-constraints.txt \
  "pytest>=8,<10" "hypothesis>=6.100,<7" || echo "test tools did not install"
in_root /bin/sh -c 'cd /src/tablekeeper && timeout 5400 /opt/tablekeeper/bin/python -m pytest -q \
  -m "not gui and not slow" -p no:cacheprovider --durations=10 -ra 2>&1 | tail -n 80' || true
echo "tests: $(($(date +%s) - t0)) s"

step "done in $(($(date +%s) - start)) s"
