internal import CIntl
import FoundationEssentials

/// Messages in the reader's language, through GNU gettext (the text domain `gtkprogress`; catalogues in `po/`,
/// compiled to `share/locale/LANG/LC_MESSAGES/gtkprogress.mo`). A message with no translation stays in English,
/// as gettext returns the msgid it was given.
/// <https://www.gnu.org/software/gettext/manual/gettext.html#Sources>
package enum Localization {
    package static let domain = "gtkprogress"

    /// Picks the language from the environment (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) and binds the domain to
    /// `directory`; call it once, first thing in `main`. Only LC_MESSAGES and LC_CTYPE are taken from the locale:
    /// LC_NUMERIC would put decimal commas into output other programs read (`--print-curve`).
    package static func start(directory: URL?) {
        setlocale(LC_MESSAGES, "")
        setlocale(LC_CTYPE, "")
        if let directory { _ = bindtextdomain(domain, directory.path) }
        // Swift strings are UTF-8 whatever the locale's codeset.
        _ = bind_textdomain_codeset(domain, "UTF-8")
    }

    static func translate(_ message: String) -> String {
        // gettext may hand back its argument itself: copy it before the temporary C string is gone.
        message.withCString { String(cString: dgettext(domain, $0)) }
    }

    static func translate(_ singular: String, _ plural: String, count: Int) -> String {
        singular.withCString { one in
            plural.withCString { other in String(cString: dngettext(domain, one, other, UInt(max(count, 0)))) }
        }
    }
}

/// A message for the reader, translated. `po/extract.py` collects every `L("…")` and `L("…", args)` of the
/// sources into the template; the literal is the msgid, so it must be a string literal (or literals joined by `+`)
/// without interpolation. Arguments fill `%@` (text) and `%ld` (numbers), in order, or as `%1$@`, `%2$ld` where a
/// translation puts them in another order: the placeholders of Objective-C's format strings, which `msgfmt --check`
/// compares between a message and its translation (`#, objc-format`).
package func L(_ message: String) -> String {
    Localization.translate(message)
}

package func L(_ format: String, _ arguments: any CustomStringConvertible...) -> String {
    Localization.fill(Localization.translate(format), arguments)
}

/// A message whose wording follows a number (gettext's plural forms): `LN("%ld byte", "%ld bytes", n, n)`.
package func LN(_ singular: String, _ plural: String, _ count: Int, _ arguments: any CustomStringConvertible...) -> String {
    Localization.fill(Localization.translate(singular, plural, count: count), arguments)
}

extension Localization {
    /// `format` with its placeholders replaced: `%@`, `%ld`, `%lld` or `%d` take the next argument, `%N$…` the Nth,
    /// `%%` is a percent sign. A placeholder without an argument stays as written rather than failing.
    static func fill(_ format: String, _ arguments: [any CustomStringConvertible]) -> String {
        guard format.contains("%") else { return format }
        var out = ""
        var next = 0
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            var cursor = rest.index(after: percent)
            if cursor < rest.endIndex, rest[cursor] == "%" {
                out += "%"
                rest = rest[rest.index(after: cursor)...]
                continue
            }
            var position: Int?
            let digits = rest[cursor...].prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, digits.endIndex < rest.endIndex, rest[digits.endIndex] == "$" {
                position = Int(digits).map { $0 - 1 }
                cursor = rest.index(after: digits.endIndex)
            }
            let conversion = ["@", "lld", "ld", "d"].first { rest[cursor...].hasPrefix($0) }
            guard let conversion else {
                out += "%"
                rest = rest[rest.index(after: percent)...]
                continue
            }
            let index = position ?? next
            if position == nil { next += 1 }
            let end = rest.index(cursor, offsetBy: conversion.count)
            out += index >= 0 && index < arguments.count ? arguments[index].description : String(rest[percent..<end])
            rest = rest[end...]
        }
        return out + rest
    }
}
