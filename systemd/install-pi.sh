#!/usr/bin/env bash
# Install tablekeeper as a kiosk on Raspberry Pi OS Bookworm (64-bit). Run once with sudo:
#
#   sudo systemd/install-pi.sh            # then: sudo reboot
#
# It installs the system packages, a Python environment in /opt/tablekeeper (with the
# system site-packages, so picamera2 and lgpio come from apt), the user "tablekeeper"
# in the groups that reach the display, touchscreen, GPIO and camera, the udev rule the
# Pi 5 LED ring needs, and the systemd unit, enabled. Running it again changes nothing
# unless something is missing or the source changed; it says what it changed.
#
# Off a Raspberry Pi it skips the Pi-only packages and says so. For CI and image
# building, --root DIR installs into DIR instead of / (no service reload): DIR must be a
# Debian root (debootstrap, or an unpacked Raspberry Pi OS image). The system packages
# are installed into it with chroot ROOT apt-get, and the venv is built inside it by its
# own Python, so its scripts name the right interpreter; both need this machine to run
# the root's programs (an arm64 root on an x86 machine needs qemu-user-static and
# binfmt-support). Where it cannot, it refuses rather than leave a root that cannot boot
# (--no-apt: the root already has the packages). --pi MODEL installs as on that Pi model.
# Last, it checks that the result can start the kiosk (Python 3, cage, Xwayland, the venv,
# the unit) and says "done" only then.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: install-pi.sh [--root DIR] [--pi MODEL] [--no-apt] [--no-enable] [--no-deps] [--python PATH]
  --root DIR     install into DIR instead of / (packages with chroot DIR apt-get; the
                 unit is enabled offline with systemctl --root; the venv is built in
                 DIR with chroot)
  --pi MODEL     install as on this Raspberry Pi model, e.g. "Raspberry Pi 4 Model B"
                 (default: the model this machine reports)
  --no-apt       do not install system packages
  --no-enable    install the unit but do not enable it
  --no-deps      pip-install tablekeeper alone, not its dependencies (CI without network)
  --python PATH  the interpreter for the venv (default /usr/bin/python3; with --root,
                 the root's own, run through chroot, unless the root has none)
USAGE
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(dirname "$here")
root=/
use_apt=1
enable=1
pip_deps=1
python=/usr/bin/python3
python_given=0
pi_model=""

while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=${2:?--root needs a directory}; shift 2 ;;
    --no-apt) use_apt=0; shift ;;
    --no-enable) enable=0; shift ;;
    --no-deps) pip_deps=0; shift ;;
    --python) python=${2:?--python needs a path}; python_given=1; shift 2 ;;
    --pi) pi_model=${2:?--pi needs a model, e.g. "Raspberry Pi 5 Model B"}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install-pi.sh: unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" -ne 0 ]; then
  echo "install-pi.sh: run it with sudo (it installs packages, a user and a service)" >&2
  exit 2
fi
root=$(cd "$root" && pwd)
r=${root%/}                       # prefix for every path we write ("" for the real root)
if [ -n "$r" ] && { [ ! -f "$r/etc/passwd" ] || [ ! -f "$r/etc/group" ]; }; then
  echo "install-pi.sh: $root has no etc/passwd or etc/group: --root needs a Debian root" \
       "(made with debootstrap, or an unpacked Raspberry Pi OS image), not an empty folder" >&2
  exit 2
fi
if [ -z "$pi_model" ] && [ -r /proc/device-tree/model ]; then
  pi_model=$(tr -d '\0' </proc/device-tree/model)
fi
prefix=/opt/tablekeeper
changes=0

say() { printf '==> %s\n' "$*"; }
changed() { changes=$((changes + 1)); printf '    changed: %s\n' "$*"; }
is_pi() { [[ $pi_model == *"Raspberry Pi"* ]]; }
is_pi4() { [[ $pi_model == *"Raspberry Pi 4"* || $pi_model == *"Raspberry Pi 400"* \
              || $pi_model == *"Compute Module 4"* ]]; }

# ------------------------------------------------------------------ system packages
apt_packages=(
  python3 python3-venv python3-dev python3-pip   # the interpreter and its venv
  tesseract-ocr tesseract-ocr-eng                # the letter reader's OCR
  scowl                                          # the word list
  cage xwayland                                  # the kiosk compositor (see docs/install-pi.md)
  libgl1 libegl1 libgles2 libglib2.0-0 libmtdev1 # what the Kivy and OpenCV wheels link against
  libinput10 libdrm2 libgbm1                     # display and touch under cage
  # The pip Kivy wheel's SDL2 has no Wayland backend: under cage it draws through Xwayland
  # with its X11 backend, which loads these at run time (libXi: touch events, XInput2).
  libx11-6 libx11-xcb1 libxext6 libxcursor1 libxi6 libxfixes3 libxrandr2 libxss1
)
pi_packages=(python3-picamera2 python3-libcamera python3-lgpio)

install_packages() {
  local wanted=("${apt_packages[@]}") missing=() p dpkg_args=()
  if is_pi; then
    wanted+=("${pi_packages[@]}")
  else
    say "not a Raspberry Pi: skipping ${pi_packages[*]} (the camera and GPIO come from the Pi's own packages)"
  fi
  [ -z "$r" ] || dpkg_args=(--admindir="$r/var/lib/dpkg")   # the root's package list, read from here
  for p in "${wanted[@]}"; do
    dpkg-query "${dpkg_args[@]}" -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "system packages: all installed"
    return 0
  fi
  if [ -n "$r" ]; then
    install_packages_in_root "${missing[@]}"
    return 0
  fi
  say "installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
  changed "apt packages ${missing[*]}"
}

can_run_in_root() {
  # Can this machine run the root's programs (same architecture, or qemu-user via binfmt)?
  chroot "$root" /bin/true 2>/dev/null
}

install_packages_in_root() {
  if ! can_run_in_root; then
    echo "install-pi.sh: refusing: $root lacks system packages the kiosk needs ($*), and this" \
         "machine cannot run the root's programs to install them (chroot $root /bin/true fails:" \
         "an arm64 root on another machine needs qemu-user-static and binfmt-support, or the" \
         "root has no /bin/true). Install them into the root another way, then re-run with --no-apt." >&2
    exit 2
  fi
  say "installing system packages into $root: $*"
  # No service may start inside the root while apt configures it.
  local policy="$r/usr/sbin/policy-rc.d" own_policy=0 rc=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && own_policy=1
  fi
  run_in_root /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get update -qq || rc=$?
  if [ "$rc" -eq 0 ]; then
    run_in_root /usr/bin/env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends "$@" || rc=$?
  fi
  [ "$own_policy" -eq 0 ] || rm -f "$policy"
  if [ "$rc" -ne 0 ]; then
    echo "install-pi.sh: apt-get inside $root failed (exit $rc, above): check the network and" \
         "the root's /etc/resolv.conf and apt sources, then run this again" >&2
    exit 1
  fi
  changed "apt packages in $root: $*"
}

# ------------------------------------------------------------------ user and groups
account_tool_args=()
[ -n "$r" ] && account_tool_args=(--prefix "$root")

ensure_group() {
  local g=$1
  if ! grep -q "^$g:" "$r/etc/group"; then
    groupadd "${account_tool_args[@]}" --system "$g"
    changed "group $g"
  fi
}

ensure_user() {
  local groups=(gpio video render input spi) g
  for g in "${groups[@]}"; do ensure_group "$g"; done
  ensure_group tablekeeper
  if ! grep -q '^tablekeeper:' "$r/etc/passwd"; then
    useradd "${account_tool_args[@]}" --system --gid tablekeeper --no-create-home \
      --home-dir /var/lib/tablekeeper --shell /usr/sbin/nologin \
      --comment "tablekeeper kiosk" tablekeeper
    changed "user tablekeeper"
  fi
  for g in "${groups[@]}"; do
    if ! grep -E "^$g:[^:]*:[^:]*:(.*,)?tablekeeper(,|$)" "$r/etc/group" >/dev/null; then
      usermod "${account_tool_args[@]}" --append --groups "$g" tablekeeper
      changed "tablekeeper joins group $g"
    fi
  done
}

# ------------------------------------------------------------------ files
# put SRC DEST MODE: copy only when the content or mode differs, so a second run is a no-op.
put() {
  local src=$1 dest=$2 mode=$3
  if [ -f "$dest" ] && cmp -s "$src" "$dest" && [ "$(stat -c %a "$dest")" = "$mode" ]; then
    return 0
  fi
  install -D -m "$mode" "$src" "$dest"
  changed "$dest"
}

# ensure_dir DIR MODE OWNER
ensure_dir() {
  local dir=$1 mode=$2 owner=$3 uid gid
  uid=$(awk -F: -v u="${owner%%:*}" '$1 == u {print $3}' "$r/etc/passwd")
  gid=$(awk -F: -v g="${owner##*:}" '$1 == g {print $3}' "$r/etc/group")
  if [ ! -d "$dir" ]; then
    install -d -m "$mode" -o "$uid" -g "$gid" "$dir"
    changed "$dir"
  elif [ "$(stat -c '%a %u %g' "$dir")" != "$mode $uid $gid" ]; then
    chmod "$mode" "$dir"
    chown "$uid:$gid" "$dir"
    changed "$dir (owner or mode)"
  fi
}

install_files() {
  put "$here/tablekeeper.service" "$r/etc/systemd/system/tablekeeper.service" 644
  put "$here/pam-tablekeeper" "$r/etc/pam.d/tablekeeper" 644
  put "$here/99-tablekeeper-pio.rules" "$r/etc/udev/rules.d/99-tablekeeper-pio.rules" 644
  put "$source_dir/docs/install-pi.md" "$r$prefix/share/doc/tablekeeper/install-pi.md" 644
  ensure_dir "$r/var/lib/tablekeeper" 750 tablekeeper:tablekeeper
  ensure_dir "$r/etc/tablekeeper" 750 tablekeeper:tablekeeper
}

# ------------------------------------------------------------------ the Python environment
source_hash() {
  # Everything pip would install: reinstall only when one of these changed.
  (cd "$source_dir" && find pyproject.toml games kiosk vision hardware calibration \
      -type f \( -name '*.py' -o -name '*.kv' -o -name '*.json' -o -name '*.txt' \
      -o -name '*.toml' -o -name '*.ttf' \) -not -path '*/__pycache__/*' 2>/dev/null \
    | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
}

in_root_python() {
  # The venv is built by the root's own interpreter, through chroot, when there is one.
  [ -n "$r" ] && [ "$python_given" -eq 0 ] && [ -x "$r/usr/bin/python3" ]
}

run_in_root() {
  # Run a command inside the root with /dev and /proc (pip and venv need them); unmount after.
  local mounted=()
  if [ -d "$r/dev" ] && ! mountpoint -q "$r/dev"; then mount --bind /dev "$r/dev"; mounted+=("$r/dev"); fi
  if [ -d "$r/proc" ] && ! mountpoint -q "$r/proc"; then mount -t proc proc "$r/proc"; mounted+=("$r/proc"); fi
  local rc=0
  chroot "$root" "$@" || rc=$?
  local m
  for m in "${mounted[@]}"; do umount "$m" || umount -l "$m"; done
  return "$rc"
}

relocate_scripts() {
  # A venv built from outside the root names the root's path in its scripts' first line
  # ("#!/build/root/opt/tablekeeper/bin/python"): rewrite it to the path on the Pi.
  local f
  for f in "$r$prefix"/bin/*; do
    if [ ! -f "$f" ] || [ -L "$f" ]; then continue; fi
    if head -n1 "$f" | grep -q "^#!$r$prefix/bin/python"; then
      sed -i "1s|^#!$r$prefix/|#!$prefix/|" "$f"
    fi
  done
}

install_python() {
  local venv="$r$prefix" stamp want extras="" pip_args=() py=("$python") src="$source_dir"
  local inside=0 tmp_src=""
  if in_root_python; then
    inside=1
    if ! chroot "$root" /usr/bin/python3 -c pass 2>/dev/null; then
      echo "install-pi.sh: cannot run $root/usr/bin/python3 here: an arm64 root on another" \
           "machine needs qemu-user-static and binfmt-support (apt install qemu-user-static" \
           "binfmt-support), or pass --python to build the venv with this machine's Python" >&2
      exit 2
    fi
  fi
  if [ ! -x "$venv/bin/python" ]; then
    if [ "$inside" -eq 1 ]; then
      run_in_root /usr/bin/python3 -m venv --system-site-packages "$prefix"
    else
      "$python" -m venv --system-site-packages "$venv"
    fi
    changed "Python environment $venv"
  fi
  if is_pi; then
    extras="[pi]"
  else
    say "not a Raspberry Pi: skipping the [pi] extra (the NeoPixel ring driver)"
  fi
  [ "$pip_deps" -eq 1 ] || pip_args+=(--no-deps --no-build-isolation --no-index)
  want="$(source_hash) $extras $pip_deps"
  stamp="$venv/.tablekeeper-installed"
  if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    say "tablekeeper in $venv: up to date"
    return 0
  fi
  say "installing tablekeeper into $venv"
  if [ "$inside" -eq 1 ]; then
    # pip inside the root sees only the root: give it a copy of the source (and constraints).
    tmp_src=$(mktemp -d "$r/tmp/tablekeeper-src.XXXXXX")
    (cd "$source_dir" && tar -cf - --exclude=.venv --exclude=.git --exclude='__pycache__' \
        --exclude='*.egg-info' --exclude=build --exclude=artifacts .) | tar -xf - -C "$tmp_src"
    src=${tmp_src#"$r"}
    py=(run_in_root "$prefix/bin/python")
  else
    py=("$venv/bin/python")
  fi
  # apt's picamera2 is built against Debian's numpy 1.24: keep the venv on numpy<2.
  if is_pi; then pip_args+=(-c "$src/systemd/pi-constraints.txt"); fi
  PIP_DISABLE_PIP_VERSION_CHECK=1 "${py[@]}" -m pip install -q "${pip_args[@]}" "$src$extras"
  [ -z "$tmp_src" ] || rm -rf "$tmp_src"
  [ "$inside" -eq 1 ] || [ -z "$r" ] || relocate_scripts
  echo "$want" >"$stamp"
  changed "tablekeeper in $venv"
  if [ "$pip_deps" -eq 1 ]; then
    check_camera_modules
  else
    say "--no-deps: not checking the camera's modules (numpy and OpenCV were not installed)"
  fi
}

check_camera_modules() {
  # picamera2 and simplejpeg (apt) must load with the venv's numpy: a mismatch is found
  # here, at install time, with its fix, not as a camera that never works.
  local args=(-m kiosk.doctor.pi_check) py=("$r$prefix/bin/python")
  # On the Pi itself apt has just installed picamera2: it must be there. In an image built
  # elsewhere (--root) it may come later, so a missing one is only reported.
  if is_pi && [ -z "$r" ]; then args+=(--require-camera); fi
  [ -z "${TABLEKEEPER_CHECK_ALSO:-}" ] || args+=(--also "$TABLEKEEPER_CHECK_ALSO")
  if in_root_python; then py=(run_in_root "$prefix/bin/python"); fi
  say "checking that the camera's modules load with the venv's numpy"
  if ! "${py[@]}" "${args[@]}"; then
    echo "install-pi.sh: the kiosk's Python cannot load the camera's modules (see above)" >&2
    exit 1
  fi
}

# ------------------------------------------------------------------ SPI for a Pi 4 ring
enable_spi() {
  # On a Pi 4 the NeoPixel ring's data pin GPIO10 is SPI0 MOSI: Blinka drives it through
  # rpi_ws281x over /dev/spidev0.0, which exists only with dtparam=spi=on. The SPI clock
  # follows the VPU core clock, so it is pinned (core_freq=500, core_freq_min=500: the
  # rpi_ws281x advice for a Pi 4). A Pi 5 drives the ring through PIO instead: nothing to do.
  is_pi4 || return 0
  local cfg
  for cfg in "$r/boot/firmware/config.txt" "$r/boot/config.txt" ""; do
    if [ -z "$cfg" ] || [ -f "$cfg" ]; then break; fi
  done
  if [ -z "$cfg" ]; then
    say "no config.txt under $root/boot: add dtparam=spi=on, core_freq=500 and core_freq_min=500 by hand"
    return 0
  fi
  local wanted=(dtparam=spi=on core_freq=500 core_freq_min=500) missing=() line
  for line in "${wanted[@]}"; do
    grep -qx "$line" "$cfg" || missing+=("$line")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  {
    printf '\n# tablekeeper: the LED ring on GPIO10 is driven over SPI (see docs/install-pi.md)\n[all]\n'
    printf '%s\n' "${missing[@]}"
  } >>"$cfg"
  changed "$cfg: ${missing[*]} (takes effect after a reboot)"
}

# ------------------------------------------------------------------ the service
enable_service() {
  if [ "$enable" -eq 0 ]; then
    say "not enabling the service (--no-enable)"
    return 0
  fi
  local systemctl=(systemctl)
  [ -n "$r" ] && systemctl+=(--root "$root")
  if [ "$("${systemctl[@]}" is-enabled tablekeeper.service 2>/dev/null)" != enabled ]; then
    "${systemctl[@]}" enable tablekeeper.service
    changed "tablekeeper.service enabled"
  fi
  if [ -z "$r" ] && [ -d /run/systemd/system ] && [ "$changes" -gt 0 ]; then
    systemctl daemon-reload
    udevadm control --reload-rules || true
    udevadm trigger --action=add --subsystem-match='*-pio' || true
  elif [ -z "$r" ]; then
    say "systemd is not running here: the service starts at the next boot"
  fi
}

# ------------------------------------------------------------------ can it boot the kiosk?
in_root_path() {
  # Follow symlinks as the booted root would see them (a venv's python links to the
  # interpreter that built it, by its path on the Pi): the final path, inside the root.
  local p=$1 n=0 link
  while [ -L "$r$p" ] && [ "$n" -lt 10 ]; do
    link=$(readlink "$r$p")
    case $link in
      /*) p=$link ;;
      *) p=$(dirname "$p")/$link ;;
    esac
    n=$((n + 1))
  done
  printf '%s\n' "$p"
}

missing_for_boot() {
  # What the root lacks to start the kiosk, one line each (nothing: it can). $1 = "before":
  # only what must be there before anything is installed (--no-apt).
  local target
  [ -x "$r/usr/bin/python3" ] || echo "Python 3 (/usr/bin/python3, apt package python3)"
  [ -x "$r/usr/bin/cage" ] || echo "cage (/usr/bin/cage, apt package cage): the kiosk's screen"
  [ -x "$r/usr/bin/Xwayland" ] || echo "Xwayland (/usr/bin/Xwayland, apt package xwayland): the kiosk draws through it"
  [ "${1:-}" != before ] || return 0
  target=$(in_root_path "$prefix/bin/python")
  [ -x "$r$target" ] || echo "the kiosk's Python environment ($prefix/bin/python, which leads to $target)"
  [ -x "$r$prefix/bin/tablekeeper" ] || echo "the tablekeeper command ($prefix/bin/tablekeeper)"
  [ -f "$r/etc/systemd/system/tablekeeper.service" ] || echo "the unit (/etc/systemd/system/tablekeeper.service)"
  if [ "$enable" -eq 1 ] && [ ! -L "$r/etc/systemd/system/multi-user.target.wants/tablekeeper.service" ]; then
    echo "the unit enabled (multi-user.target.wants/tablekeeper.service)"
  fi
}

refuse_unbootable() {
  local when=$1 lacking line
  lacking=$(missing_for_boot "$when")
  [ -n "$lacking" ] || return 0
  echo "install-pi.sh: refusing: $root cannot start the kiosk; it has no:" >&2
  while IFS= read -r line; do printf '  - %s\n' "$line"; done <<<"$lacking" >&2
  if [ "$when" = before ]; then
    echo "Install these into the root (or run without --no-apt, where this machine can run the root's programs)." >&2
  fi
  exit 1
}

verify_boot() {
  refuse_unbootable after
  local how="its files are there"
  if [ -z "$r" ] || can_run_in_root; then
    local py=("$prefix/bin/python")
    [ -z "$r" ] || py=(run_in_root "$prefix/bin/python")
    if ! "${py[@]}" -c 'import kiosk.cli.main' 2>/dev/null; then
      echo "install-pi.sh: refusing: $root cannot start the kiosk: $prefix/bin/python cannot import it" >&2
      exit 1
    fi
    how="its files are there and its Python imports the kiosk"
  else
    how="$how (checked by file only: this machine cannot run the root's programs)"
  fi
  say "$root can start the kiosk: Python 3, cage, Xwayland, the venv and the unit; $how"
}

say "installing tablekeeper into ${root} (source: $source_dir)"
if [ -n "$r" ] && [ "$use_apt" -eq 0 ]; then refuse_unbootable before; fi
if [ "$use_apt" -eq 1 ]; then install_packages; else say "skipping system packages"; fi
ensure_user
install_files
install_python
enable_spi
enable_service
verify_boot
if [ "$changes" -eq 0 ]; then
  say "nothing to change: tablekeeper is installed"
else
  say "done: $changes change(s). Reboot (sudo reboot) to start the kiosk on the touchscreen."
fi
