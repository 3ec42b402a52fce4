import Foundation
import GtkProgress

print(CommandLineOptions.usage)
