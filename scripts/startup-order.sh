#!/bin/sh
# Regenerates build-aux/startup.order: the functions of the release binaries that run while the viewer opens a
# page and while `gtkprogress --dump` prints one, found with Valgrind's callgrind
# (https://valgrind.org/docs/manual/cl-manual.html). The release link (Makefile, RELEASE_FLAGS) gives the list to
# lld's --symbol-ordering-file, which places those functions side by side at the start of .text: start-up then
# touches a few hundred kilobytes of code instead of pages spread over the whole 9 MB (the kernel maps file pages
# around every fault, so scattered code costs resident memory far beyond its size). Names that no longer exist
# are skipped by the linker; a stale list costs locality, never correctness.
# Usage: scripts/startup-order.sh [BIN]   (BIN: a release build of gtkprogress; needs valgrind and xvfb-run)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$root/.build/release/gtkprogress}")
dir=$(dirname "$bin")
work=$(mktemp -d /tmp/gtkprogress-order.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"; rm -f "$dir"/gtkprogress*.profiling' EXIT
command -v valgrind >/dev/null || { echo "startup-order.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }

# Valgrind 3.19 cannot read the DWARF 5 the toolchain writes: the programs run without it (the symbols stay),
# beside the originals so that they find the data files as the originals do.
for program in gtkprogress gtkprogress-viewer gtkprogress-fetch; do
    strip --strip-debug -o "$dir/$program.profiling" "$dir/$program"
done
page="$root/data/pages/shortcuts.html"
profile() { # OUT PROGRAM ARGS...: callgrind output of PROGRAM, which exits by itself
    out=$1; shift
    valgrind -q --tool=callgrind --demangle=no --compress-strings=no --callgrind-out-file="$out" "$@" >/dev/null
}
profile "$work/dump.out" "$dir/gtkprogress.profiling" --dump "$page"
profile "$work/dump-doc.out" "$dir/gtkprogress.profiling" --width 100 --dump "$root/data/pages/large.html"
# A page of tiny paragraphs, which `--dump` prints while it reads it (`DumpOutput`): the bench's pagemem shape.
{ printf '<!DOCTYPE html><title>p</title>'; i=0; while [ $i -lt 20000 ]; do printf '<p>x'; i=$((i + 1)); done; } \
    > "$work/paragraphs.html"
profile "$work/dump-paragraphs.out" "$dir/gtkprogress.profiling" --dump "$work/paragraphs.html"
profile "$work/help.out" "$dir/gtkprogress.profiling" --help
profile "$work/fetch.out" "$dir/gtkprogress-fetch.profiling" --dump "$page"

# The viewer: the welcome page and the shortcut page (tables, links), each until it has been shown for a while.
cat > "$work/viewer.sh" <<'INNER'
set -eu
work=$1; viewer=$2; shift 2
export HOME="$work/home" XDG_STATE_HOME="$work/state" GDK_BACKEND=x11 NO_AT_BRIDGE=1
n=0
for page in "$@"; do
    n=$((n + 1))
    valgrind -q --tool=callgrind --demangle=no --compress-strings=no --callgrind-out-file="$work/viewer$n.out" \
        "$viewer" --new-session "$page" >/dev/null 2>&1 &
    pid=$!
    sleep 25
    callgrind_control -d "$pid" >/dev/null
    sleep 3
    kill "$pid"; wait "$pid" 2>/dev/null || true
done
INNER
xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- sh "$work/viewer.sh" "$work" \
    "$dir/gtkprogress-viewer.profiling" "$root/data/welcome.html" "$page"

# Every function with cost, named as the linker knows it, in three groups: those only the viewer runs, those both
# the viewer and the command line run, those only the command line runs. Each program's hot code is then one
# stretch (names a binary lacks take no room in it): the viewer's is the first two groups, `--dump`'s the last two.
# The kernel maps a file's pages 64 KB around every fault, so a shared function sorted among viewer-only ones
# would pull their pages into every `--dump`.
names() {
    cat "$@" | awk '
        /^ob=/ { ours = ($0 ~ /gtkprogress[^\/]*\.profiling$/) }
        /^fn=/ && ours { name = $0; sub(/^fn=\([0-9]+\) ?/, "", name); sub(/^fn=/, "", name)
                         if (name != "" && name !~ /^0x/ && name !~ /'"'"'/) print name }' | sort -u
}
names "$work"/viewer*.out* > "$work/viewer"
names "$work"/dump*.out* "$work"/help.out* "$work"/fetch.out* > "$work/command-line"
{ comm -23 "$work/viewer" "$work/command-line"; comm -12 "$work/viewer" "$work/command-line"
  comm -13 "$work/viewer" "$work/command-line"; } > "$work/order"
count=$(wc -l < "$work/order")
[ "$count" -gt 500 ] || { echo "startup-order.sh: only $count functions found" >&2; exit 1; }
cp "$work/order" "$root/build-aux/startup.order"
echo "build-aux/startup.order: $count functions"
