#!/bin/sh
# The installed programs run on a machine without the Swift toolchain: `make install-files` into a scratch prefix,
# then, in a private mount namespace where /opt/swift is an empty tmpfs, each program does its job. Also checks
# that the command line never maps GTK, and maps libcurl only for the network.
# Usage: Tests/install/installed-without-toolchain.sh .build/release/gtkprogress
set -eu
bin=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix=$(mktemp -d /tmp/gtkprogress-prefix.XXXXXX)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

make -s -C "$root" install-files PREFIX="$prefix" BIN="$bin" >/dev/null
for program in bin/gtkprogress libexec/gtkprogress/gtkprogress-viewer libexec/gtkprogress/gtkprogress-fetch; do
    [ -x "$prefix/$program" ] || fail "$program is not installed"
    ldd "$prefix/$program" | grep -q /opt/swift && fail "$program links against the toolchain: $(ldd "$prefix/$program" | grep /opt/swift)"
    ldd "$prefix/$program" | grep -q "not found" && fail "$program misses a library: $(ldd "$prefix/$program" | grep 'not found')"
done
# FoundationEssentials only: full Foundation would bring ICU's 30 MB of data into every binary (its symbol icudt…).
for program in bin/gtkprogress libexec/gtkprogress/gtkprogress-viewer libexec/gtkprogress/gtkprogress-fetch; do
    nm "$prefix/$program" 2>/dev/null | grep -q " icudt" && fail "$program carries ICU's data: something imports Foundation"
done
ldd "$prefix/bin/gtkprogress" | grep -Eq "libgtk|libgdk|libcurl" && fail "gtkprogress itself links GTK or libcurl"
ldd "$prefix/libexec/gtkprogress/gtkprogress-fetch" | grep -q libgtk && fail "the fetcher links GTK"
# libcurl is opened when the first network load starts and uchardet when an encoding must be guessed, never at
# start-up.
for program in libexec/gtkprogress/gtkprogress-viewer libexec/gtkprogress/gtkprogress-fetch bin/gtkprogress; do
    ldd "$prefix/$program" | grep -q libcurl && fail "$program links libcurl at start-up"
    ldd "$prefix/$program" | grep -q libuchardet && fail "$program links uchardet at start-up"
done

page="$prefix/page.html"
printf '<title>T</title><h1>Installed</h1><p>A <a href="https://example.org/">link</a>.</p>\n' > "$page"
wide="$prefix/wide.html"
printf '<p>%s</p><table><tr><th></th><th>Head</th></tr><tr><td>row</td><td>cell</td></tr></table>\n' \
    "$(printf 'word %.0s' $(seq 40))" > "$wide"
unshare -m sh -s "$prefix" "$page" "$wide" <<'INNER' || fail "the installed programs need the toolchain (output above)"
set -eu
prefix=$1; page=$2; wide=$3
mount -t tmpfs none /opt/swift
[ -z "$(ls /opt/swift)" ]
gp="$prefix/bin/gtkprogress"
"$gp" --version | grep -q "^gtkprogress "
"$gp" --help | grep -q -- "--dump"
"$gp" --print-curve wechat --until 1 | head -1 | grep -q "^0.0"
"$gp" --dump "$page" | grep -q "Installed"
# A paced read goes through the fetcher (the loader without GTK); a network address opens libcurl.
"$gp" --throttle 100000 --dump "$page" | grep -q "Installed"
# --width wraps prose and fits tables, in the command line's own dump and in the fetcher's; a pipe gets 80.
for extra in "" "--throttle 100000"; do
    out=$("$gp" $extra --width 30 --dump "$wide")
    [ -z "$(echo "$out" | awk 'length($0) > 30')" ] || { echo "wider than 30: $out"; exit 1; }
    echo "$out" | grep -q "^    Head$" || { echo "table: $out"; exit 1; }
done
[ "$("$gp" --dump "$wide" | head -1 | wc -c)" -le 81 ] || { echo "a pipe gets more than 80 columns"; exit 1; }
"$gp" --dump http://127.0.0.1:1/ 2>&1 | grep -q "refused the connection"
# The viewer starts far enough to look for a display.
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$gp" 2>&1 || true)
echo "$out" | grep -q "cannot open a display" || { echo "viewer: $out"; exit 1; }
INNER
echo "installed programs run without /opt/swift: ok"
