// One import gives a client of the library everything public: the bar (`LoadIndicator`) and the widgets here,
// the curve types of the core, `ProgressCurve.load` of the files target and `MainLoopTimer` of the loader.
// Everything else in those targets is `package`, for the programs of this package only.
@_exported public import GtkProgressCore
@_exported public import GtkProgressLoading
@_exported public import GtkProgressFiles
