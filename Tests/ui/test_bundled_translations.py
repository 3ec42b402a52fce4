"""The bundled pages in the reader's language: every English page has its Chinese and Japanese translation, every
link of every page leads to a file that is there, and the welcome page opens in Chinese and in Japanese, its links
leading to the translated pages."""

import os
import re
from html.parser import HTMLParser

from harness import ROOT, App, check
from test_translations import locale_env

DATA = os.path.join(ROOT, "data")
# The pages a person reads; pages/large.html is a length test in English for everyone.
ENGLISH = ["welcome.html", "pages/shortcuts.html", "pages/curves.html"]
LANGUAGES = {"zh_CN": ("zh_CN.UTF-8", "欢迎使用 GtkProgress", "键盘快捷键", "返回欢迎页面"),
             "ja": ("ja_JP.UTF-8", "GtkProgress へようこそ", "キーボードショートカット", "ようこそページに戻る")}
# The page's and the address entry's accessible names in each language (po/*.po).
NAMES = {"zh_CN": ("页面", "地址"), "ja": ("ページ", "アドレス")}


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs += [v for k, v in attrs if k == "href" and v]


def translated(page, language):
    return re.sub(r"\.html$", f".{language}.html", page)


def test_every_page_has_its_translations_and_every_link_works(binary):
    pages = list(ENGLISH)
    for page in ENGLISH:
        for language in LANGUAGES:
            path = translated(page, language)
            check(os.path.exists(os.path.join(DATA, path)), f"{page} has its {language} translation {path}")
            pages.append(path)
    for page in pages:
        links = Links()
        with open(os.path.join(DATA, page), encoding="utf-8") as f:
            text = f.read()
        links.feed(text)
        check(links.hrefs, f"{page} has links")
        for href in links.hrefs:
            if re.match(r"^[a-z]+:", href):
                continue
            target = os.path.normpath(os.path.join(DATA, os.path.dirname(page), href.split("#")[0]))
            check(os.path.exists(target), f"{page}: the link {href} leads to {target}, which is missing")
            # A translated page links to its own language's pages where there is one.
            for language in LANGUAGES:
                if page.endswith(f".{language}.html") and href.endswith(".html") and not href.endswith("large.html"):
                    check(href.endswith(f".{language}.html"), f"{page} links to {href}, not the {language} page")
        # Each translation has the same number of links as its English page.
        for language in LANGUAGES:
            if page.endswith(f".{language}.html"):
                english = Links()
                with open(os.path.join(DATA, page.replace(f".{language}.html", ".html")), encoding="utf-8") as f:
                    english.feed(f.read())
                check(len(english.hrefs) == len(links.hrefs), f"{page} has as many links as its English page")


def test_the_welcome_page_in_chinese_and_japanese(binary):
    import pyatspi
    from harness import wait_for
    for language, (locale, welcome, shortcuts, back) in LANGUAGES.items():
        page_name, address_name = NAMES[language]
        app = App(binary, "--new-session", env=locale_env(locale))
        try:
            app.wait_title(welcome)
            page = app.find(pyatspi.ROLE_TEXT, page_name)
            wait_for(lambda: shortcuts in page.queryText().getText(0, -1), what=f"the {language} welcome text")
            address = app.find(pyatspi.ROLE_TEXT, address_name)
            check(address.queryText().getText(0, -1).endswith(f"welcome.{language}.html"),
                  f"the {language} page: {address.queryText().getText(0, -1)}")
            app.screenshot(f"welcome-{language}.png")
            # The first link is the shortcuts page, in the same language; its one link leads back.
            app.focus()
            app.key("Tab", "Return")
            app.wait_title(shortcuts)
            wait_for(lambda: back in app.find(pyatspi.ROLE_TEXT, page_name).queryText().getText(0, -1),
                     what="the translated shortcuts page")
            app.key("Tab", "Return")
            app.wait_title(welcome)
        finally:
            app.close()
