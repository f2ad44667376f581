#!/usr/bin/env bash
# Installs the Debian packages Concord needs, when they are missing: libsodium and SQLite for the
# log, tmux for the multi-window demo. Sourced by the other scripts; safe to run again.
set -euo pipefail

concord_packages=(libsodium-dev libsqlite3-dev libncurses-dev tmux pkg-config)

concord_missing_packages() {
  local missing=()
  for package in "${concord_packages[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$package")
  done
  echo "${missing[@]:-}"
}

# Extra packages (beyond the ones every script needs) may be named as arguments.
concord_install_system_packages() {
  local missing
  missing=$(concord_missing_packages "$@")
  [[ -z "$missing" ]] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "concord: missing system packages ($missing) and no apt-get to install them" >&2
    return 1
  fi
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  echo "Installing system packages: $missing"
  # shellcheck disable=SC2086
  "${sudo[@]}" apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq $missing >/dev/null
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  concord_install_system_packages
fi
