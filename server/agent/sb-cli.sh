#!/bin/sh
# sb-cli 0.0.2: the Opsdeck monitoring agent installer for Linux.
#
#   curl -fsSL <console>/cli/0.0.2/sb-cli | sudo sh -s -- install <token>
#   curl -fsSL <console>/cli/0.0.2/sb-cli | sudo sh -s -- uninstall
#
# install: decodes the install token (base64 of {"apiUrl","serverId","key"}), asks the console
# which port the agent listens on, refuses (changing nothing) when another process holds that
# port, installs the Prometheus node exporter with apt-get, dnf or yum (no recommended or weak
# dependencies) unless one is already there, runs it on that port with the systemd collector (a
# systemd service where systemd is PID 1, reusing the distribution's prometheus-node-exporter
# service when there is one; otherwise a supervised background process), waits until /metrics
# answers from the exporter it started, and tells the console it is installed. Running it again
# finds everything in place and changes nothing.
# uninstall: stops and removes the service and the files this script created, and puts a reused
# distribution service back as it was (docs/agent.md).
#
# Environment (tests and unusual hosts): SB_CLI_DRY_RUN=1 prints what would change without
# changing anything; SB_CLI_SUPERVISOR=systemd|process forces how the exporter runs;
# SB_CLI_BIN_DIR, SB_CLI_UNIT_DIR, SB_CLI_STATE_DIR, SB_CLI_RUN_DIR, SB_CLI_LOG_FILE move the
# files; SB_CLI_EXPORTER_CANDIDATES lists where to look for an installed exporter;
# SB_CLI_PACKAGE_UNIT and SB_CLI_PACKAGE_DEFAULTS name the distribution's exporter service and
# its settings file; SB_CLI_PACKAGE_MANAGER=apt-get|dnf|yum forces the package manager;
# SB_CLI_PORT_LOOKUP=ss|proc forces how the port's holder is found; SB_CLI_ALLOW_NONROOT=1 skips
# the root check (only sensible with the paths moved); SB_CLI_WAIT_SECONDS bounds the wait for
# /metrics (default 60).

set -u
# Piped into sh, this file is also stdin: package managers get </dev/null so they cannot eat it,
# and everything runs from the last lines, once the whole file has been read.

VERSION=0.0.2
SERVICE=node_exporter
BIN_DIR=${SB_CLI_BIN_DIR:-/usr/local/bin}
UNIT_DIR=${SB_CLI_UNIT_DIR:-/etc/systemd/system}
STATE_DIR=${SB_CLI_STATE_DIR:-/var/lib/sb-cli}
RUN_DIR=${SB_CLI_RUN_DIR:-/run/sb-cli}
LOG_FILE=${SB_CLI_LOG_FILE:-/var/log/node_exporter.log}
DRY_RUN=${SB_CLI_DRY_RUN:-0}
SUPERVISOR=${SB_CLI_SUPERVISOR:-auto}
WAIT_SECONDS=${SB_CLI_WAIT_SECONDS:-60}
CANDIDATES=${SB_CLI_EXPORTER_CANDIDATES:-"/usr/local/bin/node_exporter /usr/bin/prometheus-node-exporter /usr/bin/node_exporter /usr/sbin/node_exporter"}
# Debian's and Ubuntu's package runs its own service; the agent reuses it instead of adding a
# second exporter that could never bind the port.
PKG_UNIT=${SB_CLI_PACKAGE_UNIT:-prometheus-node-exporter}
PKG_DEFAULTS=${SB_CLI_PACKAGE_DEFAULTS:-/etc/default/prometheus-node-exporter}
PACKAGE_MANAGER=${SB_CLI_PACKAGE_MANAGER:-}
PORT_LOOKUP=${SB_CLI_PORT_LOOKUP:-auto}

LINK="$BIN_DIR/$SERVICE"
UNIT_FILE="$UNIT_DIR/$SERVICE.service"
PID_FILE="$RUN_DIR/$SERVICE.pid"
CHILD_PID_FILE="$RUN_DIR/$SERVICE.child.pid"
SUPERVISE_SCRIPT="$STATE_DIR/$SERVICE-supervise.sh"
PORT_FILE="$STATE_DIR/port"
LINK_MARK="$STATE_DIR/created-link"
DROPIN_DIR="$UNIT_DIR/$PKG_UNIT.service.d"
DROPIN="$DROPIN_DIR/opsdeck-agent.conf"
# How the reused distribution service was before the agent took it: restored by uninstall.
PKG_BEFORE="$STATE_DIR/$PKG_UNIT.before"
CHANGED=0

say() { printf '==> %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
warn() { printf 'sb-cli: warning: %s\n' "$*" >&2; }
die() {
  printf 'sb-cli: error: %s\n' "$*" >&2
  exit 1
}
changed() { CHANGED=1; }

# Runs a command that changes the system, echoing it first; in a dry run only echoes it.
run() {
  if [ "$DRY_RUN" = 1 ]; then
    info "(dry run) would run: $*"
    return 0
  fi
  info "\$ $*"
  "$@"
}

# Writes stdin to a file (or, in a dry run, says it would).
write_file() {
  if [ "$DRY_RUN" = 1 ]; then
    info "(dry run) would write $1"
    cat >/dev/null
    return 0
  fi
  cat >"$1"
}

usage() {
  cat <<EOF
sb-cli $VERSION: installs the Opsdeck monitoring agent (Prometheus node exporter).

Usage:
  sb-cli install <token> [--port N]   install, start and report the agent
  sb-cli uninstall                    stop and remove the agent's service and files
  sb-cli status                       show whether the agent runs and answers
  sb-cli version
EOF
}

# --- HTTP -------------------------------------------------------------------------------------
HTTP_STATUS=
HTTP_BODY=
have() { command -v "$1" >/dev/null 2>&1; }

# http METHOD URL [BODY [HEADER...]]: sets HTTP_STATUS and HTTP_BODY; 000 when unreachable.
http() {
  method=$1
  url=$2
  body=${3-}
  shift 2
  [ $# -gt 0 ] && shift
  have curl || die "curl is not installed; install it (apt-get install curl, dnf install curl) and run again"
  tmp=$(mktemp)
  if [ -n "$body" ]; then
    HTTP_STATUS=$(curl -sS -o "$tmp" -w '%{http_code}' --max-time 15 -X "$method" -H 'content-type: application/json' -H 'x-requested-with: opsdeck' "$@" --data "$body" "$url" 2>/dev/null) || HTTP_STATUS=000
  else
    HTTP_STATUS=$(curl -sS -o "$tmp" -w '%{http_code}' --max-time 15 -X "$method" -H 'x-requested-with: opsdeck' "$@" "$url" 2>/dev/null) || HTTP_STATUS=000
  fi
  HTTP_BODY=$(cat "$tmp")
  rm -f "$tmp"
}

# json_string FIELD JSON / json_number FIELD JSON: flat lookups, enough for the console's answers.
json_string() { printf '%s' "$2" | sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p" | head -n 1; }
json_number() { printf '%s' "$2" | sed -n "s/.*\"$1\":\\([0-9][0-9]*\\).*/\\1/p" | head -n 1; }

# A node exporter answers, not just anything on the port.
metrics_answer() { curl -fsS --max-time 3 "http://127.0.0.1:$1/metrics" 2>/dev/null | grep -q '^node_exporter_build_info'; }

# --- the exporter binary ----------------------------------------------------------------------
find_exporter() {
  for c in $CANDIDATES; do
    if [ -x "$c" ] && [ ! -d "$c" ]; then
      printf '%s\n' "$c"
      return 0
    fi
  done
  # An explicit list (tests, unusual layouts) is the whole search; by default PATH counts too.
  [ -n "${SB_CLI_EXPORTER_CANDIDATES:-}" ] && return 1
  for n in node_exporter prometheus-node-exporter; do
    p=$(command -v "$n" 2>/dev/null) && [ -n "$p" ] && {
      printf '%s\n' "$p"
      return 0
    }
  done
  return 1
}

INSTALLED_PACKAGE=
pick_package_manager() {
  if [ -n "$PACKAGE_MANAGER" ]; then
    printf '%s\n' "$PACKAGE_MANAGER"
    return 0
  fi
  for pm in apt-get dnf yum; do
    have "$pm" && {
      printf '%s\n' "$pm"
      return 0
    }
  done
  return 1
}

install_exporter() {
  pm=$(pick_package_manager) || pm=
  if [ "$pm" = apt-get ]; then
    # Without recommends: the exporter alone, not the 60-odd packages its recommends pull in.
    say "Installing the node exporter with apt-get (package prometheus-node-exporter, without recommended packages)"
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus-node-exporter </dev/null || {
      info "apt-get install failed; refreshing the package lists and trying once more"
      run apt-get update </dev/null && run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus-node-exporter </dev/null
    } || die "apt-get could not install prometheus-node-exporter"
    INSTALLED_PACKAGE=prometheus-node-exporter
  elif [ "$pm" = dnf ] || [ "$pm" = yum ]; then
    say "Installing the node exporter with $pm (without weak dependencies)"
    if run "$pm" install -y --setopt=install_weak_deps=False golang-github-prometheus-node-exporter </dev/null; then
      INSTALLED_PACKAGE=golang-github-prometheus-node-exporter
    elif run "$pm" install -y --setopt=install_weak_deps=False node_exporter </dev/null; then
      INSTALLED_PACKAGE=node_exporter
    else
      die "$pm could not install the node exporter (Fedora: golang-github-prometheus-node-exporter; RHEL: enable EPEL, package node_exporter). Install it by hand from https://github.com/prometheus/node_exporter/releases and run sb-cli again."
    fi
  else
    die "no apt-get, dnf or yum found. Install the node exporter by hand from https://github.com/prometheus/node_exporter/releases (as $LINK) and run sb-cli again."
  fi
  changed
}

# --- systemd ----------------------------------------------------------------------------------
unit_text() {
  cat <<EOF
# Installed by Opsdeck sb-cli $VERSION; remove with: sb-cli uninstall
[Unit]
Description=Prometheus node exporter (Opsdeck agent)
Wants=network-online.target
After=network-online.target

[Service]
ExecStart=$LINK --web.listen-address=:$1 --collector.systemd
Restart=always
RestartSec=2
DynamicUser=yes

[Install]
WantedBy=multi-user.target
EOF
}

start_systemd() {
  port=$1
  if [ -f "$UNIT_FILE" ] && [ "$(cat "$UNIT_FILE")" = "$(unit_text "$port")" ]; then
    say "Service file $UNIT_FILE is already in place"
  else
    say "Writing the service file $UNIT_FILE (port $port)"
    run mkdir -p "$UNIT_DIR"
    unit_text "$port" | write_file "$UNIT_FILE"
    run systemctl daemon-reload
    changed
    restart=1
  fi
  enable_and_start "$SERVICE"
}

# Enables a unit and (re)starts it when its settings changed ($restart) or it does not run.
enable_and_start() {
  if ! systemctl is-enabled --quiet "$1" 2>/dev/null; then
    run systemctl enable "$1"
    changed
  fi
  if [ "${restart:-0}" = 1 ] || ! systemctl is-active --quiet "$1" 2>/dev/null; then
    say "Starting $1.service"
    run systemctl restart "$1"
    changed
  else
    say "$1.service is already running"
  fi
}

# --- the distribution's exporter service (Debian, Ubuntu) -------------------------------------
# Where the package's unit exists, the agent is that service, configured by a drop-in (the
# agent's port and the systemd collector); adding node_exporter.service beside it would leave
# two exporters fighting for one port. A node_exporter.service from an earlier install is kept.
package_unit_exists() {
  [ ! -f "$UNIT_FILE" ] && have systemctl && systemctl cat "$PKG_UNIT" >/dev/null 2>&1
}

# Reuse it when it holds the agent's port, already is the agent, or does not run at all; a
# service running on another port stays as it is (the agent then adds its own unit).
reuse_package_unit() {
  [ "$HOLDER_IS_PACKAGE" = 1 ] || [ -f "$DROPIN" ] || ! systemctl is-active --quiet "$PKG_UNIT" 2>/dev/null
}

# The package's settings (ARGS in /etc/default/prometheus-node-exporter) go on its command line
# before the agent's; flags given twice stop the exporter, so those two must be the agent's.
package_args() {
  [ -f "$PKG_DEFAULTS" ] || return 0
  # shellcheck disable=SC1090
  (ARGS= && . "$PKG_DEFAULTS" >/dev/null 2>&1 && printf '%s' "${ARGS:-}")
}

check_package_args() {
  args=$(package_args)
  case "$args" in
    *web.listen-address* | *collector.systemd*)
      die "$PKG_DEFAULTS sets ARGS=\"$args\"; the agent sets the listen address (port $1) and the systemd collector itself. Remove those flags from ARGS there and run sb-cli again."
      ;;
  esac
}

dropin_text() {
  cat <<EOT
# Installed by Opsdeck sb-cli $VERSION: the Opsdeck agent is this service, on the agent's port and
# with the systemd collector (Services tab, service_down alerts). Remove with: sb-cli uninstall
[Service]
ExecStart=
ExecStart=$2 \$ARGS --web.listen-address=:$1 --collector.systemd
EOT
}

start_package_unit() {
  port=$1
  binary=$(readlink -f "$exporter" 2>/dev/null) || binary=$exporter
  if [ ! -f "$PKG_BEFORE" ] && [ "$DRY_RUN" != 1 ]; then
    mkdir -p "$STATE_DIR"
    # Remember how it was, so uninstall leaves the host as it found it.
    was_enabled=no
    was_active=no
    systemctl is-enabled --quiet "$PKG_UNIT" 2>/dev/null && was_enabled=yes
    systemctl is-active --quiet "$PKG_UNIT" 2>/dev/null && was_active=yes
    [ -n "$INSTALLED_PACKAGE" ] && was_enabled=no && was_active=no
    printf 'enabled=%s\nactive=%s\n' "$was_enabled" "$was_active" >"$PKG_BEFORE"
  fi
  if [ -f "$DROPIN" ] && [ "$(cat "$DROPIN")" = "$(dropin_text "$port" "$binary")" ]; then
    say "$PKG_UNIT.service already runs the agent (port $port, systemd collector): $DROPIN is in place"
  else
    say "Reusing the distribution's $PKG_UNIT.service as the agent instead of adding a second exporter"
    info "writing $DROPIN: port $port, --collector.systemd (your ARGS in $PKG_DEFAULTS still apply)"
    run mkdir -p "$DROPIN_DIR"
    dropin_text "$port" "$binary" | write_file "$DROPIN"
    run systemctl daemon-reload
    changed
    restart=1
  fi
  enable_and_start "$PKG_UNIT"
}

# Puts the reused service back as it was before the agent: its own settings, enabled and running
# as before (or stopped and disabled when sb-cli installed the package).
restore_package_unit() {
  say "Removing the agent's settings from $PKG_UNIT.service ($DROPIN)"
  run rm -f "$DROPIN"
  [ -d "$DROPIN_DIR" ] && run rmdir "$DROPIN_DIR" 2>/dev/null
  run systemctl daemon-reload || true
  was_enabled=$(sed -n 's/^enabled=//p' "$PKG_BEFORE" 2>/dev/null)
  was_active=$(sed -n 's/^active=//p' "$PKG_BEFORE" 2>/dev/null)
  if [ "$was_active" = yes ]; then
    info "$PKG_UNIT.service ran before the agent: restarting it with its own settings"
    run systemctl restart "$PKG_UNIT" || true
  else
    run systemctl stop "$PKG_UNIT" || true
  fi
  if [ "$was_enabled" = yes ]; then run systemctl enable "$PKG_UNIT" || true; else run systemctl disable "$PKG_UNIT" || true; fi
  run rm -f "$PKG_BEFORE"
}

# --- who holds the port -----------------------------------------------------------------------
# port_holder PORT: "PID NAME" of the process listening on TCP PORT, "? unknown" when something
# listens but its process cannot be told (not root), nothing when the port is free.
port_holder() {
  lookup=$PORT_LOOKUP
  [ "$lookup" = auto ] && { if have ss; then lookup=ss; else lookup=proc; fi; }
  if [ "$lookup" = ss ]; then
    line=$(ss -ltnp "sport = :$1" 2>/dev/null | sed 1d | head -n 1)
    [ -n "$line" ] || return 0
    pid=$(printf '%s' "$line" | sed -n 's/.*pid=\([0-9][0-9]*\).*/\1/p')
    name=$(printf '%s' "$line" | sed -n 's/.*users:(("\([^"]*\)".*/\1/p')
    if [ -n "$pid" ]; then printf '%s %s\n' "$pid" "${name:-unknown}"; else echo '? unknown'; fi
    return 0
  fi
  # /proc: the listening socket's inode (state 0A), then the process holding it.
  hex=$(printf '%04X' "$1")
  inodes=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { print $10 }')
  [ -n "$inodes" ] || return 0
  for ino in $inodes; do
    pid=$(ls -l /proc/[0-9]*/fd 2>/dev/null | awk -v s="socket:[$ino]" '/^\/proc\/[0-9]+\/fd:$/ { split($0, a, "/"); pid = a[3] } index($0, s) { print pid; exit }')
    if [ -n "$pid" ]; then
      printf '%s %s\n' "$pid" "$(cat "/proc/$pid/comm" 2>/dev/null || echo unknown)"
      return 0
    fi
  done
  echo '? unknown'
}

# The systemd unit a process belongs to, for messages (" (systemd unit foo.service)").
unit_of() {
  u=$(sed -n 's#.*/\([^/]*\.service\)$#\1#p' "/proc/$1/cgroup" 2>/dev/null | head -n 1)
  [ -n "$u" ] && printf ' (systemd unit %s)' "$u"
}

main_pid() {
  p=$(systemctl show -p MainPID "$1" 2>/dev/null | sed -n 's/^MainPID=//p')
  [ -n "$p" ] && [ "$p" != 0 ] && printf '%s\n' "$p"
}

# The pid of the exporter this agent runs (how: systemd, package or process), if it runs.
agent_pid() {
  case "$1" in
    systemd) main_pid "$SERVICE" ;;
    package) main_pid "$PKG_UNIT" ;;
    process) [ -f "$CHILD_PID_FILE" ] && cat "$CHILD_PID_FILE" 2>/dev/null ;;
  esac
}

# Before anything changes: the port must be free, or held by this agent's own exporter.
HOLDER_IS_PACKAGE=0
check_port() {
  holder=$(port_holder "$1")
  [ -n "$holder" ] || return 0
  hpid=${holder%% *}
  hname=${holder#* }
  if [ "$hpid" != '?' ] && [ "$hpid" = "$(agent_pid "$2")" ]; then
    info "port $1 is held by the agent's own exporter (pid $hpid)"
    return 0
  fi
  if [ "$hpid" != '?' ] && [ "$2" = systemd ] && package_unit_exists && [ "$hpid" = "$(main_pid "$PKG_UNIT")" ]; then
    info "port $1 is held by the distribution's $PKG_UNIT.service (pid $hpid): the agent will reuse it"
    HOLDER_IS_PACKAGE=1
    return 0
  fi
  if [ "$hpid" = '?' ]; then
    die "port $1 is already in use by another process (run as root to see which). Stop it, or give this server another agent port in the console (or pass --port N), and run sb-cli again."
  fi
  die "port $1 is already in use by $hname (pid $hpid)$(unit_of "$hpid"). sb-cli will not start an exporter that cannot listen there: stop that process, or give this server another agent port in the console (or pass --port N), and run sb-cli again. Nothing was changed."
}

# --- supervised process (no systemd: containers, minimal hosts) -------------------------------
supervisor_pid() {
  [ -f "$PID_FILE" ] || return 1
  pid=$(cat "$PID_FILE" 2>/dev/null)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && printf '%s\n' "$pid"
}

supervise_text() {
  cat <<EOF
#!/bin/sh
# Installed by Opsdeck sb-cli $VERSION: keeps the node exporter running where there is no systemd.
child=
trap '[ -n "\$child" ] && kill "\$child" 2>/dev/null; rm -f "$CHILD_PID_FILE"; exit 0' TERM INT HUP
while :; do
  "$LINK" --web.listen-address=:$1 --no-collector.systemd >>"$LOG_FILE" 2>&1 &
  child=\$!
  echo "\$child" >"$CHILD_PID_FILE"
  wait "\$child"
  echo "\$(date) node exporter exited with status \$?; restarting in 2 s" >>"$LOG_FILE"
  sleep 2
done
EOF
}

stop_process() {
  if pid=$(supervisor_pid); then
    run kill "$pid"
    if [ "$DRY_RUN" != 1 ]; then
      i=0
      while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
        sleep 0.1
        i=$((i + 1))
      done
    fi
  fi
  if [ -f "$CHILD_PID_FILE" ]; then
    child=$(cat "$CHILD_PID_FILE" 2>/dev/null)
    [ -n "$child" ] && kill -0 "$child" 2>/dev/null && run kill "$child"
  fi
  run rm -f "$PID_FILE" "$CHILD_PID_FILE"
}

start_process() {
  port=$1
  if pid=$(supervisor_pid) && [ "$(cat "$PORT_FILE" 2>/dev/null)" = "$port" ] && [ -f "$SUPERVISE_SCRIPT" ] && [ "$(cat "$SUPERVISE_SCRIPT")" = "$(supervise_text "$port")" ]; then
    say "The node exporter is already running under its supervisor (pid $pid, port $port)"
    return 0
  fi
  if supervisor_pid >/dev/null; then
    say "Stopping the running supervisor (its settings changed)"
    stop_process
  fi
  say "Starting the node exporter as a supervised background process on port $port"
  info "(no systemd here: a respawn loop under nohup; pid in $PID_FILE, log in $LOG_FILE)"
  run mkdir -p "$STATE_DIR" "$RUN_DIR" "$(dirname "$LOG_FILE")"
  supervise_text "$port" | write_file "$SUPERVISE_SCRIPT"
  printf '%s\n' "$port" | write_file "$PORT_FILE"
  if [ "$DRY_RUN" = 1 ]; then
    info "(dry run) would run: nohup sh $SUPERVISE_SCRIPT &"
  else
    if have setsid; then
      nohup setsid sh "$SUPERVISE_SCRIPT" "$port" </dev/null >/dev/null 2>&1 &
    else
      nohup sh "$SUPERVISE_SCRIPT" "$port" </dev/null >/dev/null 2>&1 &
    fi
    echo $! >"$PID_FILE"
    info "supervisor pid $(cat "$PID_FILE")"
  fi
  changed
}

pick_supervisor() {
  case "$SUPERVISOR" in
    systemd | process) printf '%s\n' "$SUPERVISOR" ;;
    auto)
      # sd_booted(3): systemd is PID 1 exactly when this directory exists.
      if [ -d /run/systemd/system ] && have systemctl; then echo systemd; else echo process; fi
      ;;
    *) die "SB_CLI_SUPERVISOR must be systemd, process or auto (got $SUPERVISOR)" ;;
  esac
}

# After the start: the exporter answering on the port must be the one this agent runs (another
# process may have taken the port meanwhile), with the systemd collector where systemd runs it.
verify_answering() {
  expected=$(agent_pid "$2")
  holder=$(port_holder "$1")
  hpid=${holder%% *}
  if [ -n "$expected" ] && [ -n "$hpid" ] && [ "$hpid" != '?' ] && [ "$hpid" != "$expected" ]; then
    die "port $1 answers, but from ${holder#* } (pid $hpid)$(unit_of "$hpid"), not the exporter sb-cli started (pid $expected). Stop that process and run sb-cli again."
  fi
  [ -n "$expected" ] && [ "$hpid" = "$expected" ] && info "it is the exporter sb-cli started (pid $expected)"
  if [ "$2" != process ]; then
    unit=$SERVICE
    [ "$2" = package ] && unit=$PKG_UNIT
    collector=$(curl -fsS --max-time 5 "http://127.0.0.1:$1/metrics" 2>/dev/null | sed -n 's/^node_scrape_collector_success{collector="systemd"} //p')
    [ -n "$collector" ] || die "the exporter on port $1 runs without its systemd collector (the console's Services tab and service_down alerts need it); see journalctl -u $unit"
    if [ "$collector" = 1 ]; then info "its systemd collector is on"; else warn "the systemd collector is on but failing to read systemd (services will not show); see journalctl -u $unit"; fi
  fi
}

# --- commands ---------------------------------------------------------------------------------
cmd_install() {
  token=
  port_override=
  while [ $# -gt 0 ]; do
    case "$1" in
      --port)
        port_override=${2-}
        shift 2 || die "--port needs a number"
        ;;
      --port=*)
        port_override=${1#--port=}
        shift
        ;;
      -*) die "unknown option $1 (see: sb-cli help)" ;;
      *)
        [ -z "$token" ] || die "one token only (see: sb-cli help)"
        token=$1
        shift
        ;;
    esac
  done
  [ -n "$token" ] || die "the install token is missing: sb-cli install <token> (the console's Install Agent step shows the whole command)"

  say "Reading the install token"
  json=$(printf '%s' "$token" | base64 -d 2>/dev/null) || json=
  api_url=$(json_string apiUrl "$json")
  server_id=$(json_string serverId "$json")
  key=$(json_string key "$json")
  if [ -z "$api_url" ] || [ -z "$server_id" ] || [ -z "$key" ]; then
    die "this is not a valid install token (expected base64 of {\"apiUrl\",\"serverId\",\"key\"}); copy the command again from the console"
  fi
  case "$api_url" in http://* | https://*) ;; *) die "the token's apiUrl is not an http(s) address: $api_url" ;; esac
  api_url=${api_url%/}
  info "console $api_url, server $server_id"

  if [ "$(id -u)" != 0 ] && [ "${SB_CLI_ALLOW_NONROOT:-0}" != 1 ] && [ "$DRY_RUN" != 1 ]; then
    die "run as root (for example: curl -fsSL $api_url/cli/$VERSION/sb-cli | sudo sh -s -- install <token>)"
  fi

  say "Checking the API key with the console"
  http GET "$api_url/api/cli/validate_api_key/$key"
  case "$HTTP_STATUS" in
    2??) ;;
    000) die "cannot reach the console at $api_url; check the address and that this host can reach it" ;;
    *) die "the console refused the key ($HTTP_STATUS): $(json_string message "$HTTP_BODY")" ;;
  esac
  [ "$(json_string serverId "$HTTP_BODY")" = "$server_id" ] || die "the key belongs to another server than the token says; copy the command again from the console"
  port=$(json_number agentPort "$HTTP_BODY")
  hostname=$(json_string hostname "$HTTP_BODY")
  [ -n "$port_override" ] && port=$port_override
  case "$port" in '' | *[!0-9]*) die "no usable agent port (got '$port')" ;; esac
  info "key valid for $hostname; the agent listens on port $port"

  how=$(pick_supervisor)
  say "Checking that port $port is free for the agent"
  check_port "$port" "$how"
  # A distribution service the agent will take over must not carry flags the agent sets.
  if [ "$how" = systemd ] && package_unit_exists && reuse_package_unit; then check_package_args "$port"; fi

  say "Looking for an installed node exporter"
  if exporter=$(find_exporter); then
    info "found $exporter"
  else
    info "none found"
    install_exporter
    exporter=$(find_exporter) || {
      [ "$DRY_RUN" = 1 ] && exporter="(the installed package's binary)"
    }
    [ -n "${exporter:-}" ] || die "the package installed but no node exporter binary was found (looked in $CANDIDATES and PATH)"
    info "installed $exporter"
  fi

  if [ -e "$LINK" ] || [ -L "$LINK" ]; then
    info "$LINK is in place"
  else
    say "Linking $LINK to $exporter"
    run mkdir -p "$BIN_DIR" "$STATE_DIR"
    run ln -s "$exporter" "$LINK"
    if [ "$DRY_RUN" != 1 ]; then : >"$LINK_MARK"; fi
    changed
  fi

  if [ "$how" = systemd ] && package_unit_exists; then
    if [ -n "$INSTALLED_PACKAGE" ] || reuse_package_unit; then
      check_package_args "$port"
      how=package
    else
      info "the distribution's $PKG_UNIT.service keeps running on its own port; the agent runs as $SERVICE.service on port $port"
    fi
  fi
  case "$how" in
    package) start_package_unit "$port" ;;
    systemd) start_systemd "$port" ;;
    *) start_process "$port" ;;
  esac

  if [ "$DRY_RUN" = 1 ]; then
    say "Dry run: not waiting for the exporter and not reporting to the console"
    return 0
  fi

  say "Waiting for http://127.0.0.1:$port/metrics to answer (up to $WAIT_SECONDS s)"
  i=0
  until metrics_answer "$port"; do
    i=$((i + 1))
    if [ $i -ge "$WAIT_SECONDS" ]; then
      [ "$how" = process ] && info "last lines of $LOG_FILE:" && tail -n 5 "$LOG_FILE" 2>/dev/null | sed 's/^/      /'
      [ "$how" = systemd ] && info "see: journalctl -u $SERVICE"
      [ "$how" = package ] && info "see: journalctl -u $PKG_UNIT"
      die "the node exporter does not answer on port $port after $WAIT_SECONDS s (is the port taken by something else?)"
    fi
    sleep 1
  done
  info "the exporter answers"
  verify_answering "$port" "$how"

  say "Telling the console the agent is installed"
  reported=$how
  [ "$how" = package ] && reported=systemd
  http POST "$api_url/api/cli/agent-installed" "{\"agentPort\":$port,\"supervisor\":\"$reported\",\"exporter\":\"$exporter\"}" -H "authorization: Bearer $key"
  case "$HTTP_STATUS" in
    2??) ;;
    000) die "the exporter runs, but the console at $api_url could not be reached to report it; run the same command again" ;;
    *) die "the exporter runs, but the console refused the report ($HTTP_STATUS): $(json_string message "$HTTP_BODY")" ;;
  esac
  if [ "$CHANGED" = 0 ]; then
    say "Everything was already in place; nothing changed. The console knows the agent is installed."
  else
    say "Done: the agent runs on port $port. Continue with 'Check Port Status' in the console."
  fi
}

cmd_uninstall() {
  if [ "$(id -u)" != 0 ] && [ "${SB_CLI_ALLOW_NONROOT:-0}" != 1 ] && [ "$DRY_RUN" != 1 ]; then
    die "run as root (sudo sh -s -- uninstall)"
  fi
  did=0
  # The same steps as the console's delete instructions (SPEC: stop and remove the service and
  # its files, reload the daemon).
  if have systemctl && { [ -f "$UNIT_FILE" ] || systemctl cat "$SERVICE" >/dev/null 2>&1; }; then
    say "Removing $SERVICE.service"
    run systemctl stop "$SERVICE" || true
    run systemctl disable "$SERVICE" || true
    run rm -f "$UNIT_FILE"
    did=1
    reload=1
  fi
  if [ -f "$DROPIN" ] || [ -f "$PKG_BEFORE" ]; then
    restore_package_unit
    did=1
  fi
  if [ -f "$PID_FILE" ] || [ -f "$CHILD_PID_FILE" ]; then
    say "Stopping the supervised node exporter"
    stop_process
    did=1
  fi
  if [ -f "$SUPERVISE_SCRIPT" ] || [ -f "$PORT_FILE" ]; then
    run rm -f "$SUPERVISE_SCRIPT" "$PORT_FILE"
    did=1
  fi
  if [ -L "$LINK" ] || [ -f "$LINK_MARK" ]; then
    say "Removing $LINK"
    run rm -f "$LINK" "$LINK_MARK"
    did=1
  elif [ -e "$LINK" ]; then
    info "$LINK was not installed by sb-cli; left in place"
  fi
  [ "${reload:-0}" = 1 ] && { run systemctl daemon-reload || true; }
  [ -d "$STATE_DIR" ] && run rmdir "$STATE_DIR" 2>/dev/null
  [ -d "$RUN_DIR" ] && run rmdir "$RUN_DIR" 2>/dev/null
  if [ "$did" = 0 ]; then
    say "Nothing to remove: the agent is not installed here"
  else
    say "The agent is removed. The node exporter package itself stays installed (remove it with apt-get remove prometheus-node-exporter or dnf remove ...)."
  fi
}

cmd_status() {
  how=$(pick_supervisor)
  port=$(cat "$PORT_FILE" 2>/dev/null)
  if [ "$how" = systemd ] && [ -f "$DROPIN" ]; then
    state=$(systemctl is-active "$PKG_UNIT" 2>/dev/null)
    say "$PKG_UNIT.service (the agent, configured by $DROPIN): ${state:-unknown}"
    [ -n "$port" ] || port=$(sed -n 's/.*--web.listen-address=:\([0-9]*\).*/\1/p' "$DROPIN" 2>/dev/null)
  elif [ "$how" = systemd ]; then
    state=$(systemctl is-active "$SERVICE" 2>/dev/null)
    say "$SERVICE.service: ${state:-unknown}"
    [ -n "$port" ] || port=$(sed -n 's/.*--web.listen-address=:\([0-9]*\).*/\1/p' "$UNIT_FILE" 2>/dev/null)
  elif pid=$(supervisor_pid); then
    say "supervised node exporter: running (supervisor pid $pid)"
  else
    say "supervised node exporter: not running"
  fi
  if [ -n "$port" ] && metrics_answer "$port"; then say "http://127.0.0.1:$port/metrics answers"; exit 0; fi
  say "the exporter does not answer${port:+ on port $port}"
  exit 1
}

case "${1-}" in
  install)
    shift
    cmd_install "$@"
    ;;
  uninstall)
    shift
    cmd_uninstall "$@"
    ;;
  status) cmd_status ;;
  version | --version) echo "sb-cli $VERSION" ;;
  help | -h | --help | '') usage ;;
  *)
    usage >&2
    die "unknown command '$1'"
    ;;
esac
