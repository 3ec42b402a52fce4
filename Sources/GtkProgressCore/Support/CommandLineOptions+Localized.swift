extension CommandLineOptions {
    /// `usage` in the reader's language: each option's description, and each paragraph of the rest, is one message
    /// (`po/extract.py` splits the text the same way), so the option column stays as typed.
    package static var localizedUsage: String {
        var lines: [String] = []
        var paragraph: [String] = []
        func flush() {
            if !paragraph.isEmpty { lines.append(Localization.translate(paragraph.joined(separator: "\n"))) }
            paragraph = []
        }
        for line in usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let split = optionColumnEnd(line) {
                flush()
                lines.append(String(line[..<split]) + Localization.translate(String(line[split...])))
            } else if line.isEmpty {
                flush()
                lines.append("")
            } else {
                paragraph.append(line)
            }
        }
        flush()
        return lines.joined(separator: "\n")
    }

    /// Where an option line's description starts: after the indent, the option and its value, and two or more spaces.
    static func optionColumnEnd(_ line: String) -> String.Index? {
        guard line.hasPrefix("  "), let option = line.firstIndex(where: { $0 != " " }), line[option] == "-" else {
            return nil
        }
        let text = line[option...]
        guard let gap = zip(text.indices, text.indices.dropFirst()).first(where: { text[$0.0] == " " && text[$0.1] == " " })
        else { return nil }
        return text[gap.0...].firstIndex { $0 != " " }
    }
}
