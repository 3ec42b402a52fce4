/// What the About dialog says about the application, read from its AppStream metadata
/// (`data/org.gtkprogress.Viewer.metainfo.xml`), so that the facts are written once.
/// <https://www.freedesktop.org/software/appstream/docs/chap-Metadata.html>
package struct AppMetadata: Sendable, Equatable {
    package var name: String?
    package var summary: String?
    /// The newest release's version (AppStream lists releases newest first).
    package var version: String?
    package var website: String?
    /// The SPDX expression of `<project_license>`, if the file declares one.
    package var license: String?
    package var developer: String?

    /// The first element of each kind in `xml`. The summary is the one in the first of `languages` (as
    /// `g_get_language_names` lists them: "ja_JP.UTF-8", "ja_JP", "ja", "C") the file has, else the untranslated one.
    package init(metainfo xml: String, languages: [String] = []) {
        name = Self.text(of: "name", in: xml)
        summary = languages.lazy.compactMap { Self.text(of: "summary", attributes: "xml:lang=\"\($0)\"", in: xml) }.first
            ?? Self.text(of: "summary", in: xml)
        website = Self.text(of: "url", attributes: "type=\"homepage\"", in: xml)
        license = Self.text(of: "project_license", in: xml)
        developer = Self.text(of: "developer_name", in: xml)
        version = Self.attribute("version", ofFirst: "release", in: xml)
    }

    private static func text(of element: String, attributes: String = "", in xml: String) -> String? {
        let open = "<" + element + (attributes.isEmpty ? ">" : " " + attributes + ">")
        guard let start = xml.firstRange(of: open)?.upperBound,
              let end = xml[start...].firstRange(of: "</" + element + ">")?.lowerBound else { return nil }
        let value = unescape(String(xml[start..<end]).trimmed())
        return value.isEmpty ? nil : value
    }

    private static func attribute(_ name: String, ofFirst element: String, in xml: String) -> String? {
        guard let tag = xml.firstRange(of: "<" + element + " ")?.upperBound,
              let close = xml[tag...].firstIndex(of: ">"),
              let start = xml[tag..<close].firstRange(of: name + "=\"")?.upperBound,
              let end = xml[start..<close].firstIndex(of: "\"") else { return nil }
        return unescape(String(xml[start..<end]))
    }

    private static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }
}
