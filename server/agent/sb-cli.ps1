# sb-cli 0.0.2 for Windows: installs the Opsdeck monitoring agent (Prometheus windows_exporter).
#
#   & ([scriptblock]::Create((Invoke-RestMethod '<console>/cli/0.0.2/sb-cli.ps1'))) install -Token '<token>'
#   & ([scriptblock]::Create((Invoke-RestMethod '<console>/cli/0.0.2/sb-cli.ps1'))) uninstall
#
# Run in PowerShell as Administrator. install: decodes the token, asks the console for the agent
# port, installs windows_exporter from its official MSI (GitHub releases) unless the service
# exists, opens the port in the firewall, waits until /metrics answers and reports to the
# console. uninstall: the console's delete instructions (stop and delete the service, remove
# the directory, remove the firewall rule).
param(
  [Parameter(Position = 0)][ValidateSet('install', 'uninstall', 'version')][string]$Command = 'install',
  [string]$Token,
  [string]$Arch = 'amd64',
  [int]$Port = 0,
  [string]$ExporterVersion = '0.25.1'
)

$ErrorActionPreference = 'Stop'
$Service = 'windows_exporter'
$InstallDir = 'C:\Program Files\windows_exporter'
function Say($text) { Write-Host "==> $text" }
function Fail($text) { Write-Host "sb-cli: error: $text" -ForegroundColor Red; exit 1 }

function Assert-Admin {
  $id = [Security.Principal.WindowsIdentity]::GetCurrent()
  if (-not (New-Object Security.Principal.WindowsPrincipal($id)).IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
    Fail 'run PowerShell as Administrator'
  }
}

function Rule-Name($p) { "windows_exporter (TCP $p)" }

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

if (Get-Service -Name $Service -ErrorAction SilentlyContinue) {
  Say "$Service is already installed"
} else {
  $msi = Join-Path $env:TEMP "windows_exporter-$ExporterVersion-$Arch.msi"
  $url = "https://github.com/prometheus-community/windows_exporter/releases/download/v$ExporterVersion/windows_exporter-$ExporterVersion-$Arch.msi"
  Say "Downloading $url"
  Invoke-WebRequest -Uri $url -OutFile $msi -UseBasicParsing
  Say "Installing windows_exporter $ExporterVersion on port $Port"
  $p = Start-Process msiexec.exe -Wait -PassThru -ArgumentList @('/i', "`"$msi`"", '/qn', "LISTEN_PORT=$Port")
  if ($p.ExitCode -ne 0) { Fail "msiexec failed with exit code $($p.ExitCode)" }
}
if (-not (Get-NetFirewallRule -DisplayName (Rule-Name $Port) -ErrorAction SilentlyContinue)) {
  Say "Opening TCP port $Port in the firewall"
  New-NetFirewallRule -DisplayName (Rule-Name $Port) -Direction Inbound -Protocol TCP -LocalPort $Port -Action Allow | Out-Null
}
if ((Get-Service $Service).Status -ne 'Running') { Say "Starting $Service"; Start-Service $Service }

Say "Waiting for http://127.0.0.1:$Port/metrics to answer"
$ok = $false
for ($i = 0; $i -lt 60 -and -not $ok; $i++) {
  try { $ok = (Invoke-WebRequest -Uri "http://127.0.0.1:$Port/metrics" -UseBasicParsing -TimeoutSec 3).Content -match 'windows_exporter_build_info' } catch { Start-Sleep 1 }
}
if (-not $ok) { Fail "windows_exporter does not answer on port $Port" }

Say 'Telling the console the agent is installed'
$body = @{ agentPort = $Port; supervisor = 'process'; exporter = $Service } | ConvertTo-Json -Compress
try { Invoke-RestMethod -Method Post -Uri "$api/api/cli/agent-installed" -Body $body -ContentType 'application/json' -Headers @{ 'x-requested-with' = 'opsdeck'; authorization = "Bearer $($t.key)" } | Out-Null }
catch { Fail "the exporter runs, but the console refused the report: $($_.Exception.Message)" }
Say "Done: the agent runs on port $Port. Continue with 'Check Port Status' in the console."
