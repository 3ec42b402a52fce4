// The library's clients see the whole stack with one import: the pure core and the loader come along.
@_exported public import GtkProgressCore
@_exported public import GtkProgressLoading
@_exported public import GtkProgressFiles
