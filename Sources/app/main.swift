import Foundation
import GtkProgress

guard Display.initialize() else {
    FileHandle.standardError.write(Data(("gtkprogress: cannot open a display (is DISPLAY set?)" + "\n").utf8))
    exit(1)
}
let app = Application(id: "org.gtkprogress.Viewer")
var windows: [Window] = []
app.onActivate {
    let w = app.makeWindow()
    w.title = "GtkProgress"
    w.setDefaultSize(width: 900, height: 700)
    let tv = TextView()
    tv.append("Hello", tags: [])
    w.add(tv)
    w.showAll()
    windows.append(w)
}
exit(app.run(arguments: Array(CommandLine.arguments.prefix(1))))
