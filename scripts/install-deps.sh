#!/bin/sh
# Installs the Debian packages a target needs, only those missing.
# Usage: install-deps.sh build|gir|test|deb|deb-check|bench
set -e
build="libgtk-3-dev libstdc++-12-dev libcurl4-openssl-dev libgumbo-dev libuchardet-dev pkg-config gettext"
# Pageload's introspection data, Vala binding and reference (make pageload, make pageload-docs).
gir="$build gobject-introspection libgirepository1.0-dev gir1.2-gtk-3.0 valac gi-docgen"
# The Pageload examples and their tests: PyGObject, GJS, a C compiler, Vala; the pages' stylesheets of nodejs-doc;
# the gdk-pixbuf loaders of the image formats beyond PNG, JPEG and GIF.
test="$gir gjs gcc w3m nodejs-doc openssl xvfb xauth xdotool x11-utils imagemagick dbus dbus-x11 at-spi2-core python3-gi python3-gi-cairo gir1.2-gtk-3.0 python3-pyatspi desktop-file-utils appstream man-db locales fonts-wqy-microhei fonts-dejavu-core adwaita-icon-theme webp-pixbuf-loader libavif-gdk-pixbuf librsvg2-common"
deb="$gir dpkg-dev binutils"
deb_check="$deb lintian locales"
bench="$test hyperfine dillo netsurf-gtk w3m lynx links2 html2text curl time gcc libx11-dev libxdamage-dev libxtst-dev strace"
case "$1" in
    build) wanted=$build ;;
    gir) wanted=$gir ;;
    test) wanted=$test ;;
    deb) wanted=$deb ;;
    deb-check) wanted=$deb_check ;;
    bench) wanted=$bench ;;
    *) echo "usage: $0 build|gir|test|deb|deb-check|bench" >&2; exit 2 ;;
esac
missing=""
for p in $wanted; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "Installing missing Debian packages:$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
