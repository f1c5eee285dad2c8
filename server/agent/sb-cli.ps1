# sb-cli 0.0.2 for Windows: installs the Opsdeck monitoring agent (Prometheus windows_exporter).
#
#   & ([scriptblock]::Create((Invoke-RestMethod '<console>/cli/0.0.2/sb-cli.ps1'))) install -Token '<token>'
#   & ([scriptblock]::Create((Invoke-RestMethod '<console>/cli/0.0.2/sb-cli.ps1'))) uninstall
#
# Run in PowerShell as Administrator. install: decodes the token, asks the console for the agent
# port, refuses (changing nothing) when another process holds it, installs windows_exporter from
# its official MSI (GitHub releases; pinned version, SHA-256 checked before it runs) with the
# collectors the console's Windows panels read, unless the service exists, opens the port in the
# firewall, waits until /metrics answers from the windows_exporter service and reports to the
# console. uninstall: the console's delete instructions (stop and delete the service, remove
# the directory, remove the firewall rule).
# Not run in Opsdeck's CI (no Windows host there): its text is checked by tests/api/sb-cli-windows.test.ts.
param(
  [Parameter(Position = 0)][ValidateSet('install', 'uninstall', 'version')][string]$Command = 'install',
  [string]$Token,
  [string]$Arch = 'amd64',
  [int]$Port = 0
)

$ErrorActionPreference = 'Stop'
$Service = 'windows_exporter'
$InstallDir = 'C:\Program Files\windows_exporter'
# The newest 0.2x release whose MSI checksum could be pinned (winget's validated manifest); the
# console reads its metric names (0.30 renamed many). Other architectures have no MSI to pin.
$ExporterVersion = '0.24.0'
$MsiSha256 = @{ amd64 = 'D448329AC9C89E7E71D4F6A3AD111C1C61B58A17683852DEB6292813B58ED62C' }
# What the console's Windows panels and figures read: the MSI's defaults (cpu, cs, logical_disk,
# physical_disk, net, os, service, system, textfile) plus memory, process and time.
$Collectors = 'cpu,cs,logical_disk,physical_disk,net,os,service,system,textfile,memory,process,time'
function Say($text) { Write-Host "==> $text" }
function Fail($text) { Write-Host "sb-cli: error: $text" -ForegroundColor Red; exit 1 }

function Assert-Admin {
  $id = [Security.Principal.WindowsIdentity]::GetCurrent()
  if (-not (New-Object Security.Principal.WindowsPrincipal($id)).IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
    Fail 'run PowerShell as Administrator'
  }
}

function Rule-Name($p) { "windows_exporter (TCP $p)" }

# The process listening on a TCP port, or $null.
function Port-Holder($p) {
  $listen = Get-NetTCPConnection -LocalPort $p -State Listen -ErrorAction SilentlyContinue | Select-Object -First 1
  if (-not $listen) { return $null }
  $proc = Get-Process -Id $listen.OwningProcess -ErrorAction SilentlyContinue
  [pscustomobject]@{ Id = $listen.OwningProcess; Name = $(if ($proc) { $proc.ProcessName } else { 'unknown' }) }
}

# The windows_exporter service's process id, or 0.
function Service-Pid { $s = Get-CimInstance Win32_Service -Filter "Name='$Service'" -ErrorAction SilentlyContinue; if ($s) { [int]$s.ProcessId } else { 0 } }

if ($Command -eq 'version') { 'sb-cli 0.0.2 (Windows)'; exit 0 }

if ($Command -eq 'uninstall') {
  Assert-Admin
  $svc = Get-Service -Name $Service -ErrorAction SilentlyContinue
  if ($svc) {
    Say "Stopping and deleting the $Service service"
    Stop-Service $Service -ErrorAction SilentlyContinue
    sc.exe delete $Service | Out-Null
  }
  if (Test-Path $InstallDir) { Say "Removing $InstallDir"; Remove-Item -Recurse -Force $InstallDir }
  Get-NetFirewallRule -DisplayName 'windows_exporter (TCP *)' -ErrorAction SilentlyContinue | ForEach-Object {
    Say "Removing the firewall rule '$($_.DisplayName)'"
    Remove-NetFirewallRule -DisplayName $_.DisplayName
  }
  Say 'The agent is removed.'
  exit 0
}

if (-not $Token) { Fail 'the install token is missing: install -Token <token> (the console shows the whole command)' }
Say 'Reading the install token'
try { $t = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($Token.Trim())) | ConvertFrom-Json } catch { Fail 'this is not a valid install token; copy the command again from the console' }
if (-not $t.apiUrl -or -not $t.serverId -or -not $t.key) { Fail 'this is not a valid install token; copy the command again from the console' }
$api = $t.apiUrl.TrimEnd('/')
Assert-Admin

Say 'Checking the API key with the console'
try { $v = (Invoke-RestMethod -Uri "$api/api/cli/validate_api_key/$($t.key)" -Headers @{ 'x-requested-with' = 'opsdeck' }).data }
catch { Fail "the console refused the key or cannot be reached: $($_.Exception.Message)" }
if ($v.serverId -ne $t.serverId) { Fail 'the key belongs to another server than the token says' }
if ($Port -eq 0) { $Port = [int]$v.agentPort }
Write-Host "    key valid for $($v.hostname); the agent listens on port $Port"

Say "Checking that port $Port is free for the agent"
$holder = Port-Holder $Port
if ($holder -and $holder.Id -ne (Service-Pid)) {
  Fail "port $Port is already in use by $($holder.Name) (pid $($holder.Id)). sb-cli will not start an exporter that cannot listen there: stop that process, or give this server another agent port in the console (or pass -Port N), and run it again. Nothing was changed."
}

if (Get-Service -Name $Service -ErrorAction SilentlyContinue) {
  Say "$Service is already installed"
} else {
  if (-not $MsiSha256.ContainsKey($Arch)) {
    Fail "there is no checksum-pinned windows_exporter MSI for $Arch. Install windows_exporter $ExporterVersion by hand (msiexec /i <msi> ENABLED_COLLECTORS=$Collectors LISTEN_PORT=$Port), then run this command again: it finds the service and reports it."
  }
  $msi = Join-Path $env:TEMP "windows_exporter-$ExporterVersion-$Arch.msi"
  $url = "https://github.com/prometheus-community/windows_exporter/releases/download/v$ExporterVersion/windows_exporter-$ExporterVersion-$Arch.msi"
  Say "Downloading $url"
  # GitHub needs TLS 1.2, which Windows PowerShell 5.1 does not always offer by default.
  [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
  Invoke-WebRequest -Uri $url -OutFile $msi -UseBasicParsing
  $hash = (Get-FileHash -Path $msi -Algorithm SHA256).Hash
  if ($hash -ne $MsiSha256[$Arch]) {
    Remove-Item -Force $msi
    Fail "the downloaded MSI is not windows_exporter $ExporterVersion as published (SHA-256 $hash, expected $($MsiSha256[$Arch])); it was deleted and nothing was installed"
  }
  Write-Host "    SHA-256 verified: $hash"
  Say "Installing windows_exporter $ExporterVersion on port $Port (collectors $Collectors)"
  $p = Start-Process msiexec.exe -Wait -PassThru -ArgumentList @('/i', "`"$msi`"", '/qn', "LISTEN_PORT=$Port", "ENABLED_COLLECTORS=$Collectors")
  Remove-Item -Force $msi -ErrorAction SilentlyContinue
  if ($p.ExitCode -ne 0) { Fail "msiexec failed with exit code $($p.ExitCode)" }
}
if (-not (Get-NetFirewallRule -DisplayName (Rule-Name $Port) -ErrorAction SilentlyContinue)) {
  Say "Opening TCP port $Port in the firewall"
  New-NetFirewallRule -DisplayName (Rule-Name $Port) -Direction Inbound -Protocol TCP -LocalPort $Port -Action Allow | Out-Null
}
if ((Get-Service $Service).Status -ne 'Running') { Say "Starting $Service"; Start-Service $Service }

Say "Waiting for http://127.0.0.1:$Port/metrics to answer"
$ok = $false
$metrics = ''
for ($i = 0; $i -lt 60 -and -not $ok; $i++) {
  try { $metrics = (Invoke-WebRequest -Uri "http://127.0.0.1:$Port/metrics" -UseBasicParsing -TimeoutSec 3).Content; $ok = $metrics -match 'windows_exporter_build_info' } catch { Start-Sleep 1 }
}
if (-not $ok) { Fail "windows_exporter does not answer on port $Port" }
# The exporter answering must be the windows_exporter service's, not another process on the port.
$holder = Port-Holder $Port
$servicePid = Service-Pid
if ($holder -and $servicePid -and $holder.Id -ne $servicePid) {
  Fail "port $Port answers, but from $($holder.Name) (pid $($holder.Id)), not the $Service service (pid $servicePid)"
}
Write-Host "    it is the $Service service (pid $servicePid)"
# An exporter installed before (by hand, or by an older installer) may lack collectors the panels read.
$missing = @('memory', 'process', 'time', 'cpu', 'cs', 'logical_disk', 'net', 'os', 'service', 'system') | Where-Object { $metrics -notmatch "windows_exporter_collector_success\{collector=`"$_`"\}" }
if ($missing) {
  Write-Host "sb-cli: warning: the installed windows_exporter does not collect $($missing -join ', '), which the console's Windows panels read. Reinstall it with ENABLED_COLLECTORS=$Collectors (uninstall, then install again)." -ForegroundColor Yellow
}

Say 'Telling the console the agent is installed'
$body = @{ agentPort = $Port; supervisor = 'process'; exporter = $Service } | ConvertTo-Json -Compress
try { Invoke-RestMethod -Method Post -Uri "$api/api/cli/agent-installed" -Body $body -ContentType 'application/json' -Headers @{ 'x-requested-with' = 'opsdeck'; authorization = "Bearer $($t.key)" } | Out-Null }
catch { Fail "the exporter runs, but the console refused the report: $($_.Exception.Message)" }
Say "Done: the agent runs on port $Port. Continue with 'Check Port Status' in the console."
