# Shared by the bench scripts (sourced, not run): need COMMAND PACKAGE installs PACKAGE with
# apt-get when COMMAND is missing, refreshing the package lists only if the first try fails.
need() { # COMMAND PACKAGE
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "${0##*/}: installing $2 with apt-get" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -qq "$2" >/dev/null 2>&1 ||
    { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "$2" >/dev/null; }
}
