# GtkProgress: `make run` to start the viewer, `make test` to run every test.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX ?= /usr/local
DESTDIR ?=
BIN ?= .build/release/gtkprogress
# The viewer and the fetcher are taken from beside BIN.
COMPANIONS = $(dir $(BIN))gtkprogress-viewer $(dir $(BIN))gtkprogress-fetch
# Release builds carry the Swift runtime inside, so the installed programs need only Debian's libraries.
RELEASE_FLAGS = -c release --static-swift-stdlib
XVFB = xvfb-run -a -s "-screen 0 1280x1024x24"
# SwiftPM drops the `-pthread` that pkg-config gives for GLib and GTK, with a harmless warning for every target
# and step (about thirty a build); they are filtered so that real warnings stand out. pipefail keeps swift's
# exit status through the pipe.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
QUIET = 2>&1 | { grep -v 'warning: prohibited flag(s): -pthread' || true; }

.PHONY: all build release run test bench install install-files uninstall deps clean screenshot

all: release

deps:
	@scripts/install-deps.sh build

build: deps
	$(SWIFT) build $(QUIET)

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) $(QUIET)

run: release
	$(BIN) $(ARGS)

test: 
	@scripts/install-deps.sh test
	$(SWIFT) build $(QUIET)
	$(SWIFT) build --build-tests $(QUIET)
	$(XVFB) $(SWIFT) test --skip-build $(QUIET)
	$(XVFB) dbus-run-session -- /usr/bin/python3 Tests/ui/run.py .build/debug/gtkprogress
	$(SWIFT) build $(RELEASE_FLAGS) $(QUIET)
	Tests/install/installed-without-toolchain.sh .build/release/gtkprogress

bench: release
	@scripts/install-deps.sh bench
	/usr/bin/python3 bench/run.py $(BIN) $(BENCH_ARGS)

screenshot: release
	$(XVFB) /usr/bin/python3 scripts/screenshot.py $(BIN) docs/screenshot.png

install: release install-files

# Installs the files only, from an existing build (BIN=…).
install-files:
	install -Dm755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gtkprogress
	install -d $(DESTDIR)$(PREFIX)/libexec/gtkprogress
	install -m755 $(COMPANIONS) $(DESTDIR)$(PREFIX)/libexec/gtkprogress/
	install -d $(DESTDIR)$(PREFIX)/share/gtkprogress/curves $(DESTDIR)$(PREFIX)/share/gtkprogress/pages
	install -m644 data/welcome.html $(DESTDIR)$(PREFIX)/share/gtkprogress/
	install -m644 data/curves/*.json $(DESTDIR)$(PREFIX)/share/gtkprogress/curves/
	install -m644 data/pages/*.html $(DESTDIR)$(PREFIX)/share/gtkprogress/pages/
	install -Dm644 data/gtkprogress.desktop $(DESTDIR)$(PREFIX)/share/applications/org.gtkprogress.Viewer.desktop
	sed -i 's|^Exec=gtkprogress|Exec=$(PREFIX)/bin/gtkprogress|' $(DESTDIR)$(PREFIX)/share/applications/org.gtkprogress.Viewer.desktop
	install -Dm644 data/gtkprogress.svg $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/org.gtkprogress.Viewer.svg
	-[ -z "$(DESTDIR)" ] && update-desktop-database -q $(PREFIX)/share/applications 2>/dev/null || true
	-[ -z "$(DESTDIR)" ] && gtk-update-icon-cache -q -t $(PREFIX)/share/icons/hicolor 2>/dev/null || true

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gtkprogress
	rm -rf $(DESTDIR)$(PREFIX)/libexec/gtkprogress
	rm -rf $(DESTDIR)$(PREFIX)/share/gtkprogress
	rm -f $(DESTDIR)$(PREFIX)/share/applications/org.gtkprogress.Viewer.desktop
	rm -f $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/org.gtkprogress.Viewer.svg

clean:
	rm -rf .build
