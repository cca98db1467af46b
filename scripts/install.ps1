# Installs clew on Windows: downloads the release manifest and its Ed25519 signature, verifies the
# signature (with openssl, which Git for Windows ships — .NET has no Ed25519), then the file's size
# and sha256, smoke-tests `clew --version`, and moves it into place with one rename. Nothing partial
# is ever left at the destination.
#
#   powershell -ExecutionPolicy Bypass -File install.ps1 [latest|stable|VERSION]
#
# CLEW_DOWNLOAD_URL  a channel's release folder: https://…, file://… or a local folder
#                    (default https://clew.invalid/releases/latest — a placeholder until the
#                    project has a release host; set this variable meanwhile)
# CLEW_TRUSTED_KEY   a PEM public key file trusted instead of the key embedded below
# CLEW_INSTALL_DIR   where clew.exe goes (default %USERPROFILE%\.local\bin)
param([string]$Target = "")
$ErrorActionPreference = "Stop"

# The project's release public key (PEM); scripts/release.ts fills it in. Empty: CLEW_TRUSTED_KEY is required.
$ReleasePublicKey = ''
$DefaultUrl = 'https://clew.invalid/releases/latest'

function Fail([string]$Message) {
  [Console]::Error.WriteLine("clew install: $Message")
  exit 1
}

if ($Target -ne "" -and $Target -notmatch '^(latest|stable|\d+\.\d+\.\d+(-\S+)?)$') { Fail "usage: install.ps1 [latest|stable|VERSION] ('$Target' is none of these)" }
$Base = if ($env:CLEW_DOWNLOAD_URL) { $env:CLEW_DOWNLOAD_URL.TrimEnd('/') } else { $DefaultUrl }
if ($Target -ne "" -and ($Base -match '/(latest|stable)$')) { $Base = $Base -replace '/(latest|stable)$', "/$Target" }
$InstallDir = if ($env:CLEW_INSTALL_DIR) { $env:CLEW_INSTALL_DIR } else { Join-Path $env:USERPROFILE ".local\bin" }

$Arch = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture
if ($Arch -ne [System.Runtime.InteropServices.Architecture]::X64) { Fail "clew has no Windows build for $Arch" }
$Platform = "windows-x64"

function Fetch([string]$Name, [string]$Destination) {
  try {
    if ($Base -match '^https?://') { Invoke-WebRequest -UseBasicParsing -Uri "$Base/$Name" -OutFile $Destination }
    elseif ($Base -match '^file://') { Copy-Item -LiteralPath (Join-Path ([Uri]$Base).LocalPath $Name) -Destination $Destination }
    else { Copy-Item -LiteralPath (Join-Path $Base $Name) -Destination $Destination }
  } catch { Fail "could not get $Base/$Name ($($_.Exception.Message)); behind a proxy? set HTTPS_PROXY" }
}

$Work = Join-Path ([System.IO.Path]::GetTempPath()) ("clew-install-" + [System.Guid]::NewGuid())
New-Item -ItemType Directory -Path $Work | Out-Null
$Staged = $null
try {
  Write-Output "Installing clew for $Platform from $Base"
  $Manifest = Join-Path $Work "manifest.json"
  Fetch "manifest.json" $Manifest
  Fetch "manifest.json.sig" (Join-Path $Work "manifest.json.sig")

  $OpenSsl = Get-Command openssl -ErrorAction SilentlyContinue
  if (-not $OpenSsl) {
    $GitOpenSsl = Join-Path $env:ProgramFiles "Git\usr\bin\openssl.exe"
    if (Test-Path $GitOpenSsl) { $OpenSsl = Get-Command $GitOpenSsl } else { Fail "openssl is needed to verify the release signature (Git for Windows ships it)" }
  }
  if ($env:CLEW_TRUSTED_KEY) {
    if (-not (Test-Path -LiteralPath $env:CLEW_TRUSTED_KEY)) { Fail "CLEW_TRUSTED_KEY names $($env:CLEW_TRUSTED_KEY), which cannot be read" }
    $Key = $env:CLEW_TRUSTED_KEY
    $KeyLabel = "the key in $Key (CLEW_TRUSTED_KEY)"
  } elseif ($ReleasePublicKey -ne '') {
    $Key = Join-Path $Work "release.pem"
    Set-Content -LiteralPath $Key -Value $ReleasePublicKey -Encoding ascii
    $KeyLabel = "the clew release key"
  } else { Fail "this install script has no embedded release key; set CLEW_TRUSTED_KEY to the release's PEM public key file" }
  $SignatureText = (Get-Content -Raw -LiteralPath (Join-Path $Work "manifest.json.sig")).Trim()
  try { $SignatureBytes = [Convert]::FromBase64String($SignatureText) } catch { Fail "signature check failed: manifest.json.sig is not base64" }
  $SignatureFile = Join-Path $Work "signature.bin"
  [System.IO.File]::WriteAllBytes($SignatureFile, $SignatureBytes)
  & $OpenSsl.Source pkeyutl -verify -pubin -inkey $Key -rawin -in $Manifest -sigfile $SignatureFile *> $null
  if ($LASTEXITCODE -ne 0) { Fail "signature check failed: manifest.json is not signed by $KeyLabel" }
  Write-Output "Verified manifest.json, signed by $KeyLabel"

  $Release = Get-Content -Raw -LiteralPath $Manifest | ConvertFrom-Json
  $Entry = $Release.platforms.$Platform
  if (-not $Entry) { Fail "platform check failed: release $($Release.version) has no build for $Platform" }
  if ($Entry.file -notmatch '^[A-Za-z0-9._-]+$' -or $Entry.file.StartsWith('.')) { Fail "manifest check failed: the $Platform entry has no usable file name" }

  New-Item -ItemType Directory -Force -Path $InstallDir | Out-Null
  # Staged beside the destination so the final move is a rename within one volume.
  $Staged = Join-Path $InstallDir (".clew.install." + [System.Guid]::NewGuid() + ".exe")
  Write-Output "Downloading $($Entry.file) ($($Entry.size) bytes)…"
  Fetch $Entry.file $Staged
  $Size = (Get-Item -LiteralPath $Staged).Length
  if ($Size -ne [long]$Entry.size) { Fail "size check failed: $($Entry.file) is $Size bytes, the signed manifest says $($Entry.size) (truncated or altered download)" }
  $Digest = (Get-FileHash -Algorithm SHA256 -LiteralPath $Staged).Hash.ToLowerInvariant()
  if ($Digest -ne $Entry.sha256) { Fail "sha256 check failed: $($Entry.file) has sha256 $Digest, the signed manifest says $($Entry.sha256)" }
  $Job = Start-Job -ScriptBlock { param($Path) & $Path --version 2>$null } -ArgumentList $Staged
  $Printed = if (Wait-Job $Job -Timeout 10) { (Receive-Job $Job | Out-String).Trim() } else { Stop-Job $Job; "" }
  Remove-Job $Job -Force
  if (($Printed -split ' ')[0] -ne $Release.version) { Fail "smoke test failed: $($Entry.file) --version printed '$Printed', not $($Release.version)" }
  Write-Output "Verified $($Entry.file): size, sha256, and --version prints $($Release.version)"

  $Destination = Join-Path $InstallDir "clew.exe"
  Move-Item -Force -LiteralPath $Staged -Destination $Destination
  $Staged = $null
  Write-Output "clew $($Release.version) installed to $Destination"
  $UserPath = [Environment]::GetEnvironmentVariable("Path", "User")
  if (-not (($UserPath -split ';') -contains $InstallDir)) {
    Write-Output "$InstallDir is not on your PATH. Add it with:"
    Write-Output "  [Environment]::SetEnvironmentVariable('Path', [Environment]::GetEnvironmentVariable('Path', 'User') + ';$InstallDir', 'User')"
  }
} finally {
  if ($Staged -and (Test-Path -LiteralPath $Staged)) { Remove-Item -Force -LiteralPath $Staged }
  Remove-Item -Recurse -Force -LiteralPath $Work -ErrorAction SilentlyContinue
}
