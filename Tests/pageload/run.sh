#!/bin/sh
# Pageload as an application outside this tree meets it: `make install-files` into a temporary PREFIX, then
#   - the library: its soname, no Swift runtime or search path needed, only the C interface exported;
#   - a Python process that loads it holds no Swift runtime library (the one inside the library is its only one),
#     and the widget's properties, signals, accessible and errors are as documented (check_api.py);
#   - the C example built with pkg-config alone, the Vala example built from the installed binding;
#   - the Python, GJS, C and Vala examples run, and the bar read back from the screen (check_examples.py).
# Needs an X server (make test runs it under scripts/xvfb-session) and a staged library (make pageload BIN=...).
# Usage: Tests/pageload/run.sh BIN
set -eu
bin=$1
root=$(mktemp -d /tmp/pageload-installed.XXXXXX)
trap 'rm -rf "$root"' EXIT
make -s install-files BIN="$bin" PREFIX="$root/usr" >/dev/null
lib=$root/usr/lib
so=$lib/libpageload-1.so.0.0.0
fail() { echo "FAIL $*" >&2; exit 1; }

readelf -d "$so" | grep -q 'Library soname: \[libpageload-1.so.0\]' || fail "$so: no soname libpageload-1.so.0"
! readelf -d "$so" | grep -E 'NEEDED.*libswift|NEEDED.*libFoundation|NEEDED.*libdispatch|RPATH|RUNPATH' \
    || fail "$so needs the Swift toolchain's libraries or sets a search path"
# Global symbols only (LOCAL ones are lower-case in nm), besides the version node.
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[A-Z]$/ && $2 != "A" { print $3 }')
others=$(printf '%s\n' "$exported" | grep -v '^pageload_' || true)
[ -z "$others" ] || fail "$so exports more than its C interface: $(printf '%s\n' "$others" | head -5)"
echo "library: soname libpageload-1.so.0, $(printf '%s\n' "$exported" | wc -l) symbols exported, all pageload_*"

export LD_LIBRARY_PATH="$lib" GI_TYPELIB_PATH="$lib/girepository-1.0" PKG_CONFIG_PATH="$lib/pkgconfig"
/usr/bin/python3 Tests/pageload/check_api.py "$so"

# The examples, copied out of the tree: they find the library only where it was installed.
cp -r Examples/pageload-python Examples/pageload-gjs Examples/pageload-c Examples/pageload-vala "$root/"
cc -Wall -Wextra -Werror -o "$root/c-demo" "$root/pageload-c/bar-demo.c" $(pkg-config --cflags --libs pageload-1)
echo "c: built with pkg-config alone"
# valac 0.56 declares its type-id guards volatile, which GCC 12 warns of inside GLib's g_once_init_enter.
valac --quiet --vapidir="$root/usr/share/vala/vapi" --pkg pageload-1 -X -Wno-incompatible-pointer-types \
    --directory="$root" -o vala-demo "$root/pageload-vala/bar-demo.vala"
echo "vala: built from the installed binding"

/usr/bin/python3 Tests/pageload/check_examples.py --gtkprogress "$bin" \
    "python=/usr/bin/python3 $root/pageload-python/bar-demo.py" \
    "gjs=gjs $root/pageload-gjs/bar-demo.js" \
    "c=$root/c-demo" \
    "vala=$root/vala-demo"
