#!/bin/sh
# Builds gtkprogress_VERSION_ARCH.deb from a release build (make deb): `make install-files` into a staging root
# with PREFIX=/usr, stripped binaries, the man page gzipped, copyright and changelog in usr/share/doc, and Depends
# derived by dpkg-shlibdeps from what the binaries link (Debian Policy 8.6.1), plus libcurl4 and libuchardet0: the
# loader opens libcurl with dlopen at the first network load (Sources/CCurl/ccurl.c) and the decoder opens uchardet
# the first time an encoding must be guessed (Sources/CUchardet/cuchardet.c), which no ELF dependency shows. The Swift
# runtime is linked in statically (--static-swift-stdlib), so nothing from the toolchain is needed at run time.
#
# Pageload (the bar as a GObject widget, `make pageload`) goes into the three packages Debian's GNOME libraries
# use (https://wiki.debian.org/Teams/GnomeTeam/GObjectIntrospection): libpageload-1-0 (the library, named after its
# soname, with a shlibs file), gir1.2-pageload-1 (the typelib, for Python and GJS programs) and libpageload-1-dev
# (the header, the .so link, the .pc file, the .gir and the Vala binding), from the same staging root.
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
printf 'Source: gtkprogress\n\nPackage: gtkprogress\nArchitecture: any\n\nPackage: libpageload-1-0\nArchitecture: any\n' \
    > "$work/debian/control"

multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
[ -f "$(dirname "$bin")/pageload/Pageload-1.typelib" ] || { echo "build-deb.sh: run make pageload first" >&2; exit 1; }
make -s install-files DESTDIR="$PWD/$stage" PREFIX=/usr LIBDIR="/usr/lib/$multiarch" BIN="$bin"

# The Pageload files move from the staging root into their packages.
lib=$work/debian/libpageload-1-0
gir=$work/debian/gir1.2-pageload-1
dev=$work/debian/libpageload-1-dev
libdir=usr/lib/$multiarch
for p in "$lib" "$gir" "$dev"; do mkdir -p "$p/DEBIAN" "$p/$libdir"; done
mv "$stage/$libdir/libpageload-1.so.0.0.0" "$stage/$libdir/libpageload-1.so.0" "$lib/$libdir/"
mkdir -p "$gir/$libdir/girepository-1.0" "$dev/usr/share"
mv "$stage/$libdir/girepository-1.0/Pageload-1.typelib" "$gir/$libdir/girepository-1.0/"
mv "$stage/$libdir/libpageload-1.so" "$stage/$libdir/pkgconfig" "$dev/$libdir/"
mv "$stage/usr/include" "$dev/usr/"
mv "$stage/usr/share/gir-1.0" "$stage/usr/share/vala" "$dev/usr/share/"
rmdir "$stage/$libdir/girepository-1.0" "$stage/$libdir" "$stage/usr/lib"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$lib/$libdir/libpageload-1.so.0.0.0"
# What dh_strip does: https://www.debian.org/doc/debian-policy/ch-files.html#binaries
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
    "$stage/usr/bin/gtkprogress" "$stage/usr/libexec/gtkprogress/gtkprogress-viewer" \
    "$stage/usr/libexec/gtkprogress/gtkprogress-fetch"
gzip -9n "$stage/usr/share/man/man1/gtkprogress.1"
for p in gtkprogress libpageload-1-0 gir1.2-pageload-1 libpageload-1-dev; do
    doc=$work/debian/$p/usr/share/doc/$p
    install -Dm644 packaging/deb/copyright "$doc/copyright"
    gzip -9n < packaging/deb/changelog > "$doc/changelog.gz"
    chmod 644 "$doc/changelog.gz"
done

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

# The library's users depend on this version or later (Debian Policy 8.6.4); ldconfig runs after it is unpacked.
lib_depends=$(cd "$work" && dpkg-shlibdeps -O "debian/libpageload-1-0/$libdir/libpageload-1.so.0.0.0" \
    2>shlibdeps.log | sed -n 's/^shlibs:Depends=//p')
[ -n "$lib_depends" ] || { cat "$work/shlibdeps.log" >&2; echo "build-deb.sh: no dependencies for libpageload" >&2; exit 1; }
printf 'libpageload-1 0 libpageload-1-0 (>= %s)\n' "$version" > "$lib/DEBIAN/shlibs"
printf 'activate-noawait ldconfig\n' > "$lib/DEBIAN/triggers"
chmod 644 "$lib/DEBIAN/shlibs" "$lib/DEBIAN/triggers"
gir_depends="libpageload-1-0 (= $version), gir1.2-gtk-3.0"
dev_depends="libpageload-1-0 (= $version), gir1.2-pageload-1 (= $version), libgtk-3-dev"
for p in libpageload-1-0 gir1.2-pageload-1 libpageload-1-dev; do
    root=$work/debian/$p
    case $p in
        libpageload-1-0) depends=$lib_depends ;;
        gir1.2-pageload-1) depends=$gir_depends ;;
        libpageload-1-dev) depends=$dev_depends ;;
    esac
    installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
    sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
        -e "s/@DEPENDS@/$depends/" "packaging/deb/$p.control.in" > "$root/DEBIAN/control"
    (cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$root/DEBIAN/md5sums"
    chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
    find "$root" -type d -exec chmod 755 {} +
    deb=$out/${p}_${version}_${arch}.deb
    dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
    echo "$deb"
done
