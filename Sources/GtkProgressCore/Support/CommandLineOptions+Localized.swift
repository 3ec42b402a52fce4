import Foundation

extension CommandLineOptions {
    /// `usage` in the reader's language: each option's description, and each paragraph of the rest, is one message
    /// (`po/extract.py` splits the text the same way), so the option column stays as typed.
    public static var localizedUsage: String {
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
        guard line.hasPrefix("  "), let option = line.firstIndex(where: { $0 != " " }), line[option] == "-",
              let gap = line.range(of: "  ", range: option..<line.endIndex) else { return nil }
        return line[gap.lowerBound...].firstIndex { $0 != " " }
    }
}
