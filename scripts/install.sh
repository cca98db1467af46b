#!/bin/sh
# Installs clew: picks the build for this OS, CPU, libc and AVX2 support, downloads the release
# manifest and its Ed25519 signature, verifies the signature (openssl), then the file's size and
# sha256, smoke-tests `clew --version`, and moves it into place with one rename. Nothing partial
# is ever left at the destination.
#
#   sh install.sh [latest|stable|VERSION]
#
# CLEW_DOWNLOAD_URL  a channel's release folder: https://…, file://… or a local folder
#                    (default https://clew.invalid/releases/latest — a placeholder until the
#                    project has a release host; set this variable meanwhile)
# CLEW_TRUSTED_KEY   a PEM public key file trusted instead of the key embedded below (mirrors, tests)
# CLEW_INSTALL_DIR   where clew goes (default ~/.local/bin)
set -eu

# The project's release public key (PEM); scripts/release.ts fills it in. Empty: CLEW_TRUSTED_KEY is required.
CLEW_RELEASE_PUBLIC_KEY=''
DEFAULT_URL='https://clew.invalid/releases/latest'

die() {
  printf 'clew install: %s\n' "$*" >&2
  exit 1
}
say() { printf '%s\n' "$*"; }

target=${1:-}
case $target in
  '' | latest | stable) ;;
  *) printf '%s\n' "$target" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[^[:space:]]+)?$' || die "usage: install.sh [latest|stable|VERSION] ('$target' is none of these)" ;;
esac

base=${CLEW_DOWNLOAD_URL:-$DEFAULT_URL}
base=${base%/}
if [ -n "$target" ]; then
  case ${base##*/} in latest | stable) base="${base%/*}/$target" ;; esac
fi
install_dir=${CLEW_INSTALL_DIR:-${HOME:?HOME is not set}/.local/bin}

# --- platform ---------------------------------------------------------------------------------
case $(uname -s) in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN*) die "on Windows, run install.ps1 in PowerShell" ;;
  *) die "clew has no build for $(uname -s)" ;;
esac
case $(uname -m) in
  x86_64 | amd64) arch=x64 ;;
  arm64 | aarch64) arch=arm64 ;;
  *) die "clew has no build for CPU $(uname -m)" ;;
esac
# An x64 shell under Rosetta on Apple Silicon still gets the native arm64 build.
if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then arch=arm64; fi
platform="$os-$arch"
if [ "$os" = linux ]; then
  if [ -f /lib/libc.musl-x86_64.so.1 ] || [ -f /lib/libc.musl-aarch64.so.1 ] || ldd --version 2>&1 | grep -qi musl; then
    [ "$arch" = x64 ] || die "clew has no build for musl on $arch"
    platform=linux-x64-musl
  elif [ "$arch" = x64 ] && [ -r /proc/cpuinfo ] && ! grep -q '^flags.*[[:space:]]avx2\([[:space:]]\|$\)' /proc/cpuinfo; then
    # The default x64 build needs AVX2; older CPUs get the baseline build instead of a crash.
    platform=linux-x64-baseline
  fi
fi

# --- downloads --------------------------------------------------------------------------------
fetch() { # fetch NAME DESTINATION
  case $base in
    http://* | https://*)
      if command -v curl >/dev/null 2>&1; then
        curl -fsSL --retry 2 -o "$2" "$base/$1" || die "could not download $base/$1 (curl exit $?; behind a proxy? set HTTPS_PROXY)"
      elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$base/$1" || die "could not download $base/$1 (wget; behind a proxy? set HTTPS_PROXY)"
      else
        die "curl or wget is needed to download from $base"
      fi
      ;;
    file://*) cp "${base#file://}/$1" "$2" 2>/dev/null || die "${base#file://}/$1 cannot be read" ;;
    *) cp "$base/$1" "$2" 2>/dev/null || die "$base/$1 cannot be read" ;;
  esac
}

work=$(mktemp -d "${TMPDIR:-/tmp}/clew-install.XXXXXX")
staged=''
cleanup() {
  rm -rf "$work"
  if [ -n "$staged" ]; then rm -f "$staged"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

say "Installing clew for $platform from $base"
fetch manifest.json "$work/manifest.json"
fetch manifest.json.sig "$work/manifest.json.sig"

# --- signature --------------------------------------------------------------------------------
command -v openssl >/dev/null 2>&1 || die "openssl is needed to verify the release signature (install it, e.g. apt-get install openssl)"
if [ -n "${CLEW_TRUSTED_KEY:-}" ]; then
  [ -r "$CLEW_TRUSTED_KEY" ] || die "CLEW_TRUSTED_KEY names $CLEW_TRUSTED_KEY, which cannot be read"
  key=$CLEW_TRUSTED_KEY
  key_label="the key in $CLEW_TRUSTED_KEY (CLEW_TRUSTED_KEY)"
elif [ -n "$CLEW_RELEASE_PUBLIC_KEY" ]; then
  key="$work/release.pem"
  printf '%s\n' "$CLEW_RELEASE_PUBLIC_KEY" >"$key"
  key_label="the clew release key"
else
  die "this install script has no embedded release key; set CLEW_TRUSTED_KEY to the release's PEM public key file"
fi
tr -d ' \r\n' <"$work/manifest.json.sig" | openssl base64 -d -A -out "$work/signature.bin" 2>/dev/null || die "signature check failed: manifest.json.sig is not base64"
openssl pkeyutl -verify -pubin -inkey "$key" -rawin -in "$work/manifest.json" -sigfile "$work/signature.bin" >/dev/null 2>&1 ||
  die "signature check failed: manifest.json is not signed by $key_label"
say "Verified manifest.json, signed by $key_label"

# --- the platform's entry (the manifest is trusted from here on) ------------------------------
compact=$(tr -d ' \t\r\n' <"$work/manifest.json")
version=$(printf '%s' "$compact" | sed -n 's/^{.*"version":"\([^"]*\)".*$/\1/p')
entry=$(printf '%s' "$compact" | sed -n 's/.*"'"$platform"'":{\([^}]*\)}.*/\1/p')
[ -n "$entry" ] || die "platform check failed: release $version has no build for $platform"
file=$(printf '%s' "$entry" | sed -n 's/.*"file":"\([^"]*\)".*/\1/p')
size=$(printf '%s' "$entry" | sed -n 's/.*"size":\([0-9][0-9]*\).*/\1/p')
sha256=$(printf '%s' "$entry" | sed -n 's/.*"sha256":"\([0-9a-f]\{64\}\)".*/\1/p')
case $file in '' | */* | .*) die "manifest check failed: the $platform entry has no usable file name" ;; esac
[ -n "$size" ] && [ -n "$sha256" ] || die "manifest check failed: the $platform entry lacks size or sha256"

mkdir -p "$install_dir" || die "cannot create $install_dir"
# Staged beside the destination so the final mv is a rename within one file system.
staged=$(mktemp "$install_dir/.clew.install.XXXXXX") || die "cannot write to $install_dir"
say "Downloading $file ($size bytes)…"
fetch "$file" "$staged"

actual=$(wc -c <"$staged" | tr -d ' ')
[ "$actual" = "$size" ] || die "size check failed: $file is $actual bytes, the signed manifest says $size (truncated or altered download)"
if command -v sha256sum >/dev/null 2>&1; then
  digest=$(sha256sum "$staged" | cut -d ' ' -f 1)
elif command -v shasum >/dev/null 2>&1; then
  digest=$(shasum -a 256 "$staged" | cut -d ' ' -f 1)
else
  digest=$(openssl dgst -sha256 -r "$staged" | cut -d ' ' -f 1)
fi
[ "$digest" = "$sha256" ] || die "sha256 check failed: $file has sha256 $digest, the signed manifest says $sha256"
chmod 755 "$staged"
if command -v timeout >/dev/null 2>&1; then printed=$(timeout 10 "$staged" --version 2>/dev/null || true); else printed=$("$staged" --version 2>/dev/null || true); fi
[ "${printed%% *}" = "$version" ] || die "smoke test failed: $file --version printed '${printed}', not $version"
say "Verified $file: size, sha256, and --version prints $version"

mv -f "$staged" "$install_dir/clew"
staged=''
say "clew $version installed to $install_dir/clew"
case ":${PATH:-}:" in
  *":$install_dir:"*) ;;
  *)
    say "$install_dir is not on your PATH. Add it with:"
    say "  echo 'export PATH=\"$install_dir:\$PATH\"' >> ~/.profile   # or ~/.bashrc, ~/.zshrc"
    ;;
esac
