/// The reader's languages, most wanted first, read from the environment as gettext reads it for the messages
/// (<https://www.gnu.org/software/gettext/manual/gettext.html#Locale-Environment-Variables>): the locale of
/// messages is `LC_ALL`, else `LC_MESSAGES`, else `LANG`; in the "C" or "POSIX" locale everything is English and
/// `LANGUAGE` is not looked at; otherwise `LANGUAGE`'s colon-separated list comes first. Each name is given
/// without its codeset and modifier, then as the language alone: "ja_JP.UTF-8" gives "ja_JP", "ja".
package enum PreferredLanguages {
    package static func from(environment: [String: String]) -> [String] {
        let locale = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let base = strip(locale)
        guard !base.isEmpty, base != "C", base != "POSIX" else { return [] }
        let listed = (environment["LANGUAGE"] ?? "").split(separator: ":").map { strip(String($0)) }
        var names: [String] = []
        for name in listed + [base] where !name.isEmpty && name != "C" && name != "POSIX" {
            for candidate in [name, String(name.prefix { $0 != "_" })] where !names.contains(candidate) {
                names.append(candidate)
            }
        }
        return names
    }

    /// "ja_JP.UTF-8@modifier" → "ja_JP".
    private static func strip(_ name: String) -> String {
        String(name.prefix { $0 != "." && $0 != "@" })
    }
}
