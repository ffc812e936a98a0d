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
# building, --root DIR installs into DIR instead of / (no apt, no service reload).
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: install-pi.sh [--root DIR] [--no-apt] [--no-enable] [--no-deps] [--python PATH]
  --root DIR     install into DIR instead of / (implies --no-apt; the unit is enabled
                 offline with systemctl --root)
  --no-apt       do not install system packages
  --no-enable    install the unit but do not enable it
  --no-deps      pip-install tablekeeper alone, not its dependencies (CI without network)
  --python PATH  the interpreter for the venv (default /usr/bin/python3)
USAGE
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(dirname "$here")
root=/
use_apt=1
enable=1
pip_deps=1
python=/usr/bin/python3

while [ $# -gt 0 ]; do
  case "$1" in
    --root) root=${2:?--root needs a directory}; use_apt=0; shift 2 ;;
    --no-apt) use_apt=0; shift ;;
    --no-enable) enable=0; shift ;;
    --no-deps) pip_deps=0; shift ;;
    --python) python=${2:?--python needs a path}; shift 2 ;;
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
prefix=/opt/tablekeeper
changes=0

say() { printf '==> %s\n' "$*"; }
changed() { changes=$((changes + 1)); printf '    changed: %s\n' "$*"; }
is_pi() { grep -qs 'Raspberry Pi' /proc/device-tree/model; }

# ------------------------------------------------------------------ system packages
apt_packages=(
  python3 python3-venv python3-dev python3-pip   # the interpreter and its venv
  tesseract-ocr tesseract-ocr-eng                # the letter reader's OCR
  scowl                                          # the word list
  cage xwayland                                  # the kiosk compositor (see docs/install-pi.md)
  libgl1 libegl1 libgles2 libglib2.0-0 libmtdev1 # what the Kivy and OpenCV wheels link against
  libinput10 libdrm2 libgbm1                     # display and touch under cage
)
pi_packages=(python3-picamera2 python3-libcamera python3-lgpio)

install_packages() {
  local wanted=("${apt_packages[@]}") missing=() p
  if is_pi; then
    wanted+=("${pi_packages[@]}")
  else
    say "not a Raspberry Pi: skipping ${pi_packages[*]} (the camera and GPIO come from the Pi's own packages)"
  fi
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "system packages: all installed"
    return 0
  fi
  say "installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
  changed "apt packages ${missing[*]}"
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

install_python() {
  local venv="$r$prefix" stamp want extras="" pip_args=()
  if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv --system-site-packages "$venv"
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
  PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install -q "${pip_args[@]}" \
    "$source_dir$extras"
  echo "$want" >"$stamp"
  changed "tablekeeper in $venv"
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

say "installing tablekeeper into ${root} (source: $source_dir)"
if [ "$use_apt" -eq 1 ]; then install_packages; else say "skipping system packages"; fi
ensure_user
install_files
install_python
enable_service
if [ "$changes" -eq 0 ]; then
  say "nothing to change: tablekeeper is installed"
else
  say "done: $changes change(s). Reboot (sudo reboot) to start the kiosk on the touchscreen."
fi
