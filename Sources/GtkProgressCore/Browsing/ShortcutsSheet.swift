/// The keyboard shortcuts window (GNOME HIG: Ctrl+? and F1), generated from the key table the key handling reads
/// (`KeyBinding.all`), as GtkBuilder XML for a `GtkShortcutsWindow`.
/// <https://docs.gtk.org/gtk3/class.ShortcutsWindow.html>
package enum ShortcutsSheet {
    /// A group of the window: its title and its rows, each a command and every key (in GTK's accelerator syntax)
    /// that triggers it where the group says.
    package struct Group: Equatable, Sendable {
        package var title: String
        package var rows: [(command: BrowserCommand, accelerators: [String])]

        package static func == (a: Group, b: Group) -> Bool {
            a.title == b.title && a.rows.map(\.command) == b.rows.map(\.command)
                && a.rows.map(\.accelerators) == b.rows.map(\.accelerators)
        }
    }

    /// Which group a command of the window's keys belongs to; page and find bar keys have a group each.
    private enum Heading: CaseIterable {
        case navigation, windows, find, textSize, page, findBar

        var title: String {
            switch self {
            case .navigation: L("Navigation")
            case .windows: L("Windows and files")
            case .find: L("Find")
            case .textSize: L("Text size")
            case .page: L("On the page")
            case .findBar: L("In the find bar")
            }
        }

        static func of(_ binding: KeyBinding) -> Heading {
            switch binding.scope {
            case .page: return .page
            case .find: return .findBar
            case .window: break
            }
            switch binding.command {
            case .back, .forward, .reload, .stopOrRestoreAddress, .focusAddress, .history, .bookmark: return .navigation
            case .find, .findNext, .findPrevious, .closeFind: return .find
            case .zoomIn, .zoomOut, .zoomReset: return .textSize
            default: return .windows
            }
        }
    }

    /// Every key of the table but the aliases, grouped, in the table's order.
    package static var groups: [Group] {
        Heading.allCases.compactMap { heading in
            var rows: [(command: BrowserCommand, accelerators: [String])] = []
            for binding in KeyBinding.all where !binding.isAlias && Heading.of(binding) == heading {
                if let index = rows.firstIndex(where: { $0.command == binding.command }) {
                    rows[index].accelerators.append(binding.accelerator)
                } else {
                    rows.append((binding.command, [binding.accelerator]))
                }
            }
            return rows.isEmpty ? nil : Group(title: heading.title, rows: rows)
        }
    }

    /// The object id of the window in `builderXML`.
    package static let windowID = "shortcuts"

    /// GtkBuilder XML of the shortcuts window.
    package static var builderXML: String {
        var xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"\(windowID)\">"
            + "<property name=\"modal\">1</property><child><object class=\"GtkShortcutsSection\">"
            + "<property name=\"visible\">1</property><property name=\"section-name\">viewer</property>"
            + "<property name=\"max-height\">14</property>"
        for group in groups {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"visible\">1</property>"
                + "<property name=\"title\">\(GeneratedPages.escape(group.title))</property>"
            for row in group.rows {
                xml += "<child><object class=\"GtkShortcutsShortcut\"><property name=\"visible\">1</property>"
                    + "<property name=\"accelerator\">\(GeneratedPages.escape(row.accelerators.joined(separator: " ")))</property>"
                    + "<property name=\"title\">\(GeneratedPages.escape(row.command.title))</property>"
                    + "</object></child>"
            }
            xml += "</object></child>"
        }
        return xml + "</object></child></object></interface>"
    }
}
