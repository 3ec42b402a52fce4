/// A rectangle in a widget's coordinates.
package struct Rect: Equatable, Sendable {
    package var x, y, width, height: Double
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}
