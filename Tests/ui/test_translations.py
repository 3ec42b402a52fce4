"""Translations (po/): the catalogues are complete and in step with the sources; --help, the window's tooltips and
accessible names, status and error pages speak Simplified Chinese and Japanese under those locales; messages a
catalogue lacks stay in English; the catalogues are found from the build tree and from an installed prefix.
The locales are compiled into a private directory with localedef and handed over with LOCPATH, so the test needs
the `locales` package but changes nothing on the machine."""

import os
import re
import shutil
import subprocess
import tempfile

from harness import ARTIFACTS, ROOT, App, check

PO = os.path.join(ROOT, "po")
LOCALES = os.path.join(ARTIFACTS, "locales")
# The catalogue of each language and the locale the test runs it under.
LANGUAGES = {"zh_CN": "zh_CN.UTF-8", "ja": "ja_JP.UTF-8"}
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def locale_env(locale, **extra):
    """The environment of a person whose session runs in `locale`, with the locale compiled on first use."""
    name = locale.split(".")[0]
    if not os.path.isdir(os.path.join(LOCALES, locale)):
        os.makedirs(LOCALES, exist_ok=True)
        result = subprocess.run(["localedef", "-i", name, "-f", "UTF-8", os.path.join(LOCALES, locale)],
                                capture_output=True, text=True)
        check(os.path.isdir(os.path.join(LOCALES, locale)), f"localedef {locale}: {result.stderr}")
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG=locale, LOCPATH=LOCALES, **extra)
    return env


def help_text(binary, env, cwd=None):
    result = subprocess.run([binary, "--help"], capture_output=True, text=True, env=env, cwd=cwd)
    check(result.returncode == 0, f"--help exits 0: {result}")
    return result.stdout


def option_lines(text):
    """{option: description} of the indented option lines of --help."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^\s+(--[a-z-]+)(?: \S+)?\s{2,}(.+)$", text, re.M)}


def test_catalogues_are_complete_and_in_step_with_the_sources(binary):
    result = subprocess.run([os.path.join(PO, "extract.py"), "--check"], capture_output=True, text=True)
    check(result.returncode == 0, f"po/extract.py --check: {result.stderr}")
    for language in LANGUAGES:
        path = os.path.join(PO, f"{language}.po")
        result = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", path],
                                capture_output=True, text=True)
        check(result.returncode == 0, f"msgfmt --check {language}.po: {result.stderr}")
        check(re.fullmatch(r"\d+ translated messages\.\n", result.stderr),
              f"{language}.po has no fuzzy or untranslated message: {result.stderr}")
        header = open(path, encoding="utf-8").read()
        check("Plural-Forms: nplurals=1; plural=0;" in header, f"{language}.po declares its plural forms")


def test_help_is_translated_under_each_locale(binary):
    english = help_text(binary, locale_env("C.UTF-8"))
    english_options = option_lines(english)
    check(len(english_options) >= 8, f"--help lists the options: {english}")
    for language, locale in LANGUAGES.items():
        text = help_text(binary, locale_env(locale))
        options = option_lines(text)
        check(set(options) == set(english_options), f"{locale}: the same options, untranslated: {sorted(options)}")
        for option, description in options.items():
            check(description != english_options[option] and CJK.search(description),
                  f"{locale}: {option} is described in {language}: {description!r}")
        first = text.splitlines()[0]
        check(CJK.search(first) and "gtkprogress" in first, f"{locale}: the usage line is translated: {first!r}")
        # A message of the command line's own: the parser's error.
        result = subprocess.run([binary, "--no-such-option"], capture_output=True, text=True,
                                env=locale_env(locale))
        check(result.returncode == 2 and CJK.search(result.stderr) and "--no-such-option" in result.stderr,
              f"{locale}: the error is translated: {result.stderr!r}")


def test_a_language_without_a_catalogue_falls_back_to_english(binary):
    english = help_text(binary, locale_env("C.UTF-8"))
    # Korean first, and no Korean catalogue: every message stays as written.
    check(help_text(binary, locale_env("ja_JP.UTF-8", LANGUAGE="ko")) == english, "LANGUAGE=ko gives English")
    # A number keeps its place in a translation that has one (plural forms, argument order).
    result = subprocess.run([binary, "--dump", "/nonexistent/page.html"], capture_output=True, text=True,
                            env=locale_env("zh_CN.UTF-8"))
    check(result.returncode != 0 and "/nonexistent/page.html 处没有文件" in result.stderr,
          f"the file error in Chinese names the file: {result.stderr!r}")


def test_window_tooltips_names_and_error_page_under_zh_cn(binary):
    import pyatspi
    app = App(binary, "/nonexistent/page.html", env=locale_env("zh_CN.UTF-8"))
    try:
        back = app.find(pyatspi.ROLE_PUSH_BUTTON, "后退")
        # GTK 3 gives a widget's tooltip as its accessible description when it has none of its own.
        check(back.description == "后退 (Alt+Left)", f"the Back tooltip in Chinese: {back.description!r}")
        address = app.find(pyatspi.ROLE_TEXT, "地址")
        check(address.description == "地址 (Ctrl+L)", f"the address tooltip in Chinese: {address.description!r}")
        app.find(pyatspi.ROLE_PUSH_BUTTON, "重新加载")
        app.find(pyatspi.ROLE_LABEL, "状态")
        page = app.find(pyatspi.ROLE_TEXT, "页面")
        # The error page, written by the viewer, in Chinese; the failed address stays as typed.
        text = lambda: page.queryText().getText(0, -1)
        from harness import wait_for
        wait_for(lambda: "无法加载此页面" in text(), what=f"the error page in Chinese (page: {text()!r})")
        check("/nonexistent/page.html" in text() and "重试" in text(), f"the error page names the file: {text()!r}")
        app.screenshot("zh_CN-error-page.png")
    finally:
        app.close()


def test_installed_copy_finds_its_catalogues(binary):
    prefix = tempfile.mkdtemp(prefix="gtkprogress-prefix-")
    try:
        subprocess.run(["make", "-s", "-C", ROOT, "install-files", f"PREFIX={prefix}", f"BIN={binary}"], check=True)
        for language in LANGUAGES:
            mo = os.path.join(prefix, "share/locale", language, "LC_MESSAGES/gtkprogress.mo")
            check(os.path.exists(mo), f"make install puts the {language} catalogue in share/locale")
        # Away from the source tree, so only PREFIX/share/locale can answer.
        env = locale_env("ja_JP.UTF-8", GTKPROGRESS_DATADIR="")
        text = help_text(os.path.join(prefix, "bin/gtkprogress"), env, cwd="/")
        check("このヘルプを表示して終了します" in text, f"the installed copy speaks Japanese: {text}")
        subprocess.run(["make", "-s", "-C", ROOT, "uninstall", f"PREFIX={prefix}"], check=True)
        check(not os.path.exists(os.path.join(prefix, "share/locale/ja/LC_MESSAGES/gtkprogress.mo")),
              "make uninstall removes the catalogues")
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def test_the_link_menu_and_the_link_description_under_ja(binary):
    """The page's link menu and what a screen reader hears of a focused link are in Japanese too."""
    from harness import Server, wait_for
    from test_windows import _menu_items, page
    server = Server()
    target = page("Target")
    app = App(binary, server.url(page("Menu", target)), env=locale_env("ja_JP.UTF-8"))
    try:
        app.wait_title("Menu")
        import pyatspi
        page_text = app.find(pyatspi.ROLE_TEXT, "ページ")
        wait_for(lambda: target in page_text.queryText().getText(0, -1), what="the page's link")
        app.key("Tab")
        wait_for(lambda: (page_text.description or "").startswith(f"リンク: {target}、http"),
                 what=f"the focused link described in Japanese ({page_text.description!r})")
        app.key("shift+F10")
        items = wait_for(lambda: _menu_items(app), what="Shift+F10: the focused link's menu")
        for name in ("リンクを開く(O)", "リンクを新しいウィンドウで開く(W)", "リンクのアドレスをコピー(R)"):
            check(name in items, f"the menu offers {name!r}: {sorted(items)}")
        app.key("Escape")
    finally:
        app.close()
        server.stop()
