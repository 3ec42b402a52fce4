internal import CIntl
import Foundation

/// Messages in the reader's language, through GNU gettext (the text domain `gtkprogress`; catalogues in `po/`,
/// compiled to `share/locale/LANG/LC_MESSAGES/gtkprogress.mo`). A message with no translation stays in English,
/// as gettext returns the msgid it was given.
/// <https://www.gnu.org/software/gettext/manual/gettext.html#Sources>
public enum Localization {
    public static let domain = "gtkprogress"

    /// Picks the language from the environment (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) and binds the domain to
    /// `directory`; call it once, first thing in `main`. Only LC_MESSAGES and LC_CTYPE are taken from the locale:
    /// LC_NUMERIC would put decimal commas into output other programs read (`--print-curve`).
    public static func start(directory: URL?) {
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
/// without interpolation. Arguments fill `%@` (text) and `%ld` (numbers) with `String(format:)`; translations may
/// reorder them as `%1$@`, `%2$ld`.
package func L(_ message: String) -> String {
    Localization.translate(message)
}

package func L(_ format: String, _ arguments: any CVarArg...) -> String {
    String(format: Localization.translate(format), arguments: arguments)
}

/// A message whose wording follows a number (gettext's plural forms): `LN("%ld byte", "%ld bytes", n, n)`.
package func LN(_ singular: String, _ plural: String, _ count: Int, _ arguments: any CVarArg...) -> String {
    String(format: Localization.translate(singular, plural, count: count), arguments: arguments)
}
