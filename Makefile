# GtkProgress: `make run` to start the viewer, `make test` to run every test.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX ?= /usr/local
DESTDIR ?=
BIN ?= .build/release/gtkprogress
# The viewer and the fetcher are taken from beside BIN.
COMPANIONS = $(dir $(BIN))gtkprogress-viewer $(dir $(BIN))gtkprogress-fetch
# Release builds carry the Swift runtime inside, so the installed programs need only Debian's libraries; no $$ORIGIN
# search path; read-only relocations bound at start (Debian hardening: https://wiki.debian.org/Hardening).
# Linked by the toolchain's lld: relative relocations packed as DT_RELR (glibc 2.36; 7 KB instead of a 900 KB
# table read at every start) and the functions start-up and `--dump` run placed together (build-aux/startup.order,
# made by scripts/startup-order.sh, `make order`): the kernel maps 64 KB of file pages around every fault, so code
# spread over the 9 MB text costs resident memory far beyond its size. It buys the window under 5% but `--dump`
# about 1 MB of its 11 MB floor, which keeps a page of tiny paragraphs within 5× its size (README, "How it works",
# start-up). A statically linked libstdc++ was measured against its removal and removed.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --symbol-ordering-file=$(CURDIR)/build-aux/startup.order -Xlinker --no-warn-symbol-ordering
XVFB = scripts/xvfb-session
# SwiftPM drops the `-pthread` that pkg-config gives for GLib and GTK, with a harmless warning for every target
# and step (about thirty a build); they are filtered so that real warnings stand out. pipefail keeps swift's
# exit status through the pipe.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
QUIET = 2>&1 | { grep -v 'warning: prohibited flag(s): -pthread' || true; }
# Message catalogues: po/LANG.po compiled to .build/locale, where a binary run from the build tree looks
# (DataFiles.localeDirectory), and installed to PREFIX/share/locale.
LANGUAGES = $(basename $(notdir $(wildcard po/*.po)))
CATALOGUES = $(foreach lang,$(LANGUAGES),.build/locale/$(lang)/LC_MESSAGES/gtkprogress.mo)

# Pageload (libpageload-1.so, Sources/CPageload and Sources/Pageload): the bar as a GObject widget, with its
# introspection data (.gir, .typelib), Vala binding (.vapi), pkg-config file and header, staged in PAGELOAD_STAGE from
# the library beside BIN and installed by install-files. The soname carries the ABI (libpageload-1.so.0); the
# namespace carries the API version (Pageload-1).
PAGELOAD_VERSION = $(shell sed -n 's/.*static let version = "gtkprogress \(.*\)"/\1/p' Sources/GtkProgressCore/Support/CommandLineOptions.swift)
PAGELOAD_LIB = $(dir $(BIN))libpageload-1.so
PAGELOAD_STAGE = $(dir $(BIN))pageload
PAGELOAD_HEADER = Sources/CPageload/include/pageload.h
LIBDIR ?= $(PREFIX)/lib

.PHONY: all build release run test bench order install install-files uninstall deps clean screenshot deb deb-check locale po docs pageload pageload-docs

all: release

deps:
	@scripts/install-deps.sh build

build: deps locale
	$(SWIFT) build $(QUIET)

release: deps locale
	$(SWIFT) build $(RELEASE_FLAGS) $(QUIET)

locale: $(CATALOGUES)

.build/locale/%/LC_MESSAGES/gtkprogress.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

# The library as installed (libpageload-1.so.0.0.0 and its two links), then g-ir-scanner over the annotated header
# with warnings as errors (it runs a program linked to the library to read the types), the typelib, and the Vala
# binding made from the .gir. Needs a build of the library beside BIN (`make release` builds it).
pageload:
	@scripts/install-deps.sh gir
	rm -rf $(PAGELOAD_STAGE)
	mkdir -p $(PAGELOAD_STAGE)
	@if readelf -d $(PAGELOAD_LIB) | grep -q 'libswift'; then \
		echo "$(PAGELOAD_LIB) needs the Swift runtime as a shared library" >&2; exit 1; fi
	cp $(PAGELOAD_LIB) $(PAGELOAD_STAGE)/libpageload-1.so.0.0.0
	ln -s libpageload-1.so.0.0.0 $(PAGELOAD_STAGE)/libpageload-1.so.0
	ln -s libpageload-1.so.0 $(PAGELOAD_STAGE)/libpageload-1.so
	cd $(PAGELOAD_STAGE) && LD_LIBRARY_PATH=$$PWD g-ir-scanner --quiet --warn-all --warn-error \
		--namespace=Pageload --nsversion=1 --identifier-prefix=Pageload --symbol-prefix=pageload \
		--include=Gtk-3.0 --pkg=gtk+-3.0 --pkg-export=pageload-1 --c-include=pageload.h \
		--library=pageload-1 --library-path=. -I$(CURDIR)/Sources/CPageload/include \
		$(CURDIR)/$(PAGELOAD_HEADER) --output Pageload-1.gir
	g-ir-compiler $(PAGELOAD_STAGE)/Pageload-1.gir -o $(PAGELOAD_STAGE)/Pageload-1.typelib
	vapigen --quiet --library=pageload-1 --pkg=gtk+-3.0 --directory=$(PAGELOAD_STAGE) $(PAGELOAD_STAGE)/Pageload-1.gir
	printf 'gtk+-3.0\n' > $(PAGELOAD_STAGE)/pageload-1.deps

# The C reference of Pageload, from the annotated header through its .gir (gi-docgen, Debian 12's gi-docgen 2023.1).
pageload-docs: pageload
	rm -rf .build/docs/pageload
	gi-docgen generate --quiet --fatal-warnings --no-namespace-dir --config packaging/pageload/pageload.toml \
		--add-include-path /usr/share/gir-1.0 --output-dir .build/docs/pageload $(PAGELOAD_STAGE)/Pageload-1.gir
	@echo "reference: .build/docs/pageload/index.html"

# After changing messages in the sources: the template and every catalogue brought up to date (po/extract.py).
po:
	po/extract.py

run: release
	$(BIN) $(ARGS)

test: 
	@scripts/install-deps.sh test
	appstreamcli validate --no-net data/org.gtkprogress.Viewer.metainfo.xml
	po/extract.py --check
	$(MAKE) -s locale
	$(SWIFT) build $(QUIET)
	$(SWIFT) build --build-tests $(QUIET)
	@# GTK tests fail rather than skip when the display is missing (Tests/GtkProgressTests/RequireDisplay.swift).
	GTKPROGRESS_REQUIRE_DISPLAY=1 $(XVFB) $(SWIFT) test --skip-build $(QUIET)
	$(XVFB) dbus-run-session -- /usr/bin/python3 Tests/ui/run.py .build/debug/gtkprogress
	cd Tests/adopter && $(SWIFT) build $(QUIET)
	$(SWIFT) build $(RELEASE_FLAGS) $(QUIET)
	Tests/install/installed-without-toolchain.sh .build/release/gtkprogress
	@# Pageload from an installed copy: Python, GJS, C and Vala, the bar read back from the screen.
	$(MAKE) -s pageload-docs BIN=.build/release/gtkprogress
	$(XVFB) Tests/pageload/run.sh .build/release/gtkprogress
	$(MAKE) -s deb-check

bench: release
	@scripts/install-deps.sh bench
	/usr/bin/python3 bench/run.py $(BIN) $(BENCH_ARGS)

# After larger changes: the list of functions start-up and `--dump` run, for the release link (needs valgrind).
order: release
	scripts/startup-order.sh $(BIN)

screenshot: release
	$(XVFB) /usr/bin/python3 scripts/screenshot.py $(BIN)
	$(XVFB) /usr/bin/python3 scripts/screenshot.py --bar-demo $(dir $(BIN))bar-demo

# The library's reference: symbol graphs of the public API (GtkProgress's graph carries the modules it re-exports)
# rendered by the toolchain's docc with the articles in Sources/GtkProgress/GtkProgress.docc. Open
# .build/docs/documentation/gtkprogress/index.html through a web server (docc's pages load their data with fetch).
DOCS_SCRATCH = .build/docs-build
docs:
	@# The graphs of an up-to-date build stay from its last compile, so they are not removed.
	rm -rf $(DOCS_SCRATCH)/graphs .build/docs
	mkdir -p $(DOCS_SCRATCH)/symbol-graphs $(DOCS_SCRATCH)/graphs
	$(SWIFT) build --scratch-path $(DOCS_SCRATCH) --target GtkProgress -Xswiftc -emit-symbol-graph \
		-Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/$(DOCS_SCRATCH)/symbol-graphs $(QUIET)
	cp $(DOCS_SCRATCH)/symbol-graphs/GtkProgress.symbols.json $(DOCS_SCRATCH)/graphs/
	$(dir $(realpath $(SWIFT)))docc convert Sources/GtkProgress/GtkProgress.docc \
		--additional-symbol-graph-dir $(DOCS_SCRATCH)/graphs --output-dir .build/docs \
		--fallback-display-name GtkProgress --fallback-bundle-identifier org.gtkprogress.GtkProgress \
		--transform-for-static-hosting --warnings-as-errors
	@echo "reference: .build/docs/documentation/gtkprogress/index.html"

install: release pageload install-files

# Installs the files only, from an existing build (BIN=…).
install-files: locale
	install -Dm755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gtkprogress
	install -d $(DESTDIR)$(PREFIX)/libexec/gtkprogress
	install -m755 $(COMPANIONS) $(DESTDIR)$(PREFIX)/libexec/gtkprogress/
	install -d $(DESTDIR)$(PREFIX)/share/gtkprogress/curves $(DESTDIR)$(PREFIX)/share/gtkprogress/pages
	install -m644 data/welcome*.html $(DESTDIR)$(PREFIX)/share/gtkprogress/
	install -m644 data/curves/*.json $(DESTDIR)$(PREFIX)/share/gtkprogress/curves/
	install -m644 data/pages/*.html $(DESTDIR)$(PREFIX)/share/gtkprogress/pages/
	install -Dm644 data/gtkprogress.desktop $(DESTDIR)$(PREFIX)/share/applications/org.gtkprogress.Viewer.desktop
	sed -i 's|^Exec=gtkprogress|Exec=$(PREFIX)/bin/gtkprogress|' $(DESTDIR)$(PREFIX)/share/applications/org.gtkprogress.Viewer.desktop
	install -Dm644 data/gtkprogress.svg $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/org.gtkprogress.Viewer.svg
	install -Dm644 data/org.gtkprogress.Viewer.metainfo.xml $(DESTDIR)$(PREFIX)/share/metainfo/org.gtkprogress.Viewer.metainfo.xml
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	sed 's|/usr/share/gtkprogress|$(PREFIX)/share/gtkprogress|g; s|/usr/libexec/gtkprogress|$(PREFIX)/libexec/gtkprogress|g; s|/usr/share/locale|$(PREFIX)/share/locale|g' \
		data/gtkprogress.1 > $(DESTDIR)$(PREFIX)/share/man/man1/gtkprogress.1
	chmod 644 $(DESTDIR)$(PREFIX)/share/man/man1/gtkprogress.1
	for lang in $(LANGUAGES); do \
		install -Dm644 .build/locale/$$lang/LC_MESSAGES/gtkprogress.mo \
			$(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/gtkprogress.mo || exit 1; \
	done
	@# Pageload, when it was staged (`make pageload`).
	if [ -f $(PAGELOAD_STAGE)/Pageload-1.typelib ]; then \
		install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(LIBDIR)/girepository-1.0 \
			$(DESTDIR)$(PREFIX)/include/pageload-1 $(DESTDIR)$(PREFIX)/share/gir-1.0 $(DESTDIR)$(PREFIX)/share/vala/vapi && \
		install -m644 $(PAGELOAD_STAGE)/libpageload-1.so.0.0.0 $(DESTDIR)$(LIBDIR)/ && \
		ln -sf libpageload-1.so.0.0.0 $(DESTDIR)$(LIBDIR)/libpageload-1.so.0 && \
		ln -sf libpageload-1.so.0 $(DESTDIR)$(LIBDIR)/libpageload-1.so && \
		install -m644 $(PAGELOAD_STAGE)/Pageload-1.typelib $(DESTDIR)$(LIBDIR)/girepository-1.0/ && \
		install -m644 $(PAGELOAD_STAGE)/Pageload-1.gir $(DESTDIR)$(PREFIX)/share/gir-1.0/ && \
		install -m644 $(PAGELOAD_STAGE)/pageload-1.vapi $(PAGELOAD_STAGE)/pageload-1.deps $(DESTDIR)$(PREFIX)/share/vala/vapi/ && \
		install -m644 $(PAGELOAD_HEADER) $(DESTDIR)$(PREFIX)/include/pageload-1/ && \
		sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(PAGELOAD_VERSION)|' \
			packaging/pageload/pageload-1.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/pageload-1.pc && \
		chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/pageload-1.pc || exit 1; \
	fi
	-[ -z "$(DESTDIR)" ] && update-desktop-database -q $(PREFIX)/share/applications 2>/dev/null || true
	-[ -z "$(DESTDIR)" ] && gtk-update-icon-cache -q -t $(PREFIX)/share/icons/hicolor 2>/dev/null || true

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gtkprogress
	rm -rf $(DESTDIR)$(PREFIX)/libexec/gtkprogress
	rm -rf $(DESTDIR)$(PREFIX)/share/gtkprogress
	rm -f $(DESTDIR)$(PREFIX)/share/applications/org.gtkprogress.Viewer.desktop
	rm -f $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/org.gtkprogress.Viewer.svg
	rm -f $(DESTDIR)$(PREFIX)/share/metainfo/org.gtkprogress.Viewer.metainfo.xml
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/gtkprogress.1
	for lang in $(LANGUAGES); do rm -f $(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/gtkprogress.mo; done
	rm -f $(DESTDIR)$(LIBDIR)/libpageload-1.so* $(DESTDIR)$(LIBDIR)/girepository-1.0/Pageload-1.typelib
	rm -f $(DESTDIR)$(LIBDIR)/pkgconfig/pageload-1.pc $(DESTDIR)$(PREFIX)/share/gir-1.0/Pageload-1.gir
	rm -f $(DESTDIR)$(PREFIX)/share/vala/vapi/pageload-1.vapi $(DESTDIR)$(PREFIX)/share/vala/vapi/pageload-1.deps
	rm -rf $(DESTDIR)$(PREFIX)/include/pageload-1

# gtkprogress_VERSION_ARCH.deb in this directory, from `make install-files PREFIX=/usr` (scripts/build-deb.sh).
# With them libpageload-1-0, gir1.2-pageload-1 and libpageload-1-dev (Pageload, `make pageload`).
deb: release pageload
	@scripts/install-deps.sh deb
	scripts/build-deb.sh $(BIN) .

# Builds the package and inspects it: contents, control fields, lintian, and the binaries running from it.
deb-check: deb
	@scripts/install-deps.sh deb-check
	/usr/bin/python3 Tests/deb/check_deb.py gtkprogress_*_$$(dpkg --print-architecture).deb
	/usr/bin/python3 Tests/deb/check_pageload_debs.py libpageload-1-0_*_$$(dpkg --print-architecture).deb \
		gir1.2-pageload-1_*_$$(dpkg --print-architecture).deb libpageload-1-dev_*_$$(dpkg --print-architecture).deb

clean:
	rm -rf .build
	rm -f gtkprogress_*.deb libpageload-1-0_*.deb gir1.2-pageload-1_*.deb libpageload-1-dev_*.deb
