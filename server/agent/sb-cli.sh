#!/bin/sh
# sb-cli 0.0.2: the Opsdeck monitoring agent installer for Linux.
#
#   curl -fsSL <console>/cli/0.0.2/sb-cli | sudo sh -s -- install <token>
#   curl -fsSL <console>/cli/0.0.2/sb-cli | sudo sh -s -- uninstall
#
# install: decodes the install token (base64 of {"apiUrl","serverId","key"}), asks the console
# which port the agent listens on, installs the Prometheus node exporter with apt-get, dnf or
# yum unless one is already there, runs it on that port (a systemd service where systemd is
# PID 1, otherwise a supervised background process), waits until /metrics answers, and tells
# the console it is installed. Running it again finds everything in place and changes nothing.
# uninstall: stops and removes the service and the files this script created (docs/agent.md).
#
# Environment (tests and unusual hosts): SB_CLI_DRY_RUN=1 prints what would change without
# changing anything; SB_CLI_SUPERVISOR=systemd|process forces how the exporter runs;
# SB_CLI_BIN_DIR, SB_CLI_UNIT_DIR, SB_CLI_STATE_DIR, SB_CLI_RUN_DIR, SB_CLI_LOG_FILE move the
# files; SB_CLI_EXPORTER_CANDIDATES lists where to look for an installed exporter;
# SB_CLI_ALLOW_NONROOT=1 skips the root check (only sensible with the paths moved);
# SB_CLI_WAIT_SECONDS bounds the wait for /metrics (default 60).

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

LINK="$BIN_DIR/$SERVICE"
UNIT_FILE="$UNIT_DIR/$SERVICE.service"
PID_FILE="$RUN_DIR/$SERVICE.pid"
CHILD_PID_FILE="$RUN_DIR/$SERVICE.child.pid"
SUPERVISE_SCRIPT="$STATE_DIR/$SERVICE-supervise.sh"
PORT_FILE="$STATE_DIR/port"
LINK_MARK="$STATE_DIR/created-link"
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
install_exporter() {
  if have apt-get; then
    say "Installing the node exporter with apt-get (package prometheus-node-exporter)"
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y prometheus-node-exporter </dev/null || {
      info "apt-get install failed; refreshing the package lists and trying once more"
      run apt-get update </dev/null && run env DEBIAN_FRONTEND=noninteractive apt-get install -y prometheus-node-exporter </dev/null
    } || die "apt-get could not install prometheus-node-exporter"
    INSTALLED_PACKAGE=prometheus-node-exporter
  elif have dnf || have yum; then
    pm=dnf
    have dnf || pm=yum
    say "Installing the node exporter with $pm"
    if run "$pm" install -y golang-github-prometheus-node-exporter </dev/null; then
      INSTALLED_PACKAGE=golang-github-prometheus-node-exporter
    elif run "$pm" install -y node_exporter </dev/null; then
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
ExecStart=$LINK --web.listen-address=:$1
Restart=always
RestartSec=2
DynamicUser=yes

[Install]
WantedBy=multi-user.target
EOF
}

start_systemd() {
  port=$1
  if [ "$INSTALLED_PACKAGE" = prometheus-node-exporter ] && systemctl is-enabled --quiet prometheus-node-exporter 2>/dev/null; then
    # Debian starts the package's own service on 9100 at install; the agent is node_exporter.service.
    say "Disabling the package's own prometheus-node-exporter service (the agent runs as $SERVICE.service)"
    run systemctl disable --now prometheus-node-exporter
  fi
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
  if ! systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
    run systemctl enable "$SERVICE"
    changed
  fi
  if [ "${restart:-0}" = 1 ] || ! systemctl is-active --quiet "$SERVICE" 2>/dev/null; then
    say "Starting $SERVICE.service"
    run systemctl restart "$SERVICE"
    changed
  else
    say "$SERVICE.service is already running"
  fi
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

  how=$(pick_supervisor)
  if [ "$how" = systemd ]; then start_systemd "$port"; else start_process "$port"; fi

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
      die "the node exporter does not answer on port $port after $WAIT_SECONDS s (is the port taken by something else?)"
    fi
    sleep 1
  done
  info "the exporter answers"

  say "Telling the console the agent is installed"
  http POST "$api_url/api/cli/agent-installed" "{\"agentPort\":$port,\"supervisor\":\"$how\",\"exporter\":\"$exporter\"}" -H "authorization: Bearer $key"
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
  if [ "$how" = systemd ]; then
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
