#!/bin/sh
# Builds gtkprogress_VERSION_ARCH.deb from a release build (make deb): `make install-files` into a staging root
# with PREFIX=/usr, stripped binaries, the man page gzipped, copyright and changelog in usr/share/doc, and Depends
# derived by dpkg-shlibdeps from what the binaries link (Debian Policy 8.6.1), plus libcurl4 and libuchardet0: the
# loader opens libcurl with dlopen at the first network load (Sources/CCurl/ccurl.c) and the decoder opens uchardet
# the first time an encoding must be guessed (Sources/CUchardet/cuchardet.c), which no ELF dependency shows. The Swift
# runtime is linked in statically (--static-swift-stdlib), so nothing from the toolchain is needed at run time.
# Usage: build-deb.sh [BIN [OUTDIR]]
set -eu
bin=${1:-.build/release/gtkprogress}
out=${2:-.}
viewer=$(dirname "$bin")/gtkprogress-viewer
fetch=$(dirname "$bin")/gtkprogress-fetch
version=$("$bin" --version | sed -n 's/^gtkprogress //p')
arch=$(dpkg --print-architecture)
[ -n "$version" ] || { echo "build-deb.sh: no version from $bin --version" >&2; exit 1; }
for b in "$bin" "$viewer" "$fetch"; do
    if readelf -d "$b" | grep -q 'libswiftCore\|RUNPATH\|RPATH'; then
        echo "build-deb.sh: $b links the Swift runtime dynamically or sets a library path; build it with" \
             "swift build -c release --static-swift-stdlib --disable-local-rpath" >&2
        exit 1
    fi
done

# dpkg-shlibdeps expects the source-package layout: debian/control beside debian/PACKAGE/.
work=.build/deb
stage=$work/debian/gtkprogress
rm -rf "$work"
mkdir -p "$stage/DEBIAN"
printf 'Source: gtkprogress\n\nPackage: gtkprogress\nArchitecture: any\n' > "$work/debian/control"

make -s install-files DESTDIR="$PWD/$stage" PREFIX=/usr BIN="$bin"
# What dh_strip does: https://www.debian.org/doc/debian-policy/ch-files.html#binaries
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
    "$stage/usr/bin/gtkprogress" "$stage/usr/libexec/gtkprogress/gtkprogress-viewer" \
    "$stage/usr/libexec/gtkprogress/gtkprogress-fetch"
gzip -9n "$stage/usr/share/man/man1/gtkprogress.1"
doc=$stage/usr/share/doc/gtkprogress
install -Dm644 packaging/deb/copyright "$doc/copyright"
gzip -9n < packaging/deb/changelog > "$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"

depends=$(cd "$work" && dpkg-shlibdeps -O debian/gtkprogress/usr/bin/gtkprogress \
    debian/gtkprogress/usr/libexec/gtkprogress/gtkprogress-viewer \
    debian/gtkprogress/usr/libexec/gtkprogress/gtkprogress-fetch 2>shlibdeps.log | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { cat "$work/shlibdeps.log" >&2; echo "build-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# ccurl.c opens libcurl.so.4, which Debian ships in libcurl4; CURLOPT_PROTOCOLS_STR needs 7.85.0
# (https://curl.se/libcurl/c/CURLOPT_PROTOCOLS_STR.html).
# cuchardet.c opens libuchardet.so.0 (libuchardet0; uchardet_get_charset's WHATWG-style names since 0.0.6).
depends="$depends, libcurl4 (>= 7.85.0), libuchardet0 (>= 0.0.6)"
installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
    -e "s/@DEPENDS@/$depends/" packaging/deb/control.in > "$stage/DEBIAN/control"
(cd "$stage" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 755 {} +

deb=$out/gtkprogress_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
