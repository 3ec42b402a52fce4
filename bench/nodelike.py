"""The page writer for pages in the shape of Node.js's all.html, shared by the "huge" row (rows/huge.py) and the
UI test that leaves, reloads and closes a huge page (Tests/ui/test_huge_pages.py). No imports of the bench: the
test loads this file on its own."""

import random


def dense_page(path, size, title, seed, words, lead=""):
    """Deterministic HTML of about `size` bytes in the shape of Node.js's all.html, denser in tags than
    generate_page: paragraphs thick with code spans and links (links around code too), nested lists, headings,
    preformatted blocks and tables. Deleting such a page from a GtkTextBuffer on screen is what took GTK tens of
    seconds (DESIGN.md, "Traps found when the viewer was tried on large and hostile pages"); a page of plain
    paragraphs as large takes about one. `words` are the words of its text; `lead` is HTML put right after the
    page's heading."""
    rng = random.Random(seed)
    section = 0

    def inline(n):
        parts = []
        for _ in range(n):
            w, r = rng.choice(words), rng.random()
            if r < 0.12:
                w = f"<code>{w}()</code>"
            elif r < 0.20:
                w = f"<a href='#s{rng.randint(1, section)}'><code>{w}</code></a>"
            elif r < 0.26:
                w = f"<a href='#s{rng.randint(1, section)}'>{w}</a>"
            elif r < 0.29:
                w = f"<strong>{w}</strong>"
            elif r < 0.31:
                w = f"<em>{w}</em>"
            parts.append(w)
        return " ".join(parts)

    out = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head><body><h1>{title}</h1>",
           lead]
    total = len(lead.encode())
    while total < size:
        section += 1
        level = 3 + section % 3
        text = "".join([
            f"<h{level} id='s{section}'>Section <code>{section}</code></h{level}><p>{inline(40)}.</p>",
            "<ul>" + "".join(f"<li>{inline(8)}<ul><li>{inline(5)}</li></ul></li>" for _ in range(3)) + "</ul>",
            f"<pre>{rng.choice(words)} = {section};\nconst x = {section * 7};</pre>",
            f"<table><tr><th>a</th><th>b</th></tr><tr><td>{inline(3)}</td><td>{inline(3)}</td></tr></table>\n"])
        out.append(text)
        total += len(text.encode())
    out.append("</body></html>\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(out))
    return path
