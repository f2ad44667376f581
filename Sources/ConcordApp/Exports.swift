// Text as a terminal shows it is part of what an app is: its renderers measure and fit text.
@_exported import ConcordText
