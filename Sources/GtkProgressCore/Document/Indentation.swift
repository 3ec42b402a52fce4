/// How far nested blocks (list items, block quotes, definitions) stand in from the margin: the one rule that
/// `--dump`, table cells and the window ask. `TextStyle.indent` holds the level.
package enum Indentation {
    /// Levels stop growing past this many, as in w3m (`MAX_INDENT_LEVEL` in its html.h): deeper nesting would
    /// push text off the screen, and the spaces of a dump would grow with depth times lines.
    package static let deepestLevel = 10
    /// Columns a level takes in text: four, as lynx and w3m indent a list (w3m's `IndentIncr`).
    package static let columnsPerLevel = 4
    /// Pixels a column of indentation takes in the window: about the average advance of the body font at its
    /// default size (10 pt at 96 dpi), so that a level is as deep on screen as in a dump.
    package static let pixelsPerColumn = 6

    /// Columns of indentation at `level`.
    package static func columns(level: Int) -> Int {
        min(max(level, 0), deepestLevel) * columnsPerLevel
    }

    /// Pixels of indentation at `level` in the window.
    package static func pixels(level: Int) -> Int {
        columns(level: level) * pixelsPerColumn
    }
}
